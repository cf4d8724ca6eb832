#!/usr/bin/env bash
# Multi-GPU checks and scaling on a machine with two or more GPUs: the
# GPU-vs-CPU checks (the z-split on real GPUs included), then fibril bench
# with --gpus 1,2 per exchange mode, overlap on and off. Needs .device/.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } | tee "$OUT/gpus.txt"
echo "== GPU vs CPU"; .device/gpu_vs_cpu 2>&1 | tee "$OUT/gpu_tests.txt"
echo "== scaling"
for spec in "256 1000" "512 200" "1024 30"; do
  set -- $spec
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus 1,2 --exchange peer --json "$OUT/scale_$1_peer.json" | grep '^NVIDIA\|^2 x'
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus 2 --exchange peer --no-overlap | grep '^2 x'
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus 2 --exchange host | grep '^2 x'
  fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus 2 --exchange host --no-overlap | grep '^2 x'
done 2>&1 | tee "$OUT/scaling.txt"
fibril bench --backend gpu --size 512 --steps 200 --warmup 10 --repeats 3 --gpus 1,2 --kernel tower-march --block 64x4 --z-chunk 8 | grep '^NVIDIA\|^2 x' | tee -a "$OUT/scaling.txt"
