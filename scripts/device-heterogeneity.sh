#!/usr/bin/env bash
# What varying parameters cost on one GPU: the same tissue run with
# uniform parameters and with parameters by region and by cell, steps/s
# from each run's summary (stepping time only), in one call:
#   karma-*   Karma f32, the whole 256^3 box as tissue (a label file of
#             three thirds along x, fibres along x, D 1 and 0.25), 2000
#             steps: uniform; gamma given per cell, one value per z-plane
#             (256 sets);
#   tp06-*    ten Tusscher-Panfilov 2006 f32, the same at 128^3, 500
#             steps: uniform (EPI); ENDO and M in the first two thirds as
#             regions (3 sets); the thirds plus g_Kr per z-plane (384 sets).
# Two rounds, to see the noise.
# Usage: OUT=dir scripts/device-heterogeneity.sh   (needs python3 with numpy)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
fibril="${FIBRIL:-$here/fibril}"
out="${OUT:-runs/heterogeneity}"
mkdir -p "$out"
python3 - "$out" <<'PY'
import numpy as np, sys
o = sys.argv[1]
for n in (256, 128):
    z = np.arange(n, dtype=np.float64)[:, None, None] * np.ones((n, n, n))
    np.save(f"{o}/gamma-{n}.npy", (1.5415 * (1 + 0.1 * z / n)).astype(np.float64))
    np.save(f"{o}/gkr-{n}.npy", (0.153 * (0.5 + z / n)).astype(np.float64))
    x = np.arange(n)[None, None, :] * np.ones((n, n, n), dtype=np.int64)
    np.save(f"{o}/thirds-{n}.npy", (1 + (3 * x) // n).astype(np.uint8))
PY
report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
sets = s["domain"].get("parameter_sets") or {"sets": 1, "varying": []}
print(f"{sys.argv[2]:18s} {s['method']:40s} {s['steps']/s['stepping_s']:9.1f} steps/s  sets {sets['sets']:4d} varying {','.join(sets['varying']) or '-'}")
PY
}
run() {  # name model n steps toml-extra
  local name=$1 model=$2 n=$3 steps=$4 extra=$5
  printf '[tissue]\nmask = "thirds-%s.npy"\nd_fibre = %s\nd_cross = %s\n%b\n' "$n" "$6" "$7" "$extra" > "$out/$name.toml"
  "$fibril" run "$out/$name.toml" --model "$model" --nx "$n" --ny "$n" --nz "$n" --steps "$steps" \
    --precision f32 --init rest --backend gpu --quiet --overwrite --snapshot-every-ms 100000 \
    --stimulus '{region = "box", x = [0, 3]}' --out "$out/$name" && report "$out/$name" "$name"
}
for round in 1 2; do
  echo "round $round"
  run karma-uniform karma 256 2000 "" 1.0 0.25
  run karma-field karma 256 2000 "[tissue.parameter_fields]\ngamma = \"gamma-256.npy\"" 1.0 0.25
  run tp06-uniform ten_tusscher_2006 128 500 "" 0.154 0.05
  run tp06-regions ten_tusscher_2006 128 500 \
    "[[tissue.region]]\nlabel = 1\npreset = \"endo\"\n[[tissue.region]]\nlabel = 2\npreset = \"m\"" 0.154 0.05
  run tp06-regions-field ten_tusscher_2006 128 500 \
    "[[tissue.region]]\nlabel = 1\npreset = \"endo\"\n[[tissue.region]]\nlabel = 2\npreset = \"m\"\n[tissue.parameter_fields]\ng_kr = \"gkr-128.npy\"" 0.154 0.05
done
