#!/usr/bin/env bash
# On the GPU machine: the Python package against the command line, and a
# finitewave-style spiral in the package and in pigreads (OpenCL), each
# pair in the same call. Needs .device/ from scripts/stage-device.sh and
# .device/wheels/ (the package's wheel: `pip wheel ./python -w
# .device/wheels`, and pigreads' wheels for the machine's Python).
# Writes $OUT/python/*.json and the log.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
mkdir -p "$OUT/python"
log="$OUT/python/log.txt"
exec > >(tee "$log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
[ -x .device/fibril ] || xz -dk .device/fibril.xz
# Into the machine's own Python (its NumPy kept): the package's wheel and
# pigreads', from the carried folder, without the network.
py=python3
"$py" -m pip install -q --no-index --no-deps --force-reinstall --find-links .device/wheels fibril
"$py" -m pip install -q --no-index --find-links .device/wheels pigreads || echo "pigreads: not installed"
"$py" -c 'import fibril, sys; print("fibril", fibril.__version__, "python", sys.version.split()[0], "gpus", fibril.gpu_count())'
SIZE=${SIZE:-256}
DUR=${DUR:-200}
ROUNDS=${ROUNDS:-3}
tmp=/tmp/fibril-cli
for r in $(seq "$ROUNDS"); do
  for every in none 10; do
    rm -rf "$tmp"
    if [ "$every" = none ]; then
      .device/fibril run --backend gpu --size "$SIZE" --duration-ms "$DUR" --out "$tmp" -q
      "$py" scripts/python-overhead.py --size "$SIZE" --duration-ms "$DUR" >> "$OUT/python/overhead.jsonl"
    else
      .device/fibril run --backend gpu --size "$SIZE" --duration-ms "$DUR" --snapshot-every-ms "$every" --out "$tmp" -q
      "$py" scripts/python-overhead.py --size "$SIZE" --duration-ms "$DUR" --every-ms "$every" >> "$OUT/python/overhead.jsonl"
    fi
    "$py" - "$tmp/summary.json" "$every" <<'PY' >> "$OUT/python/overhead.jsonl"
import json, sys
s = json.load(open(sys.argv[1]))
print(json.dumps({"tool": "fibril-cli", "every": sys.argv[2], "summary": s}))
PY
    tail -2 "$OUT/python/overhead.jsonl"
  done
done
rm -rf "$tmp"
# The spiral: 512^2 Aliev-Panfilov, dx 0.5, dt 0.02, frames every 10 t.u.
N=${N:-512}
SPIRAL=${SPIRAL:-1000}
for r in $(seq "$ROUNDS"); do
  "$py" examples/spiral.py --n "$N" --duration "$SPIRAL" --out "$OUT/python/spiral-fibril.png" 2>&1 | tee -a "$OUT/python/spiral.txt" || true
  "$py" scripts/pigreads-spiral.py --n "$N" --dt 0.02 --dx 0.5 --duration "$SPIRAL" --frame-every 10 2>&1 | tee -a "$OUT/python/spiral.txt" || true
done
