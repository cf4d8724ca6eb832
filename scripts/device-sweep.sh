#!/usr/bin/env bash
# The paper's single-GPU experiment on the GPU machine: GPU-vs-CPU exactness
# checks, the kernel x block sweep at 256^3 and 512^3, and an ncu profile of
# one launch of each kernel at 256^3. Needs .device/ (scripts/stage-device.sh).
set -uo pipefail
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export PATH=$PWD/.device:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
echo "== GPU vs CPU"; .device/gpu_vs_cpu 2>&1 | tee "$OUT/gpu_tests.txt"
echo "== sweep"
fibril bench --backend gpu --sweep --steps 300 --warmup 20 --repeats 3 --json "$OUT/sweep.json" 2>&1 | tee "$OUT/sweep.txt"
if [ "${PROFILE:-1}" = 1 ] && command -v ncu >/dev/null; then
  echo "== ncu (256^3, one launch each, after 30 warm-up launches)"
  m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  for spec in "naive 32x8 0" "csw 64x4 0" "tower 32x8 0" "tower-march 64x4 0" "tower-march 64x4 8"; do
    set -- $spec
    ncu --launch-skip 30 --launch-count 1 --kernel-name regex:karma_ --metrics $m --csv \
      fibril bench --backend gpu --size 256 --steps 5 --warmup 30 --repeats 1 --kernel "$1" --block "$2" --z-chunk "$3" \
      2>/dev/null | grep -E '^"' > "$OUT/ncu_$1_$2_z$3.csv"
    echo "$1 $2 z-chunk $3"; awk -F'","' 'NR>1 {gsub(/"/,"",$NF); print "  " $(NF-2) " = " $NF}' "$OUT/ncu_$1_$2_z$3.csv"
  done 2>&1 | tee "$OUT/ncu.txt"
fi
