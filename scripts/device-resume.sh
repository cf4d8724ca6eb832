#!/usr/bin/env bash
# Resume on the GPU equals the uninterrupted run, byte for byte: on one GPU
# (naive f32, tower-march f64) and split into sub-domains (--gpu-ids, which
# may repeat an ordinal, so a one-GPU machine runs the split too; every
# exchange mode the machine has). Each configuration runs (a) whole, (b)
# stopped at half its steps and resumed, (c) interrupted by SIGINT twice
# (as `timeout` sends it) and resumed, (d) killed by SIGKILL and resumed
# from its last periodic checkpoint; the last snapshot, the activation map
# and the final checkpoint of (b)-(d) must equal (a)'s. Exits non-zero on
# any difference. Runs from the repository root with the binary in .device/.
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
log="$OUT/resume.txt"; : > "$log"
failed=0
gpus=$(nvidia-smi -L | wc -l)
configs=(
  "--kernel naive --precision f32"
  "--kernel tower-march --block 32x8 --z-chunk 8 --precision f64"
  "--kernel naive --gpu-ids 0,0,0 --exchange peer"
  "--kernel csw --gpu-ids 0,0 --exchange host --no-overlap"
)
[ "$gpus" -ge 2 ] && configs+=("--kernel naive --gpu-ids 0,1 --exchange peer" "--kernel naive --gpu-ids 0,1 --exchange nccl")
base=(--backend gpu --size 128 --protocol scroll --snapshot-every-ms 5 --checkpoint-every-ms 5
      --activation-map --format npy --save all -q)
same() { # $1 whole dir, $2 other dir, $3 label
  local a b bad=0
  a=$(python3 -c "import json;print(' '.join(json.load(open('$1/snapshots.json'))[-1]['files']))")
  for f in $a activation.npy checkpoint.fibril; do
    cmp -s "$1/$f" "$2/$f" || { echo "DIFFERENT: $3: $f" | tee -a "$log"; bad=1; }
  done
  [ $bad = 0 ] && echo "identical: $3 ($a activation.npy checkpoint.fibril)" | tee -a "$log"
  return $bad
}
for c in "${configs[@]}"; do
  echo "== $c" | tee -a "$log"
  k=($c)
  rm -rf /tmp/ra /tmp/rb /tmp/rc /tmp/rd
  fibril run "${base[@]}" "${k[@]}" --steps 6000 --out /tmp/ra 2>&1 | tee -a "$log"
  # (b) half, then resumed to the end.
  fibril run "${base[@]}" "${k[@]}" --steps 3000 --out /tmp/rb 2>&1 | tee -a "$log"
  fibril run "${base[@]}" "${k[@]}" --steps 6000 --resume /tmp/rb/checkpoint.fibril 2>&1 | tee -a "$log"
  same /tmp/ra /tmp/rb "half and resumed" || failed=1
  # (c) two SIGINTs a millisecond apart while it runs.
  fibril run "${base[@]}" "${k[@]}" --steps 6000 --out /tmp/rc > /tmp/rc.log 2>&1 &
  pid=$!; until [ -f /tmp/rc/snapshots.json ] || ! kill -0 $pid 2>/dev/null; do sleep 0.01; done
  sleep 0.3; kill -INT $pid; kill -INT $pid; wait $pid; code=$?
  echo "SIGINT x2: exit $code, stopped at step $(python3 -c "import json;print(json.load(open('/tmp/rc/summary.json'))['step'])" 2>&1)" | tee -a "$log"
  [ $code = 130 ] || { echo "FAILED: exit $code after SIGINT x2" | tee -a "$log"; cat /tmp/rc.log | tee -a "$log"; failed=1; }
  fibril run "${base[@]}" "${k[@]}" --steps 6000 --resume /tmp/rc/checkpoint.fibril 2>&1 | tee -a "$log"
  same /tmp/ra /tmp/rc "SIGINT x2 and resumed" || failed=1
  # (d) SIGKILL: only the periodic checkpoints survive.
  fibril run "${base[@]}" "${k[@]}" --steps 6000 --out /tmp/rd > /dev/null 2>&1 &
  pid=$!; until [ -f /tmp/rd/checkpoint.fibril ] || ! kill -0 $pid 2>/dev/null; do sleep 0.01; done
  sleep 0.2; kill -KILL $pid; wait $pid 2>/dev/null
  if [ -f /tmp/rd/checkpoint.fibril ]; then
    fibril run "${base[@]}" "${k[@]}" --steps 6000 --resume /tmp/rd/checkpoint.fibril 2>&1 | tee -a "$log"
    same /tmp/ra /tmp/rd "SIGKILL and resumed" || failed=1
  else
    echo "SIGKILL came before the first checkpoint; nothing to resume (not a failure)" | tee -a "$log"
  fi
done
[ $failed = 0 ] && echo "ALL IDENTICAL" | tee -a "$log" || echo "FAILED" | tee -a "$log"
exit $failed
