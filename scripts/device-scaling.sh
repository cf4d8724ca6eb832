#!/usr/bin/env bash
# Strong scaling over 1..N GPUs of one machine (paper Figure 18, Tables
# 4-5): fibril bench --gpus 1,2,..,N at 256^3, 512^3 and 1024^3 for every
# exchange mode, overlap on, then overlap off on the most GPUs. GPU counts: $GPUS
# (default "1,2"). JSON per size and mode in $OUT.
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
source scripts/nccl-env.sh
GPUS=${GPUS:-1,2}
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } > "$OUT/gpus.txt" 2>&1
for spec in "256 1000" "512 200" "1024 30"; do
  set -- $spec
  for ex in peer nccl host; do
    fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus "$GPUS" \
      --exchange $ex --json "$OUT/scale_$1_$ex.json" | grep -v '^bench '
  done
  for ex in peer nccl host; do
    fibril bench --backend gpu --size "$1" --steps "$2" --warmup 10 --repeats 3 --gpus "${GPUS##*,}" \
      --exchange $ex --no-overlap | grep -v '^bench '
  done
done 2>&1 | tee "$OUT/scaling.txt"
