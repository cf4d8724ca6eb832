#!/usr/bin/env bash
# The blocked kernel (k steps per pass) on the GPU machine: its GPU checks,
# the sweep of k = 1..4 over a few tile shapes for Karma f32 at 256^3 and
# 512^3 with torch.compile of the same step in the same run (the ratio is
# printed last), and ncu's DRAM bytes and warp instructions per
# cell-update for each k. Binaries in $BIN (default .device: fibril and
# gpu_vs_cpu from scripts/stage-device.sh); writes under $OUT. ncu needs
# root (or the profiling permission). PARTS picks what runs (default: all
# of "regs tests sweep ncu"); TILES the tile shapes (--block) of the sweep, KS
# its steps per pass, NCU_TILES those profiled (NCU_ZCHUNK their slices
# per block, default 32); TESTS filters the GPU
# checks by name (default: those of the blocked kernel); ZCHUNKS the
# slices per block of the sweep (default 32); SPECS its sizes and steps.
# Usage: OUT=out scripts/device-blocked.sh
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
BIN=${BIN:-$PWD/.device}; TORCH=${TORCH:-bench/torch_karma.py}
PARTS=${PARTS:-regs tests sweep ncu}
TILES=${TILES:-32x16 32x24 32x32 64x16}; KS=${KS:-1 2 3 4}; NCU_TILES=${NCU_TILES:-32x32}
TESTS=${TESTS:-blocked}
# Sizes and step counts of the sweep, "size steps;size steps".
IFS=';' read -r -a SPECS <<< "${SPECS:-256 1200;512 240}"
export PATH=$BIN:$PATH
part() { [[ " $PARTS " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
if part regs; then
  # Registers and spills of every blocked kernel as ptxas builds them for
  # the GPU at hand (the PTX retargeted as the host does on Hopper).
  echo "== ptxas: registers of the blocked kernels"
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  sed -e 's/^\.version .*/.version 7.8/' -e "s/^\.target .*/.target $arch/" "$BIN/kernels.ptx" > "$OUT/kernels_$arch.ptx"
  entries=$(grep -o '^\.visible \.entry [a-z0-9_]*_blocked_f[0-9]*' "$OUT/kernels_$arch.ptx" | awk '{print "-e " $3}')
  ptxas -arch="$arch" -v $entries "$OUT/kernels_$arch.ptx" -o /dev/null 2>&1 \
    | grep -E "Compiling entry|spill|Used" | tee "$OUT/blocked_registers.txt"
  rm -f "$OUT/kernels_$arch.ptx"
fi
if part tests; then
  echo "== GPU vs CPU (the blocked checks among them)"
  timeout 400 "$BIN/gpu_vs_cpu" $TESTS 2>&1 | tee "$OUT/gpu_tests.txt"
fi
# Step counts are multiples of 12, so every k takes whole passes.
bench() { # size steps name [options]
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 48 --repeats "${REPEATS:-5}" --json "$OUT/$3_$1.json" \
    "${@:4}" 2>&1 | grep '^bench ' | sed "s/^/$3 /" | tee -a "$OUT/bench.txt"
}
if part sweep; then
  echo "== fibril bench (columns, then blocked k x tile) and torch.compile, same run"
  for spec in "${SPECS[@]}"; do
    set -- $spec
    bench "$1" "$2" columns --kernel columns
    for tile in $TILES; do
      for k in $KS; do
        for z in ${ZCHUNKS:-32}; do
          bench "$1" "$2" "blocked_${tile}_k${k}_z$z" --kernel blocked --block "$tile" --steps-per-pass "$k" --z-chunk "$z"
        done
      done
    done
    python3 "$TORCH" --size "$1" --steps "$2" --warmup 100 --repeats 5 | tee "$OUT/torch_$1.json"
  done
fi
M=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__shared_mem_per_block_dynamic
M=$M,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
if part ncu && command -v ncu >/dev/null; then
  echo "== ncu (one full pass at 256^3 after 36 warm-up steps), tiles $NCU_TILES"
  for tile in $NCU_TILES; do
    for k in $KS; do
      ncu --metrics "$M" --kernel-name regex:karma_blocked --launch-skip $((36 / k)) --launch-count 1 --csv \
        fibril bench --backend gpu --size 256 --steps "$k" --warmup 36 --repeats 1 --kernel blocked --block "$tile" \
        --steps-per-pass "$k" --z-chunk "${NCU_ZCHUNK:-32}" > "$OUT/ncu_blocked_${tile}_k$k.csv" 2> "$OUT/ncu_blocked_${tile}_k$k.err"
    done
  done
fi
echo "== summary"
python3 - "$OUT" <<'PY' | tee "$OUT/blocked_summary.txt"
import csv, json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for n in (256, 512):
    try:
        torch = json.loads((out / f"torch_{n}.json").read_text())["steps_per_s"]
    except (OSError, ValueError, KeyError) as e:
        print(f"{n}^3: no torch.compile figure ({e})")
        torch = None
    for f in sorted(out.glob(f"*_{n}.json")):
        if f.name.startswith("torch"):
            continue
        r = json.loads(f.read_text())
        s = r["throughput"]["steps_per_s"] if "throughput" in r else r["steps_per_s"]
        ratio = f"{s / torch:.3f}" if torch else "-"
        print(f"{n}^3 f32 {r['method']:<24} {s:10.1f} steps/s  fibril / torch.compile = {ratio}")
cells = 256 ** 3
for f in sorted(out.glob("ncu_blocked_*_k*.csv")):
    tile, k = f.stem.split("_")[2], int(f.stem.split("_k")[-1])
    rows = [r for r in csv.reader(f.read_text().splitlines()) if len(r) > 5 and r[0].isdigit()]
    m = {r[-3]: r[-1].replace(",", "") for r in rows}
    try:
        units = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}
        unit = {r[-3]: r[-2] for r in rows}
        dram = (float(m["dram__bytes_read.sum"]) * units.get(unit["dram__bytes_read.sum"], 1)
                + float(m["dram__bytes_write.sum"]) * units.get(unit["dram__bytes_write.sum"], 1))
        warp = float(m["smsp__inst_executed.sum"])
        print(f"ncu {tile} k={k}: {dram / (cells * k):.2f} DRAM B / cell-update, {warp / (cells * k):.2f} warp instr. / "
              f"cell-update, time {m.get('gpu__time_duration.sum')} ({unit.get('gpu__time_duration.sum')}), "
              f"issue {m.get('sm__inst_issued.avg.pct_of_peak_sustained_active')}%, warps active "
              f"{m.get('sm__warps_active.avg.pct_of_peak_sustained_active')}%, registers "
              f"{m.get('launch__registers_per_thread')}, shared {m.get('launch__shared_mem_per_block_dynamic')}")
        stalls = {k.split("stalled_")[1].split("_per_issue")[0]: v for k, v in m.items() if "stalled_" in k}
        if stalls:
            print("    warps stalled per issue: " + ", ".join(f"{k} {v}" for k, v in sorted(stalls.items())))
    except (KeyError, ValueError) as e:
        print(f"ncu {tile} k={k}: unreadable ({e}); see {f}")
PY
grep -h '^' "$OUT/bench.txt" 2>/dev/null | tail -n 40
