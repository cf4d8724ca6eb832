#!/usr/bin/env bash
# Runs on the GPU machine over a copy of the working tree, with the release
# binary and the GPU test binary in .device/ (see scripts/stage-device.sh).
# Writes logs and JSON under $OUT (or ./device-out) and prints a table last.
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
fibril info --size 256 | tee "$OUT/info.txt"
echo "== GPU vs CPU tests"; .device/gpu_vs_cpu 2>&1 | tee "$OUT/gpu_tests.txt"
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
echo "== run (GPU, auto backend) and errors"
fibril run --size 128 --duration-ms 100 --snapshot-every-ms 50 --out /tmp/run128 2>&1 | tee "$OUT/run.txt"
cp /tmp/run128/summary.json "$OUT/run_summary.json"
fibril run --backend gpu --size 3000 --out /tmp/big 2>&1 | tee -a "$OUT/run.txt"
grep -h '^bench ' "$OUT/bench.txt"
