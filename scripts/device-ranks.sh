#!/usr/bin/env bash
# Multi-process runs on a machine with two or more GPUs: the same run as
# (a) one process on one GPU, (b) one process driving 2 GPUs through NCCL,
# (c) two processes (ranks found from srun's variables) and (d) two
# processes (explicit --rank/--world-size) and (e) two processes from
# mpirun (OMPI_COMM_WORLD_*), each rank one GPU; the
# snapshots, activation map and checkpoint of (b)-(e) must be byte-identical
# to (a). Then the same in the tower layout, and a 2-rank benchmark.
# Exits non-zero when any directory differs or the mismatched ranks are not
# refused.
set -uo pipefail
failed=0
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
source scripts/nccl-env.sh
log="$OUT/ranks.txt"; : > "$log"
common=(--backend gpu --size 96 --protocol scroll --duration-ms 40 --snapshot-every-ms 10
        --checkpoint-every-ms 20 --activation-map --format npy --quiet --overwrite)
cmp_dirs() { # $1 reference dir, $2 other dir
  local bad=0 n=0
  for f in "$1"/*.npy "$1"/checkpoint.fibril; do
    n=$((n+1)); cmp -s "$f" "$2/$(basename "$f")" || { echo "DIFFERENT: $(basename "$f")"; bad=1; }
  done
  [ $bad = 0 ] && echo "identical: $n files ($2 vs $1)"
  return $bad
}
for kernel in "naive --block 32x8" "tower-march --block 32x8 --z-chunk 8"; do
  echo "== kernel $kernel" | tee -a "$log"
  k=(--kernel $kernel)
  fibril run "${common[@]}" "${k[@]}" --out /tmp/r1 2>&1 | tee -a "$log"
  fibril run "${common[@]}" "${k[@]}" --gpus 2 --exchange nccl --out /tmp/r2 2>&1 | tee -a "$log"
  for r in 0 1; do
    SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_LOCALID=$r \
      fibril run "${common[@]}" "${k[@]}" --exchange nccl --out /tmp/r3 > "$OUT/rank$r.log" 2>&1 &
  done
  wait; cat "$OUT/rank0.log" "$OUT/rank1.log" | tee -a "$log"
  for r in 0 1; do
    fibril run "${common[@]}" "${k[@]}" --exchange nccl --rank $r --world-size 2 \
      --rendezvous 127.0.0.1:29600 --out /tmp/r4 > "$OUT/rank$r.log" 2>&1 &
  done
  wait; cat "$OUT/rank0.log" "$OUT/rank1.log" | tee -a "$log"
  mpirun --allow-run-as-root --oversubscribe -np 2 -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x PATH \
    fibril run "${common[@]}" "${k[@]}" --exchange nccl --out /tmp/r5 2>&1 | tee -a "$log"
  ls /tmp/r3 | tr '\n' ' ' | tee -a "$log"; echo | tee -a "$log"
  for d in /tmp/r2 /tmp/r3 /tmp/r4 /tmp/r5; do cmp_dirs /tmp/r1 $d 2>&1 | tee -a "$log" || failed=1; done
  grep -h '"method"' /tmp/r[1-5]/summary.json | tee -a "$log"
done
echo "== ranks started with different options are refused" | tee -a "$log"
pids=()
for r in 0 1; do
  fibril run "${common[@]}" $([ $r = 1 ] && echo --save-v) --exchange nccl --rank $r --world-size 2 \
    --rendezvous 127.0.0.1:29601 --out /tmp/r6 > "$OUT/rank$r.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do
  wait "$p" && { echo "NOT REFUSED: a rank with different options ran" | tee -a "$log"; failed=1; }
done
cat "$OUT/rank0.log" "$OUT/rank1.log" | tee -a "$log"
[ "$failed" = 0 ] && echo "all identical" | tee -a "$log" || echo "FAILED: see above" | tee -a "$log"
[ "${RANKS_BENCH:-1}" = 0 ] && exit $failed
echo "== 2 ranks vs 1 process, 512^3 naive" | tee -a "$log"
b=(--backend gpu --size 512 --steps 200 --warmup 10 --repeats 3)
fibril bench "${b[@]}" --gpus 1,2 --exchange nccl 2>&1 | grep -v '^bench ' | tee -a "$log"
for r in 0 1; do
  SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_LOCALID=$r fibril bench "${b[@]}" --exchange nccl \
    --json "$OUT/bench_ranks_512.json" > "$OUT/rank$r.log" 2>&1 &
done
wait; cat "$OUT/rank0.log" "$OUT/rank1.log" | grep -v '^bench ' | tee -a "$log"
which mpirun >/dev/null 2>&1 && echo "mpirun: $(which mpirun)" | tee -a "$log" || echo "no mpirun on this machine" | tee -a "$log"
exit $failed
