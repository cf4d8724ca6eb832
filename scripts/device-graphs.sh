#!/usr/bin/env bash
# Small grids with and without CUDA graphs (issue 15 section 4), in one run
# on the GPU machine: `fibril bench` at 64^3, 128^3 and 256^3 (the default
# kernel, columns, and naive at the small sizes) with graphs joined by
# programmatic edges (the default on sm_90), with plain edges (--no-pdl) and
# without graphs (--no-graphs), `fibril run` at 64^3,
# and the GPU checks whose names contain "graph" (PARTS="... tests" runs
# them all). Binaries in $BIN (default .device; scripts/stage-device.sh);
# writes logs and JSON under $OUT (default ./device-out), a table last.
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
BIN=${BIN:-$PWD/.device}; PARTS=${PARTS:-"bench run graph-tests"}
export PATH=$BIN:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
has() { [[ " $PARTS " == *" $1 "* ]]; }
if has graph-tests; then echo "== GPU checks: graph"; timeout 300 "$BIN/gpu_vs_cpu" graph 2>&1 | tee "$OUT/gpu_tests_graph.txt"; fi
if has tests; then echo "== GPU checks: all"; timeout 500 "$BIN/gpu_vs_cpu" 2>&1 | tee "$OUT/gpu_tests.txt"; fi
if has bench; then
  echo "== fibril bench, graphs with programmatic edges, with plain edges, and off"
  # size, steps per repeat (about 1 s each), kernel
  for spec in "64 200000 auto" "64 200000 columns" "128 100000 auto" "128 100000 columns" "128 100000 naive" "256 10000 auto"; do
    set -- $spec
    for graphs in pdl on off; do
      flag=(); [ "$graphs" = off ] && flag=(--no-graphs); [ "$graphs" = on ] && flag=(--no-pdl)
      fibril bench --backend gpu --size "$1" --steps "$2" --warmup 1000 --repeats 3 --kernel "$3" "${flag[@]}" \
        --json "$OUT/bench_$1_$3_$graphs.json" 2>&1 | grep -v '^bench ' | tee -a "$OUT/bench.txt"
    done
  done
fi
if has run; then
  echo "== fibril run, 64^3, 40,000 steps, NaN check every 100 steps (the default)"
  for graphs in pdl on off; do
    flag=(); [ "$graphs" = off ] && flag=(--no-graphs); [ "$graphs" = on ] && flag=(--no-pdl)
    fibril run --backend gpu --size 64 --steps 40000 --out "$OUT/run_64_$graphs" "${flag[@]}" >/dev/null 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], d['method'], d['steps_advanced'], 'steps', round(d['stepping_s'],4), 's stepping', round(d['steps_advanced']/d['stepping_s']), 'steps/s')" \
      "$OUT/run_64_$graphs/summary.json" "$graphs" | tee -a "$OUT/run.txt"
  done
fi
if has bench; then
  python3 - "$OUT" <<'PY' | tee "$OUT/table.txt"
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
print("| grid | kernel | graphs off steps/s | graphs, plain edges | graphs, programmatic edges | plain / off | programmatic / plain |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for n, kernel in [(64, "auto"), (64, "columns"), (128, "auto"), (128, "columns"), (128, "naive"), (256, "auto")]:
    runs = {g: json.load(open(out / f"bench_{n}_{kernel}_{g}.json")) for g in ("pdl", "on", "off")}
    r = {g: d["steps_per_s"] for g, d in runs.items()}
    method = runs["off"]["method"].split(" f32")[0]
    print(f"| {n}^3 | {kernel}: {method} | {r['off']:,.0f} | {r['on']:,.0f} | {r['pdl']:,.0f} | {r['on'] / r['off']:.2f} | {r['pdl'] / r['on']:.2f} |")
PY
fi
