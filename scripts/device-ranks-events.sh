#!/usr/bin/env bash
# The run loop's events in a multi-process run: the same scroll-wave run
# with activation, repolarisation and APD maps, a pseudo-ECG and filaments
# on one GPU, on two GPUs of one process, and on two processes (NCCL),
# compared file by file. Writes $OUT/ranks-events.json and the logs.
#
#   scripts/device-ranks-events.sh   (from the repository root, binary in
#   .device/, on a machine with two GPUs)
set -euo pipefail
bin=.device/fibril
out=${OUT:-/tmp/fibril-ranks-events}
mkdir -p "$out"
work=$(mktemp -d)
args=(--backend gpu --size 128 --protocol scroll --duration-ms 300 --activation-map --apd-map
      --electrode '{name = "above", position = [38.1, 38.1, 100]}' --ecg-every-ms 1 --tips-every-ms 5 -q)
$bin run "${args[@]}" --gpus 1 --out "$work/one" > "$out/one.log" 2>&1
$bin run "${args[@]}" --gpus 2 --out "$work/two" > "$out/two.log" 2>&1
for r in 0 1; do
  $bin run "${args[@]}" --exchange nccl --rank $r --world-size 2 --out "$work/ranks" > "$out/rank$r.log" 2>&1 &
done
wait
python3 - "$work" > "$out/ranks-events.json" <<'PY'
import csv, json, sys, os
import numpy as np
w = sys.argv[1]
res = {}
for name in ["activation.npy", "repolarisation.npy", "apd.npy", "U_000000.npy"]:
    a = np.load(os.path.join(w, "one", name))
    for other in ["two", "ranks"]:
        b = np.load(os.path.join(w, other, name))
        res[f"{name} {other} == one"] = bool(np.array_equal(a, b, equal_nan=True))
ecg = {d: np.loadtxt(os.path.join(w, d, "ecg.csv"), delimiter=",", skiprows=1) for d in ["one", "two", "ranks"]}
for other in ["two", "ranks"]:
    rel = np.max(np.abs(ecg[other][:, 1] - ecg["one"][:, 1])) / np.max(np.abs(ecg["one"][:, 1]))
    res[f"ecg {other} max relative difference"] = float(rel)
    res[f"ecg {other} samples"] = int(len(ecg[other]))
fil = {d: open(os.path.join(w, d, "filaments.csv")).read() for d in ["one", "two", "ranks"]}
for other in ["two", "ranks"]:
    res[f"filaments.csv {other} == one"] = fil[other] == fil["one"]
res["filament rows"] = fil["one"].count("\n") - 1
res["activated cells"] = int(np.isfinite(np.load(os.path.join(w, "one", "activation.npy"))).sum())
print(json.dumps(res, indent=1))
PY
cat "$out/ranks-events.json"
rm -rf "$work"
