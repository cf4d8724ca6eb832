#!/usr/bin/env bash
# Tetrahedral meshes on the GPU machine: fibril and TorchCor on the same
# meshes in the same call (ten Tusscher-Panfilov 2006 epi, the same
# stimulus, conductivities and simulated time), the Niederer et al. 2011
# slab cut into tetrahedra, the node kernel's speed up to ~4M nodes and
# the GPU checks. Binaries come from scripts/stage-device.sh (xz'd in
# .device/), TorchCor's wheels from .whl/ (see scripts/torchcor-compare.py).
#   PARTS="torchcor lumped niederer speed checks lv lv035 split ncu cli copy graphs" OUT=... scripts/device-tet.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-device-out}; PARTS=${PARTS:-"torchcor lumped niederer speed checks lv"}
mkdir -p "$OUT" /tmp/bin
has() { [[ " $PARTS " == *" $1 "* ]]; }
for f in .device/*.xz; do b=$(basename "$f" .xz); xz -dc "$f" > "/tmp/bin/$b"; chmod +x "/tmp/bin/$b"; done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
# The monodomain of Niederer et al. 2011: sigma = 0.1334 / 0.0176 S/m,
# chi = 140 /mm, Cm = 1 uF/cm^2; a 1 ms pulse of 100 uA/uF.
config() { # MESH VTX DT DURATION RUN_OUT [STIM_EXTRA]
  cat <<TOML
[model]
name = "ten_tusscher_2006"
[grid]
dt = $3
chi = 140.0
cm = 1.0
[mesh]
file = "$1"
sigma_l = 0.1334
sigma_t = 0.0176
[run]
duration_ms = $4
[output]
out = "$5"
activation_map = true
format = ["npy"]
overwrite = true
[[stimulus]]
region = "mask"
file = "$2"
${6:-duration_ms = 1.0
current = 100.0}
TOML
}
compare() { # NAME MESH VTX DT DURATION [TORCHCOR_FLAGS]: a 2 ms pulse of 100 uA/uF on VTX's nodes
  local name=$1 mesh=$(realpath "$2") vtx=$(realpath "$3") dt=$4 dur=$5
  echo "== TorchCor: $name"
  PYTHONPATH=/tmp/site timeout 420 python3 -W ignore::SyntaxWarning scripts/torchcor-compare.py --mesh "$mesh" \
    --stim-vtx "$vtx" --duration-ms "$dur" --dt-ms "$dt" --sigma-l 0.1334 --sigma-t 0.0176 --device cuda \
    --dtype float32 --stim-strength 100 --stim-duration-ms 2 ${6:-} --out "/tmp/tc-$name" 2>&1 | tail -3
  cp "/tmp/tc-$name/torchcor.json" "$OUT/torchcor-$name.json"
  echo "== fibril: $name"
  config "$mesh.pts" "$vtx" "$dt" "$dur" "/tmp/fibril-$name" "duration_ms = 2.0
current = 100.0" > "$OUT/fibril-$name.toml"
  /tmp/bin/fibril run "$OUT/fibril-$name.toml" --backend gpu 2>&1 | tail -1
  cp "/tmp/fibril-$name/summary.json" "$OUT/fibril-$name.json"
  python3 scripts/compare-activation.py "/tmp/tc-$name/torchcor_activation_ms.npy" \
    "/tmp/fibril-$name/activation.npy" | tee "$OUT/compare-$name.json"
}
if has torchcor || has lumped || has lv || has lv035; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
fi
if has torchcor; then
  python3 scripts/make-slab-carp.py --size-mm 40 40 3 --h-mm 0.2 --face-mm 0.6 --out /tmp/slab/slab
  compare slab /tmp/slab/slab /tmp/slab/slab_face.vtx 0.02 60
fi
if has lumped; then
  # TorchCor with a lumped mass matrix: the operator fibril uses.
  [ -f /tmp/slab/slab.pts ] || python3 scripts/make-slab-carp.py --size-mm 40 40 3 --h-mm 0.2 --face-mm 0.6 --out /tmp/slab/slab
  compare slab-lumped /tmp/slab/slab /tmp/slab/slab_face.vtx 0.02 60 --mass-lumping
fi
if has niederer; then
  for h in 0.5 0.2 0.1; do
    python3 scripts/make-slab-carp.py --size-mm 20 7 3 --h-mm $h --out /tmp/nied$h/slab
    config /tmp/nied$h/slab.pts /tmp/nied$h/slab_corner.vtx 0.005 100 "/tmp/niederer-$h" \
      "duration_ms = 2.0
current_density = 50000.0" > /tmp/nied$h.toml
    /tmp/bin/fibril run /tmp/nied$h.toml --backend gpu --precision f64 -q
    echo "h=$h $(python3 scripts/niederer-tet-points.py /tmp/nied$h/slab.pts "/tmp/niederer-$h/activation.npy")" \
      | tee -a "$OUT/niederer-tet.txt"
  done
fi
if has speed; then
  for n in 650000 4100000; do timeout 240 /tmp/bin/tet_speed $n 2000 | tee "$OUT/tet_speed_$n.json"; done
fi
if has checks; then
  timeout 200 /tmp/bin/gpu_tet 2>&1 | tail -3 | tee "$OUT/gpu_tet.txt"
  timeout 400 /tmp/bin/gpu_vs_cpu 2>&1 | tee "$OUT/gpu_vs_cpu.txt" | tail -3
fi
if has lv; then
  compare lv examples/lv/lv examples/lv/lv_apex.vtx 0.02 250
  compare lv-lumped examples/lv/lv examples/lv/lv_apex.vtx 0.02 250 --mass-lumping
fi
if has lv035; then
  # The left ventricle at --size-mm 0.35 (61,589 nodes), made here by
  # examples/lv/make_lv_mesh.py and carried as .device/lv035.tar.xz.
  mkdir -p /tmp/lv035 && xz -dc .device/lv035.tar.xz | tar xf - -C /tmp/lv035
  compare lv035 /tmp/lv035/lv /tmp/lv035/lv_apex.vtx 0.02 200
  cp /tmp/fibril-lv035/activation.npy "$OUT/fibril-lv035-activation.npy"
  compare lv035-lumped /tmp/lv035/lv /tmp/lv035/lv_apex.vtx 0.02 200 --mass-lumping
fi
if has split; then
  # The mesh split over every GPU of the machine against one GPU, same
  # run; then the CLI's split run of the LV example against its one-GPU
  # run, file for file.
  gpus=$(nvidia-smi -L | wc -l)
  for n in 650000 2000000; do
    timeout 200 /tmp/bin/tet_speed $n 2000 "$gpus" | tee "$OUT/tet_split_$n.json"
  done
  for g in 1 "$gpus"; do
    /tmp/bin/fibril run examples/lv/lv.toml --backend gpu --gpus "$g" --out "/tmp/lv-gpus$g" --overwrite -q
  done
  for f in activation.npy; do cmp "/tmp/lv-gpus1/$f" "/tmp/lv-gpus$gpus/$f" && echo "lv $f: 1 GPU = $gpus GPUs"; done \
    | tee "$OUT/lv-split.txt"
fi
if has ncu; then
  # The node kernel of ten Tusscher-Panfilov 2006 (f32) under ncu: one
  # step of the 646,416-node slab.
  [ -f /tmp/slab/slab.pts ] || python3 scripts/make-slab-carp.py --size-mm 40 40 3 --h-mm 0.2 --face-mm 0.6 --out /tmp/slab/slab
  config /tmp/slab/slab.pts /tmp/slab/slab_face.vtx 0.02 2 /tmp/ncu-run > /tmp/ncu.toml
  M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__thread_inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  ncu --metrics "$M" --kernel-name regex:ten_tusscher_2006_tet_f32 --launch-skip 50 --launch-count 1 --csv \
    /tmp/bin/fibril run /tmp/ncu.toml --backend gpu -q > "$OUT/ncu-tp06.csv" 2>&1
  tail -12 "$OUT/ncu-tp06.csv"
fi
if has cli; then
  # fibril run on the LV example with two electrodes: the CPU (f32), one
  # GPU, every GPU (split), and one GPU checkpointed at 30 ms and resumed,
  # file for file (snapshots, maps, ecg.csv).
  gpus=$(nvidia-smi -L | wc -l)
  lv() { /tmp/bin/fibril run examples/lv/lv.toml --snapshot-every-ms 30 --format npy -q --overwrite --precision f32 \
    --electrode '{name = "apex", position = [0, 0, -45]}' --electrode '{name = "side", position = [40, 0, -10]}' "$@"; }
  lv --duration-ms 60 --backend cpu --out /tmp/c-cpu
  lv --duration-ms 60 --backend gpu --out /tmp/c-gpu
  lv --duration-ms 60 --backend gpu --gpus "$gpus" --out /tmp/c-split
  lv --duration-ms 30 --backend gpu --checkpoint-every-ms 30 --out /tmp/c-half
  lv --duration-ms 60 --backend gpu --resume /tmp/c-half/checkpoint.fibril --out /tmp/c-half
  for d in c-gpu c-split c-half; do
    for f in ecg.csv activation.npy V_000002.npy; do
      cmp "/tmp/c-cpu/$f" "/tmp/$d/$f" && echo "$d $f: equal to the CPU's"
    done
  done | tee "$OUT/cli.txt"
  grep -h '"method"\|"device"' /tmp/c-*/summary.json | tee -a "$OUT/cli.txt"
