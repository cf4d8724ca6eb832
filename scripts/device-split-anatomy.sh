#!/usr/bin/env bash
# Where a two-GPU split of the box loses against two halves run alone
# (issue 39 section 1), in one call on a machine with two GPUs: Karma f32,
# the blocked kernel, for each grid N^3
#   one      the whole grid on one GPU (the baseline of the ratio);
#   half     N x N x N/2 on one GPU: a part's own work with no halo and no
#            exchange, so 2 x half / one bounds what two GPUs can reach;
#   split    two GPUs, overlap (boundary runs and interior apart) with
#            graphs, then --no-overlap (one launch a part, then the copy);
# each at the tiles given in SHAPES ("block:k:zchunk_one:zchunk_part").
# Then (PARTS "tune") `--gpus 1,2 --kernel tune` at each grid, and the
# tissue split (the 19-point slab) and the tetrahedral split
# (examples/tet_speed) against one GPU in the same call. TAG prefixes the
# rows and F names the fibril binary (another build, to compare two in
# one call).
# Binaries in .device (scripts/stage-device.sh); writes $OUT/anatomy.txt.
# Usage: OUT=out PARTS="box tune tissue tet" scripts/device-split-anatomy.sh
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT/json" /tmp/bin
PARTS=${PARTS:-"box tissue tet"}
has() { [[ " $PARTS " == *" $1 "* ]]; }
for f in .device/*.xz; do b=$(basename "$f" .xz); xz -dc "$f" > "/tmp/bin/$b"; chmod +x "/tmp/bin/$b"; done
F=${F:-/tmp/bin/fibril}; R=$OUT/anatomy.txt; TAG=${TAG:-}
source scripts/nccl-env.sh
export FIBRIL_TUNE_CACHE=off
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | tee -a "$R"
bench() { # NAME ARGS...: one bench, its steps/s and method on a line of the report
  local name=$TAG$1; shift
  if "$F" bench --backend gpu --model karma --precision f32 --warmup 10 --repeats 3 "$@" \
    --json "$OUT/json/$name.json" > /dev/null 2> "$OUT/json/$name.err"; then
    python3 - "$OUT/json/$name.json" "$name" <<'PY' | tee -a "$R"
import json, sys
r = json.load(open(sys.argv[1]))
r = r[-1] if isinstance(r, list) else r
print(f"{sys.argv[2]:34s} {r['steps_per_s']:10,.0f} steps/s  {r['method']}")
PY
  else
    echo "$name FAILED: $(tail -2 "$OUT/json/$name.err")" | tee -a "$R"
  fi
}
if has box; then
  for spec in ${GRIDS:-256:4000 512:600}; do
    n=${spec%%:*}; steps=${spec##*:}
    for shape in ${SHAPES:-32x30:4:256:128 32x32:3:128:128}; do
      IFS=: read -r block k z1 zp <<< "$shape"
      tile=(--kernel blocked --block "$block" --steps-per-pass "$k")
      tag="${n}_${block}_k${k}"
      bench "one_${tag}_z$z1" --size "$n" --steps "$steps" "${tile[@]}" --z-chunk "$z1"
      bench "half_${tag}_z$zp" --nx "$n" --ny "$n" --nz $((n / 2)) --steps "$steps" "${tile[@]}" --z-chunk "$zp"
      bench "split_${tag}_z$zp" --size "$n" --steps "$steps" --gpus 2 "${tile[@]}" --z-chunk "$zp"
      bench "split_${tag}_z${zp}_no-overlap" --size "$n" --steps "$steps" --gpus 2 "${tile[@]}" --z-chunk "$zp" --no-overlap
    done
  done
fi
if has tune; then
  for spec in ${GRIDS:-256:4000 512:600}; do
    n=${spec%%:*}; steps=${spec##*:}
    bench "tune_$n" --size "$n" --steps "$steps" --gpus 1,2 --kernel tune
    python3 - "$OUT/json/${TAG}tune_$n.json" <<'PY' | tee -a "$R"
import json, sys
r = json.load(open(sys.argv[1]))
if isinstance(r, list) and len(r) == 2:
    print(f"  tuned two / tuned one: {r[1]['steps_per_s'] / r[0]['steps_per_s']:.3f} ({r[0]['method']}; {r[1]['method']})")
PY
  done
fi
if has tissue; then
  # The 19-point slab (fibres turning through z), dense, 256^3, one GPU and two.
  cfg=/tmp/slab.toml
  printf '[tissue]\ngeometry = "slab"\nd_fibre = 1.0\nd_cross = 0.25\n' > "$cfg"
  for g in 1 2; do
    "$F" run "$cfg" --size 256 --steps 2000 --init rest --backend gpu --gpus "$g" --quiet --overwrite \
      --stimulus '{region = "sphere", center = [128, 128, 20], radius = 12, at_ms = 0}' --out "/tmp/slab$g" \
      2> "$OUT/slab$g.err" && python3 - "/tmp/slab$g/summary.json" "tissue slab 256^3, $g GPU(s)" <<'PY' | tee -a "$R"
import json, sys
s = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:34s} {s['steps'] / s['stepping_s']:10,.0f} steps/s  {s['method']}")
PY
  done
  last=$(cd /tmp/slab1 && ls U_*.npy | tail -1)
  cmp "/tmp/slab1/$last" "/tmp/slab2/$last" && echo "slab: $last identical, 1 and 2 GPUs" | tee -a "$R"
fi
if has tet; then
  for n in ${TET_NODES:-"2000000"}; do
    timeout 200 /tmp/bin/tet_speed "$n" 2000 2 | tee "$OUT/tet_split_$n.json" | tee -a "$R"
  done
fi
