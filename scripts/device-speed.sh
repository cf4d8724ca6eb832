#!/usr/bin/env bash
# The speed measurements of one GPU in one run: `fibril bench` of the naive
# and columns kernels with fast and exact math, against torch.compile of the
# same Karma step (bench/torch_karma.py), the columns kernel's z-chunk and
# block sweep, the torch result against fibril's, and ncu's counters per
# kernel (warp instructions and DRAM bytes per cell-update). Binaries in
# $BIN (default .device: fibril and gpu_vs_cpu from scripts/stage-device.sh);
# writes under $OUT. ncu needs root (or the profiling permission). PARTS
# picks what runs (default: all of "tests bench sweep compare ncu").
# Usage: OUT=out PARTS="tests bench" scripts/device-speed.sh
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
BIN=${BIN:-$PWD/.device}; TORCH=${TORCH:-bench/torch_karma.py}
PARTS=${PARTS:-tests bench sweep compare ncu}
export PATH=$BIN:$PATH
part() { [[ " $PARTS " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
if part tests; then
  echo "== GPU vs CPU"; timeout 300 "$BIN/gpu_vs_cpu" 2>&1 | tee "$OUT/gpu_tests.txt"
fi
bench() { # size steps name [options]
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 50 --repeats "${REPEATS:-5}" --json "$OUT/$3.json" "${@:4}" 2>&1 \
    | grep '^bench ' | sed "s/^/$3 /" | tee -a "$OUT/bench.txt"
}
part bench && echo "== fibril bench and torch.compile, same run"
part bench && for n in 256 512; do
  steps=$([ "$n" = 256 ] && echo 1000 || echo 200)
  python3 "$TORCH" --size "$n" --steps "$steps" --repeats 5 | tee "$OUT/torch_$n.json"
  for k in naive columns; do
    bench "$n" "$steps" "${k}_fast_$n" --kernel "$k"
    bench "$n" "$steps" "${k}_exact_$n" --kernel "$k" --exact-math
  done
done
part sweep && echo "== columns: z-chunk and block"
part sweep && for n in 256 512; do
  steps=$([ "$n" = 256 ] && echo 500 || echo 100)
  for b in ${BLOCKS:-32x8 32x4 64x4 64x2}; do
    for z in ${ZCHUNKS:-4 8 16 32}; do
      REPEATS=3 bench "$n" "$steps" "sweep_${n}_${b}_z$z" --kernel columns --block "$b" --z-chunk "$z"
    done
  done
done
part compare && echo "== torch.compile against fibril (128^3, 1000 steps from the planar start)"
part compare && for m in fast exact; do
  extra=$([ "$m" = exact ] && echo --exact-math)
  fibril run --backend gpu --size 128 --steps 1000 --save-v --out "/tmp/cmp_$m" -q $extra
  python3 "$TORCH" --compare "/tmp/cmp_$m" | sed "s/^/$m /" | tee -a "$OUT/compare.txt"
done
echo "== ncu (one 256^3 step after 30 warm-up launches)"
M=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
if part ncu && command -v ncu >/dev/null; then
  for spec in "naive fast" "naive exact" "columns fast" "columns exact"; do
    set -- $spec
    extra=$([ "$2" = exact ] && echo --exact-math)
    ncu --metrics "$M" --kernel-name regex:karma_ --launch-skip 30 --launch-count 1 --csv \
      fibril bench --backend gpu --size 256 --steps 1 --warmup 30 --repeats 1 --kernel "$1" $extra \
      > "$OUT/ncu_$1_$2.csv" 2> "$OUT/ncu_$1_$2.err"
  done
  ncu --metrics "$M" --kernel-name regex:triton --launch-skip 30 --launch-count 1 --csv --target-processes all \
    python3 "$TORCH" --size 256 --steps 1 --warmup 30 --repeats 1 > "$OUT/ncu_torch.csv" 2> "$OUT/ncu_torch.err"
  for f in "$OUT"/ncu_*.csv; do echo "-- $f"; grep -E '^"[0-9]' "$f" | awk -F'","' '{print $5, $(NF-2), $NF}' ; done
fi
echo "== ratios"
python3 - "$OUT" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
for n in (256, 512):
    torch = json.loads((out / f"torch_{n}.json").read_text())["steps_per_s"]
    for name in ("naive_fast", "naive_exact", "columns_fast", "columns_exact"):
        f = out / f"{name}_{n}.json"
        if f.exists():
            r = json.loads(f.read_text())
            s = r["throughput"]["steps_per_s"] if "throughput" in r else r["steps_per_s"]
            print(f"{n}^3 {name:14s} {s:10.1f} steps/s  torch.compile {torch:10.1f}  ratio {s / torch:.3f}")
PY
