#!/usr/bin/env bash
# A tissue on one GPU with its quiet steps replayed as CUDA graphs and
# with every step launched from the host (--no-graphs), interleaved, two
# rounds: Karma f32, an ellipsoidal shell (about 20% of the box) in the
# compact layout at 64^3 and 128^3 and in the dense layout at 64^3, from
# rest with one stimulus at t = 0. Prints steps/s over each run's
# stepping time (summary.json).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
fibril="${FIBRIL:-$here/fibril}"
b="${1:-runs/tissue-graphs}"
mkdir -p "$b"
shell() { printf '[tissue]\ngeometry = "shell"\nwall = %s\nd_fibre = 1.0\nd_cross = 0.25\nlayout = "%s"\n' "$1" "$2"; }
shell 2.8 compact > "$b/s64.toml"
shell 5.6 compact > "$b/s128.toml"
shell 2.8 dense > "$b/d64.toml"
for round in 1 2; do
  for cfg in s64:64:20000 d64:64:20000 s128:128:10000; do
    IFS=: read -r name n steps <<< "$cfg"
    for g in graphs no-graphs; do
      extra=()
      [ "$g" = no-graphs ] && extra=(--no-graphs)
      "$fibril" run "$b/$name.toml" --nx "$n" --ny "$n" --nz "$n" --steps "$steps" --init rest \
        --backend gpu --quiet --overwrite "${extra[@]}" --out "$b/run" \
        --stimulus "{region = \"sphere\", center = [$((n / 2)), $((n / 2)), $((n / 10))], radius = $((n / 16)), at_ms = 0}"
      python3 - "$b/run" "$name $g round $round" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(f"{sys.argv[2]:28s} {s['method']:36s} {s['steps'] / s['stepping_s']:9.0f} steps/s")
PY
      rm -rf "$b/run"
    done
  done
done
