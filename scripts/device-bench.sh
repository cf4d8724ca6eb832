#!/usr/bin/env bash
# Runs on the GPU machine over a copy of the working tree, with the release
# binary and the GPU test binary in $BIN (default .device/; see
# scripts/stage-device.sh). Writes logs and JSON under $OUT (or
# ./device-out) and prints a table last, with the ratio of fibril to
# torch.compile of the same step (bench/torch_karma.py, or $TORCH).
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
BIN=${BIN:-$PWD/.device}; TORCH=${TORCH:-bench/torch_karma.py}
export PATH=$BIN:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
fibril info --size 256 | tee "$OUT/info.txt"
echo "== GPU vs CPU tests"; "$BIN/gpu_vs_cpu" 2>&1 | tee "$OUT/gpu_tests.txt"
echo "== baseline (CUDA C)"
if command -v nvcc >/dev/null; then
  nvcc -O3 -arch=sm_90 -o /tmp/karma_naive bench/baseline/karma_naive.cu && /tmp/karma_naive | tee "$OUT/baseline.jsonl"
fi
echo "== fibril bench"
for spec in "128 2000 f32" "256 1000 f32" "512 200 f32" "256 500 f64"; do
  set -- $spec
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 100 --repeats 5 --precision "$3" \
    --json "$OUT/bench_${1}_$3.json" 2>&1 | tee -a "$OUT/bench.txt"
done
echo "== torch.compile of the same step (bench/torch_karma.py), same run"
for spec in "256 1000" "512 200"; do
  set -- $spec
  python3 "$TORCH" --size "$1" --steps "$2" --warmup 100 --repeats 5 | tee "$OUT/torch_$1.json"
done
python3 - "$OUT" <<'PY' | tee "$OUT/ratio.txt"
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
for n in (256, 512):
    try:
        fibril = json.loads((out / f"bench_{n}_f32.json").read_text())
        torch = json.loads((out / f"torch_{n}.json").read_text())["steps_per_s"]
    except (OSError, ValueError, KeyError) as e:
        print(f"{n}^3: no ratio ({e})")
        continue
    print(f"{n}^3 f32: fibril {fibril['method']} ({fibril['math']} math) {fibril['steps_per_s']:.1f} steps/s, "
          f"torch.compile {torch:.1f} steps/s, fibril / torch.compile = {fibril['steps_per_s'] / torch:.3f}")
PY
echo "== run (GPU, auto backend) and errors"
fibril run --size 128 --duration-ms 100 --snapshot-every-ms 50 --out /tmp/run128 2>&1 | tee "$OUT/run.txt"
cp /tmp/run128/summary.json "$OUT/run_summary.json"
fibril run --backend gpu --size 3000 --out /tmp/big 2>&1 | tee -a "$OUT/run.txt"
grep -h '^bench ' "$OUT/bench.txt"
