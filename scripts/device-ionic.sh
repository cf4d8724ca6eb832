#!/usr/bin/env bash
# The ionic models on the GPU: a 2D ten Tusscher-Panfilov 2006 spiral
# started by the S1-S2 protocol (current stimuli), its tips over 1 s, and
# the speed of every ionic model at 256^3 in f32 and f64 (fibril bench).
# Writes $OUT/ionic/*.json, tips.csv, pictures and logs.
#
#   scripts/device-ionic.sh   (from the repository root, binary in .device/)
set -euo pipefail
bin=.device/fibril
out=${OUT:-/tmp/fibril-ionic}/ionic
mkdir -p "$out"
work=$(mktemp -d)
# 768 x 768 cells of 0.2 mm (154 mm square): room for a TP06 spiral, whose
# wavelength is above 100 mm.
/usr/bin/time -f "%e s wall" $bin run --backend gpu --model ten_tusscher_2006 --nx 768 --ny 768 --nz 1 \
  --protocol scroll --duration-ms 1000 --tips-every-ms 1 --activation-map \
  --snapshot-every-ms 250 --format png --out "$work/tp06" -q > "$out/tp06-spiral.log" 2>&1
cp "$work/tp06"/{summary.json,tips.csv,tips.png,activation.png} "$out/" 2>/dev/null || true
for f in "$work/tp06"/V_*.png; do cp "$f" "$out/tp06-$(basename "$f")"; done
python3 - "$work/tp06/tips.csv" > "$out/tp06-tips-summary.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by_t = {}
for r in rows:
    by_t.setdefault(float(r["t_ms"]), []).append(r)
ts = sorted(by_t)
late = [t for t in ts if t >= 900]
print(json.dumps({"samples_with_tips": len(ts), "first_ms": ts[0] if ts else None,
                  "last_ms": ts[-1] if ts else None, "tips_at_last": len(by_t[ts[-1]]) if ts else 0,
                  "samples_after_900_ms": len(late)}))
PY
for m in beeler_reuter luo_rudy_1991 ten_tusscher_2006 karma; do
  for p in f32 f64; do
    $bin bench --backend gpu --model $m --size 256 --precision $p --steps 400 --warmup 50 --repeats 3 \
      --json "$out/bench-$m-$p.json" > "$out/bench-$m-$p.log" 2>&1 || echo "bench $m $p failed" >> "$out/errors.txt"
  done
done
rm -rf "$work"
