#!/usr/bin/env bash
# Runs on the GPU machine over a copy of the working tree, with the release
# binary and the GPU test binary in .device/ (scripts/stage-device.sh):
# the GPU-vs-CPU checks, `fibril bench` for every model at 512^2, 2048^2 and
# 256^3 in f32 and f64 (with the copy roofline measured in each run), and a
# 2D spiral per model for the pictures. Writes under $OUT (or ./device-out);
# the pictures and JSON are packed into two tar files.
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
echo "== module load (first and second run of a tiny grid: the JIT cache)"
for i in 1 2; do s=$(date +%s%N); fibril run --backend gpu --size 8 --steps 1 -q --overwrite --out /tmp/jit; echo "run $i: $(( ($(date +%s%N) - s) / 1000000 )) ms"; done | tee "$OUT/jit.txt"
echo "== GPU vs CPU"; .device/gpu_vs_cpu 2>&1 | tee "$OUT/gpu_tests.txt"
echo "== bench"
mkdir -p /tmp/bench
for model in karma bocf aliev_panfilov fenton_karma mitchell_schaeffer; do
  for precision in f32 f64; do
    for grid in "512 512 1 2000" "2048 2048 1 200" "256 256 256 200"; do
      set -- $grid
      fibril bench --backend gpu --model "$model" --precision "$precision" --nx "$1" --ny "$2" --nz "$3" \
        --steps "$4" --warmup 50 --repeats 5 --json "/tmp/bench/${model}_${precision}_$1x$2x$3.json" 2>&1 \
        | tee -a "$OUT/bench.txt"
    done
  done
done
tar -C /tmp -cf "$OUT/bench.tar" bench
[ "${SKIP_SPIRALS:-0}" = 1 ] && exit 0
echo "== spirals"
mkdir -p /tmp/spirals
spiral() { # name, size, duration, snapshot interval, extra options
  local name=$1 n=$2 t=$3 every=$4; shift 4
  fibril run --backend gpu --model "$name" --nx "$n" --ny "$n" --nz 1 --protocol scroll --duration-ms "$t" \
    --snapshot-every-ms "$every" --format png --overwrite --out "/tmp/spirals/$name" "$@" 2>&1 | tee -a "$OUT/spirals.txt"
  tar -C /tmp/spirals -cf "$OUT/spiral_$name.tar" "$name"
}
spiral karma 600 1500 250 --dx 0.5
spiral bocf 1024 2000 250
spiral aliev_panfilov 512 1500 250
spiral fenton_karma 512 1500 250
spiral mitchell_schaeffer 512 2000 250
grep -h '^bench ' "$OUT/bench.txt" | tee "$OUT/bench_lines.txt"
