#!/usr/bin/env bash
# Speed of the tissue kernels against the 7-point box on one GPU: Karma,
# f32, 256^3 cells of 0.6, 2000 steps of dt 0.05 (the paper's setup),
# from rest with a stimulus so that a wave runs:
#   box7     the isotropic 7-point kernel on the whole box, naive
#            (box7-naive) and the default kernel (box7);
#   slab     the 19-point weighted operator, whole box, fibres turning
#            -60..+60 deg through z (dense layout);
#   shell    an ellipsoidal shell, about 20% of the box (atria-like);
#   cylinder a cylinder with a hole, about 60% of the box;
# the last three in both layouts (dense with a mask, compact), with the
# weights stored as `weights = "auto"` chooses (by class where rows
# repeat; the method column says which, with the number of rows), and
# the slab and the cylinder again with per-cell weights (`-per-cell`).
# RUNS="slab-dense cylinder-compact ..." picks some of the tissue runs.
# Prints steps/s and the tissue fraction of each; memory comes from
# fibril::tissue::gpu::device_bytes (see the report).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
fibril="${FIBRIL:-$here/fibril}"
out="${1:-runs/tissue-bench}"
mkdir -p "$out"
n=256
common=(--nx $n --ny $n --nz $n --steps 2000 --init rest --backend gpu --quiet --overwrite
  --stimulus '{region = "sphere", center = [128, 128, 20], radius = 12, at_ms = 0}')
report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(f"{sys.argv[2]:24s} {s['method']:36s} {s['steps']/s['stepping_s']:9.0f} steps/s  ({s['stepping_s']:.3f} s for {s['steps']} steps)")
PY
}
"$fibril" run "${common[@]}" --kernel naive --out "$out/box7-naive" && report "$out/box7-naive" box7-naive
"$fibril" run "${common[@]}" --out "$out/box7" && report "$out/box7" box7
all="slab-dense slab-dense-per-cell shell-dense shell-compact cylinder-dense cylinder-compact
  cylinder-dense-per-cell cylinder-compact-per-cell"
for run in ${RUNS:-$all}; do
  IFS=- read -r geom layout weights <<< "$run"
  [ -n "$weights" ] && weights=per-cell || weights=auto
  cfg="$out/$run.toml"
  case $geom in
    slab) extra='geometry = "slab"' ;;
    shell) extra=$'geometry = "shell"\nwall = 11.3' ;;
    cylinder) extra=$'geometry = "cylinder"\nhole = 37.2\nfibre = [1.0, 1.0, 0.0]' ;;
  esac
  printf '[tissue]\n%s\nd_fibre = 1.0\nd_cross = 0.25\nlayout = "%s"\nweights = "%s"\n' \
    "$extra" "$layout" "$weights" > "$cfg"
  "$fibril" run "$cfg" "${common[@]}" --out "$out/$run" && report "$out/$run" "$run"
done
python3 - "$out" <<'PY'
import numpy as np, sys, os
for g in ["shell", "cylinder"]:
    if not os.path.exists(f"{sys.argv[1]}/{g}-compact/U_000000.npy"):
        continue
    a = np.load(f"{sys.argv[1]}/{g}-compact/U_000000.npy")
    print(f"{g}: tissue fraction {np.isfinite(a).mean():.3f}")
PY
