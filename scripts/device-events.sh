#!/usr/bin/env bash
# A real run against `fibril bench` for the same steps, on the GPU: the
# activation map, the APD map and the S1-S2 protocol act on the device, so
# a run that records them should cost what the kernels cost. Writes
# $OUT/events-<size>-<gpus>.json (one object per case) and the logs.
#
#   scripts/device-events.sh SIZE DURATION_MS GPUS   (from the repository root,
#   with the binary in .device/; GPUS = 1 or 2)
set -euo pipefail
size=$1; duration=$2; gpus=$3
bin=.device/fibril
out=${OUT:-/tmp/fibril-events}
mkdir -p "$out"
work=$(mktemp -d)
steps=$(python3 -c "print(round($duration / 0.05))")
common=(--backend gpu --size "$size" --gpus "$gpus")
json="$out/events-$size-$gpus.json"
echo "[" > "$json"
first=1
record() { # name, wall seconds, summary.json or bench json
  local name=$1 wall=$2 file=$3
  [ $first = 1 ] || echo "," >> "$json"
  first=0
  python3 - "$name" "$wall" "$file" >> "$json" <<'PY'
import json, sys
name, wall, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
d = json.load(open(path))
if "stepping_s" in d:
    row = {"case": name, "process_wall_s": wall, "loop_s": d["wall_s"], "stepping_s": d["stepping_s"],
           "output_s": d["output_s"], "output_waited_s": d.get("output_waited_s"),
           "snapshot_files": sum(len(r["files"]) for r in d["snapshots"]),
           "steps": d["steps_advanced"], "device": d["device"], "method": d["method"]}
else:
    r = d["results"][0] if "results" in d else d
    row = {"case": name, "process_wall_s": wall, "bench": r}
print(json.dumps(row))
PY
}
run_case() { # name, extra args...
  local name=$1; shift
  local dir="$work/$name"
  local t0=$(date +%s.%N)
  $bin run "${common[@]}" --duration-ms "$duration" --out "$dir" -q "$@" > "$out/$name-$size-$gpus.log" 2>&1
  local t1=$(date +%s.%N)
  record "$name" "$(python3 -c "print($t1 - $t0)")" "$dir/summary.json"
  cp "$dir/summary.json" "$out/summary-$name-$size-$gpus.json"
  rm -rf "$dir"
}
# The disk's bandwidth as fibril writes (whole files, fsync before the
# rename): 1 GiB in 64 MiB files.
python3 - "$work" > "$out/disk-$size-$gpus.json" <<'PY'
import os, sys, time
d = sys.argv[1]; block = os.urandom(64 << 20); t0 = time.time()
for i in range(16):
    p = os.path.join(d, f"dd{i}")
    with open(p, "wb") as f:
        f.write(block); f.flush(); os.fsync(f.fileno())
    os.remove(p)
dt = time.time() - t0
print('{"disk_write_gb_per_s": %.3f, "bytes": %d, "seconds": %.3f}' % (16 * len(block) / dt / 1e9, 16 * len(block), dt))
PY
cat "$out/disk-$size-$gpus.json"
t0=$(date +%s.%N)
$bin bench "${common[@]}" --steps "$steps" --warmup 200 --repeats 1 --json "$work/bench.json" > "$out/bench-$size-$gpus.log" 2>&1
t1=$(date +%s.%N)
record bench "$(python3 -c "print($t1 - $t0)")" "$work/bench.json"
run_case plain
run_case activation --activation-map
run_case activation-apd-s1s2 --activation-map --apd-map --protocol scroll --s2-ms $(python3 -c "print(round($duration * 0.4))")
run_case snapshots20 --snapshot-every-ms $(python3 -c "print($duration / 20)")
echo "]" >> "$json"
rm -rf "$work"
cat "$json"
