#!/usr/bin/env bash
# Issue 15 section 3 in one call on a machine with two GPUs: the split
# checks (peer copies and NCCL between real GPUs), then `fibril bench
# --gpus 1,2` at 256^3, 512^3 and 1024^3 with the blocked kernel (halos as
# deep as its passes, exchanged once a pass), columns (one slice a step)
# and tune (each count tuned on its own), and a table of the two-GPU
# speed over one GPU of the same call. Binaries in $BIN (default .device:
# scripts/stage-device.sh); writes $OUT/two_gpus.txt and the JSON.
# Usage: OUT=out scripts/device-two-gpus.sh
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT/json"
BIN=${BIN:-$PWD/.device}; F=$BIN/fibril; R=$OUT/two_gpus.txt
source scripts/nccl-env.sh
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } > "$OUT/gpus.txt" 2>&1
cat "$OUT/gpus.txt" >> "$R"
# TESTS: the GPU checks' name filter ("" skips them); GPUS: the counts.
TESTS=${TESTS-split}; GPUS=${GPUS:-1,2}
if [ -n "$TESTS" ]; then
  echo "== GPU checks: $TESTS" >> "$R"
  timeout 500 "$BIN/gpu_vs_cpu" "$TESTS" 2>&1 | tail -30 >> "$R"
fi
KERNELS=${KERNELS:-"blocked columns tune"}
for spec in ${SIZES:-"256:1000 512:200 1024:30"}; do
  size=${spec%%:*}; steps=${spec##*:}
  for k in $KERNELS; do
    "$F" bench --backend gpu --model karma --precision f32 --size "$size" --steps "$steps" --warmup 10 \
      --repeats 3 --gpus "$GPUS" --kernel "$k" --json "$OUT/json/two_${size}_$k.json" > /dev/null 2> "$OUT/json/two_${size}_$k.err" \
      || { echo "FAILED $size $k"; tail -3 "$OUT/json/two_${size}_$k.err"; } >> "$R"
  done
done
python3 - "$OUT/json" $KERNELS <<'PY' | tee -a "$R"
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
print("| grid | kernel | 1 GPU steps/s | 2 GPUs steps/s | 2 GPUs / 1 GPU |")
print("| --- | --- | ---: | ---: | ---: |")
for size in sorted({int(p.name.split("_")[1]) for p in d.glob("two_*.json")}):
    for k in sys.argv[2:]:
        p = d / f"two_{size}_{k}.json"
        if not p.exists():
            continue
        records = json.load(open(p))
        if isinstance(records, dict):
            records = [records]
        if len(records) < 2:
            r = records[0]
            print(f"| {size}^3 | {k}: {r['method']} | {r['steps_per_s']:,.0f} ({r['gpus']} GPU only) | | |")
            continue
        one, two = records[0], records[-1]
        print(f"| {size}^3 | {k}: {one['method']} / {two['method']} | {one['steps_per_s']:,.0f} | "
              f"{two['steps_per_s']:,.0f} | {two['steps_per_s'] / one['steps_per_s']:.3f} |")
PY
