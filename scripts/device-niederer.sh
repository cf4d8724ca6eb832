#!/usr/bin/env bash
# The N-version benchmark of Niederer et al. 2011 at every (dx, dt) pair of
# the paper (dx = 0.5, 0.2, 0.1 mm x dt = 0.05, 0.01, 0.005 ms) from
# configs/niederer.toml, on the GPU (BACKEND=cpu to run it on the CPU),
# and the table of activation times at P1..P9 (scripts/niederer-points.py).
# A pair whose explicit step is unstable for the tissue's operator is
# refused by fibril before it runs (the Gershgorin limit, named in the
# message); the table says so instead of giving times.
#
# DXS="0.5" DTS="0.05 0.01" pick some of the pairs.
# Usage (from the repository root, or a folder holding fibril, configs/
# and scripts/): scripts/device-niederer.sh [OUT_DIR]
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
fibril="${FIBRIL:-$here/fibril}"
[ -x "$fibril" ] || fibril="$here/target/release/fibril"
out="${1:-runs/niederer}"
backend="${BACKEND:-gpu}"
mkdir -p "$out"
table="$out/niederer-table.tsv"
printf "case\tP1\tP2\tP3\tP4\tP5\tP6\tP7\tP8\tP9\n" > "$table"
for dx in ${DXS:-0.5 0.2 0.1}; do
  # 20 x 7 x 3 mm in cells of dx; the stimulus on the cells whose centres
  # lie in the 1.5 mm corner cube.
  read -r nx ny nz last < <(python3 -c "
dx=$dx; print(round(20/dx), round(7/dx), round(3/dx), int(1.5/dx - 0.5 + 1e-9))")
  for dt in ${DTS:-0.05 0.01 0.005}; do
    case_dir="$out/dx$dx-dt$dt"
    stim="{region = \"box\", x = [0, $last], y = [0, $last], z = [0, $last], current_density = 50000.0, duration_ms = 2.0}"
    log="$out/dx$dx-dt$dt.log"
    if "$fibril" run "$here/configs/niederer.toml" --backend "$backend" --nx "$nx" --ny "$ny" --nz "$nz" \
        --dx "$dx" --dt "$dt" --stimulus "$stim" --out "$case_dir" --overwrite --quiet > "$log" 2>&1; then
      python3 "$here/scripts/niederer-points.py" "$case_dir" "$dx" "dx=$dx dt=$dt" >> "$table"
      wall=$(python3 -c "import json; s=json.load(open('$case_dir/summary.json')); print(f\"{s['stepping_s']:.2f} s, {s['device']}\")")
      echo "dx=$dx dt=$dt: $nx x $ny x $nz cells, stepped in $wall"
    else
      why=$(grep -o "unstable time step.*" "$log" | head -1)
      printf "dx=%s dt=%s\trefused: %s\n" "$dx" "$dt" "${why:-$(tail -1 "$log")}" >> "$table"
      echo "dx=$dx dt=$dt: refused (see $log)"
    fi
  done
done
echo
column -t -s $'\t' "$table" 2>/dev/null || cat "$table"
