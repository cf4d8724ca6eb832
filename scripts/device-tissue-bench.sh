#!/usr/bin/env bash
# Speed of the tissue kernels against the 7-point box on one GPU: Karma,
# f32, 256^3 cells of 0.6, 2000 steps of dt 0.05 (the paper's setup),
# from rest with a stimulus so that a wave runs:
#   box7     the isotropic 7-point naive kernel on the whole box;
#   slab     the 19-point weighted operator, whole box, fibres turning
#            -60..+60 deg through z (dense layout);
#   shell    an ellipsoidal shell, about 20% of the box (atria-like);
#   cylinder a cylinder with a hole, about 60% of the box;
# the last three in both layouts (dense with a mask, compact).
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
print(f"{sys.argv[2]:22s} {s['method']:16s} {s['steps']/s['stepping_s']:9.0f} steps/s  ({s['stepping_s']:.3f} s for {s['steps']} steps)")
PY
}
"$fibril" run "${common[@]}" --out "$out/box7" && report "$out/box7" box7
for geom in slab shell cylinder; do
  for layout in dense compact; do
    [ "$geom" = slab ] && [ "$layout" = compact ] && continue
    cfg="$out/$geom-$layout.toml"
    case $geom in
      slab) extra='geometry = "slab"' ;;
      shell) extra=$'geometry = "shell"\nwall = 11.3' ;;
      cylinder) extra=$'geometry = "cylinder"\nhole = 37.2\nfibre = [1.0, 1.0, 0.0]' ;;
    esac
    printf '[tissue]\n%s\nd_fibre = 1.0\nd_cross = 0.25\nlayout = "%s"\n' "$extra" "$layout" > "$cfg"
    "$fibril" run "$cfg" "${common[@]}" --out "$out/$geom-$layout" && report "$out/$geom-$layout" "$geom-$layout"
  done
done
python3 - "$out" <<'PY'
import numpy as np, sys, os
for g in ["shell", "cylinder"]:
    a = np.load(f"{sys.argv[1]}/{g}-compact/U_000000.npy")
    print(f"{g}: tissue fraction {np.isfinite(a).mean():.3f}")
PY
