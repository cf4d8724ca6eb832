#!/usr/bin/env bash
# The pictures of the run loop's outputs, on the GPU: the pseudo-ECG of the
# paper's scroll wave (128^3) with its activation/APD maps and filaments,
# and the tip trajectory of a 2D spiral. Copies the results to $OUT.
set -euo pipefail
bin=.device/fibril
out=${OUT:-/tmp/fibril-pictures}
mkdir -p "$out"
work=$(mktemp -d)
# 128^3 at dx = 0.6: the tissue spans 0..76.2 space units on each axis.
/usr/bin/time -v $bin run --backend gpu --size 128 --protocol scroll --duration-ms 600 \
  --electrode '{name = "above", position = [38.1, 38.1, 100]}' \
  --electrode '{name = "below", position = [38.1, 38.1, -24]}' \
  --electrode '{name = "side", position = [100, 38.1, 38.1]}' \
  --apd-map --tips-every-ms 20 --format png --out "$work/scroll" -q 2> "$out/scroll-time.log"
cp "$work/scroll/ecg.png" "$out/ecg-scroll128.png"
cp "$work/scroll/ecg.csv" "$work/scroll/summary.json" "$work/scroll/filaments.csv" "$out/"
cp "$work/scroll/activation.png" "$out/activation-scroll128.png"
cp "$work/scroll/apd.png" "$out/apd-scroll128.png"
$bin run --backend gpu --model aliev_panfilov --nx 512 --ny 512 --nz 1 --protocol scroll \
  --duration-ms 1500 --tips-every-ms 1 --format png --out "$work/spiral" -q
cp "$work/spiral/tips.png" "$out/tips-aliev_panfilov-512.png"
cp "$work/spiral/tips.csv" "$out/tips-aliev_panfilov-512.csv"
rm -rf "$work"
# Few files come back: everything in one archive.
tar -C "$out" -czf /tmp/pictures.tgz . && rm -rf "${out:?}"/* && mv /tmp/pictures.tgz "$out/"
ls -la "$out"
