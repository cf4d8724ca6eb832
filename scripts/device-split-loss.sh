#!/usr/bin/env bash
# Where a two-GPU z-split loses against one GPU (issue 39, section 1):
# each part's half of the grid alone on one GPU, with the split's tile and
# z-chunk, beside the one-GPU tuned configuration and, on a machine with
# two GPUs, the split itself; two rounds interleaved. The half grid alone
# is the split's ceiling: the split adds the exchange and the wait between
# the GPUs to it. Binaries in $BIN (default .device: scripts/stage-device.sh);
# writes $OUT/split_loss.txt.
# Usage: OUT=out scripts/device-split-loss.sh
set -u
OUT=${OUT:-device-out}; mkdir -p "$OUT" /tmp/bin /tmp/split-loss
BIN=${BIN:-$PWD/.device}
xz -dc "$BIN/fibril.xz" > /tmp/bin/fibril && chmod +x /tmp/bin/fibril
F=/tmp/bin/fibril; R=$OUT/split_loss.txt; W=/tmp/split-loss
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R"
gpus=$(nvidia-smi -L | wc -l)
b() { # label, then the bench's options
  local label=$1; shift
  if "$F" bench --backend gpu --model karma --precision f32 --warmup 10 --repeats 3 --kernel blocked "$@" \
      --json "$W/$label.json" > /dev/null 2> "$W/$label.err"; then
    python3 -c "import json; r=json.load(open('$W/$label.json')); r=r[-1] if isinstance(r,list) else r; print('$label', round(r['steps_per_s'],1), r.get('method',''))" >> "$R"
  else
    echo "$label FAILED: $(tail -1 "$W/$label.err")" >> "$R"
  fi
}
two() { [ "$gpus" -gt 1 ] && b "$@"; }
for round in 1 2; do
  b "r${round}_512_one_z171" --size 512 --steps 600 --block 32x30 --steps-per-pass 3 --z-chunk 171
  two "r${round}_512_two_z86" --size 512 --steps 600 --block 32x30 --steps-per-pass 3 --z-chunk 86 --gpus 2
  b "r${round}_512_half_z86" --nx 512 --ny 512 --nz 256 --steps 1200 --block 32x30 --steps-per-pass 3 --z-chunk 86
  b "r${round}_512_half_z128" --nx 512 --ny 512 --nz 256 --steps 1200 --block 32x30 --steps-per-pass 3 --z-chunk 128
  b "r${round}_512_one_z86" --size 512 --steps 600 --block 32x30 --steps-per-pass 3 --z-chunk 86
  two "r${round}_512_two_z128" --size 512 --steps 600 --block 32x30 --steps-per-pass 3 --z-chunk 128 --gpus 2
  b "r${round}_256_one_z256" --size 256 --steps 4000 --block 32x30 --steps-per-pass 4 --z-chunk 256
  two "r${round}_256_two_z128" --size 256 --steps 4000 --block 32x30 --steps-per-pass 4 --z-chunk 128 --gpus 2
  b "r${round}_256_half_z128" --nx 256 --ny 256 --nz 128 --steps 8000 --block 32x30 --steps-per-pass 4 --z-chunk 128
done
cat "$R"
