#!/usr/bin/env bash
# `--kernel tune` against `--kernel auto` on the GPU machine, one call:
# `fibril bench` of each model and size with both (the tuned choice, its
# speed over auto's, how long the tuning took and every candidate's
# figure), then real runs (activation map, two snapshots) with tune and
# with naive whose files must be the same bits, and torch.compile of the
# Karma step at the sizes of $TORCH. Binary in $BIN (default
# .device: scripts/stage-device.sh); writes $OUT/results.txt and the JSON.
# SPECS: "model size steps" triples separated by ';'.
# Usage: OUT=out scripts/device-tune.sh
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT/json"
BIN=${BIN:-$PWD/.device}; F=$BIN/fibril; R=$OUT/results.txt; J=$OUT/json
SPECS=${SPECS:-"karma 256 600;karma 512 100;mitchell_schaeffer 256 600;fenton_karma 256 600;aliev_panfilov 256 600;bocf 256 300;diffusion 256 600;karma 128 20000;karma 64 100000"}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee -a "$R"
IFS=';' read -ra specs <<< "$SPECS"
for spec in "${specs[@]}"; do
  read -r model size steps <<< "$spec"
  for k in auto tune; do
    "$F" bench --backend gpu --model "$model" --precision f32 --size "$size" --steps "$steps" --warmup 48 \
      --repeats 3 --kernel "$k" --json "$J/${model}_${size}_$k.json" > /dev/null 2> "$J/${model}_${size}_$k.err" \
      || { echo "FAILED $spec $k"; tail -3 "$J/${model}_${size}_$k.err"; } >> "$R"
  done
  python3 - "$J/${model}_${size}_auto.json" "$J/${model}_${size}_tune.json" "$model $size^3" <<'PY' >> "$R"
import json, sys
a, t = (json.load(open(p)) for p in sys.argv[1:3])
tu = t["kernel_tuning"]
print(f"{sys.argv[3]}: auto {a['method']} {a['steps_per_s']:,.0f} | tune {t['method']} {t['steps_per_s']:,.0f} | tune/auto {t['steps_per_s']/a['steps_per_s']:.3f} | tuning {tu['seconds']:.1f} s")
for x in tu["timings"]:
    print(f"    {x['kernel']:<24} {x['steps_per_s'] or 0:>10,.0f}  {x.get('skipped') or ''}")
PY
done
# torch.compile of the same Karma step (bench/torch_karma.py), same call:
# "size steps" pairs separated by ';' (TORCH="" skips it).
TORCH=${TORCH-"256 600;512 100"}
IFS=';' read -ra sizes <<< "$TORCH"
for pair in "${sizes[@]}"; do
  read -r size steps <<< "$pair"
  python3 bench/torch_karma.py --size "$size" --steps "$steps" --warmup 100 --repeats 5 > "$J/torch_$size.json" 2> "$J/torch_$size.err"
  python3 - "$J/torch_$size.json" "$J/karma_${size}_auto.json" "$J/karma_${size}_tune.json" "$size" <<'PY' >> "$R"
import json, sys
t, a, u = (json.load(open(p))["steps_per_s"] for p in sys.argv[1:4])
print(f"karma {sys.argv[4]}^3 f32: torch.compile {t:,.0f} steps/s; auto {a:,.0f} ({a/t:.3f}x); tune {u:,.0f} ({u/t:.3f}x)")
PY
done
for model in karma mitchell_schaeffer; do
  for k in tune naive; do
    "$F" run --backend gpu --model "$model" --size 128 --duration-ms 100 --snapshot-every-ms 50 --activation-map \
      --kernel "$k" --out "$OUT/run_${model}_$k" > /dev/null 2> "$OUT/run_${model}_$k.err"
    echo "run $model $k rc=$?" >> "$R"
  done
  grep -v '^\s*$' "$OUT/run_${model}_tune.err" | head -12 >> "$R"
  diff -rq --exclude=summary.json "$OUT/run_${model}_tune" "$OUT/run_${model}_naive" > "$OUT/diff_$model.txt" 2>&1
  echo "  files tune vs naive: diff rc=$? ($(ls "$OUT/run_${model}_tune" | wc -l) files)" >> "$R"
done
cat "$R"