fi
if has copy; then
  # Snapshots copied out behind the next steps (section 2.7) against the
  # download on the compute stream (--no-overlap), same binary, same call:
  # TP06 f32 on the 646,416-node slab, a snapshot every 0.5 ms (25 steps).
  [ -f /tmp/slab/slab.pts ] || python3 scripts/make-slab-carp.py --size-mm 40 40 3 --h-mm 0.2 --face-mm 0.6 --out /tmp/slab/slab
  config /tmp/slab/slab.pts /tmp/slab/slab_face.vtx 0.02 20 /tmp/copy-run > /tmp/copy.toml
  for flag in "" --no-overlap ""; do
    /tmp/bin/fibril run /tmp/copy.toml --backend gpu --snapshot-every-ms 0.5 -q $flag
    python3 -c "import json; s = json.load(open('/tmp/copy-run/summary.json')); print(json.dumps({'flag': '$flag', \
      'method': s['method'], 'snapshots': len(s['snapshots']), 'wall_s': s['wall_s'], 'stepping_s': s['stepping_s'], \
      'output_s': s['output_s'], 'output_waited_s': s['output_waited_s']}))"
  done | tee "$OUT/copy.txt"
fi
if has graphs; then
  # The LV example without maps (10,000 steps of TP06 f32 on 7,041 nodes):
  # quiet stretches replayed as CUDA graphs against every step launched
  # from the host (--no-graphs), same binary, same call.
  cat > /tmp/g.toml <<TOML
[model]
name = "ten_tusscher_2006"
[grid]
dt = 0.02
chi = 140.0
cm = 1.0
[mesh]
file = "$(realpath examples/lv/lv.pts)"
sigma_l = 0.1334
sigma_t = 0.0176
[run]
duration_ms = 200.0
[output]
out = "/tmp/g-run"
overwrite = true
format = ["npy"]
[[stimulus]]
region = "mask"
file = "$(realpath examples/lv/lv_apex.vtx)"
duration_ms = 1.0
current = 100.0
TOML
  for flag in "" --no-graphs "" --no-graphs; do
    /tmp/bin/fibril run /tmp/g.toml --backend gpu -q $flag
    python3 -c "import json; s = json.load(open('/tmp/g-run/summary.json')); print(json.dumps({'flag': '$flag', \
      'steps': s['steps_advanced'], 'stepping_s': s['stepping_s'], 'steps_per_s': s['steps_per_s']}))"
  done | tee "$OUT/graphs.txt"
fi
