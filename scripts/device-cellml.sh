#!/usr/bin/env bash
# The imported CellML models on the GPU: the bit-identity checks of
# gpu_vs_cpu (every registered model, imported ones included), ptxas's
# register and spill report of their kernels, fibril bench at 512^2 and
# 256^3 in f32 and f64 (Bartocci et al. 2011's sizes, seed 003), and ncu
# counts of one naive step at 256^3. Everything under $OUT/cellml.
#
#   scripts/device-cellml.sh [PARTS]   (PARTS: checks parallel-checks more-checks ptxas bench
#                                       quick-bench ncu; default checks more-checks ptxas bench ncu)
set -uo pipefail
parts=${1:-"checks more-checks ptxas bench ncu"}
out=${OUT:-/tmp/fibril-cellml}/cellml
mkdir -p "$out"
for f in .device/*.xz; do [ -e "${f%.xz}" ] || xz -dk "$f"; done
chmod +x .device/fibril .device/gpu_vs_cpu 2>/dev/null
bin=.device/fibril
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt"
has() { [[ " $parts " == *" $1 "* ]]; }
# The driver compiles the PTX once per machine (then caches it): time it.
/usr/bin/time -f "%e s wall (first load of the PTX)" $bin bench --backend gpu --model karma --size 16 --steps 2 \
  --warmup 0 --repeats 1 > "$out/first-load.log" 2>&1
/usr/bin/time -f "%e s wall (second load)" $bin bench --backend gpu --model karma --size 16 --steps 2 \
  --warmup 0 --repeats 1 >> "$out/first-load.log" 2>&1
if has checks; then
  timeout 470 .device/gpu_vs_cpu > "$out/gpu_vs_cpu.log" 2>&1; echo "exit $?" >> "$out/gpu_vs_cpu.log"
fi
# The same checks, the model-heavy ones each in its own process at once
# (the CPU references take the time; the machine has 16 cores).
if has parallel-checks; then
  pids=""
  for f in every_model_naive every_model_sheets every_model_columns every_model_blocked \
           z_split_every_model z_split_blocked tissue_every_model tissue_weight tissue_compact_u32 \
           rate_tables tissue_split tune_cache exact_math every_kernel events graph_replay; do
    (timeout "${CHECK_TIMEOUT:-240}" .device/gpu_vs_cpu $f > "$out/gpu_vs_cpu-$f.log" 2>&1
     echo "exit $?" >> "$out/gpu_vs_cpu-$f.log") &
    pids="$pids $!"
  done
  chmod +x .device/gpu_tet
  (timeout "${CHECK_TIMEOUT:-240}" .device/gpu_tet > "$out/gpu_tet.log" 2>&1; echo "exit $?" >> "$out/gpu_tet.log") &
  wait
fi
# The checks of every model the full run above may not reach in its time.
if has more-checks; then
  for f in tissue_weight tissue_compact_u32; do
    timeout 150 .device/gpu_vs_cpu $f > "$out/gpu_vs_cpu-$f.log" 2>&1; echo "exit $?" >> "$out/gpu_vs_cpu-$f.log"
  done
  chmod +x .device/gpu_tet
  timeout 150 .device/gpu_tet > "$out/gpu_tet.log" 2>&1; echo "exit $?" >> "$out/gpu_tet.log"
fi
ptxas=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
if has ptxas && [ -n "$ptxas" ]; then
  entries=""
  for m in iyer_2004 ohara_rudy_2011 courtemanche_1998 ten_tusscher_2006; do
    for p in f32 f64; do entries="$entries,${m}_naive_$p,${m}_naive2d_$p"; done
  done
  [ -e .device/kernels.ptx ] || xz -dk .device/kernels.ptx.xz
  # The module says ISA 7.0 / sm_70 (what the driver JITs from); ptxas
  # checks the griddepcontrol instructions against that ISA, so the copy
  # it compiles for sm_90 names ISA 7.8, the first with them.
  sed -e 's/^\.version .*/.version 7.8/' -e 's/^\.target .*/.target sm_90/' .device/kernels.ptx > /tmp/kernels-sm90.ptx
  $ptxas -arch=sm_90 -v --entry "${entries#,}" /tmp/kernels-sm90.ptx -o /dev/null > "$out/ptxas.txt" 2>&1
fi
. "$(dirname "$0")/device-bench.sh"
if has bench; then
  for m in iyer_2004 ohara_rudy_2011 courtemanche_1998 ten_tusscher_2006; do
    for p in f32 f64; do
      bench "$m-$p-512sq" --model $m --precision $p --nx 512 --ny 512 --nz 1 --steps 2000 --warmup 100
      bench "$m-$p-256c" --model $m --precision $p --size 256 --steps 100 --warmup 10
    done
  done
  # Iyer at 10 us (its accuracy there: the guide's validation table).
  for p in f32 f64; do
    bench "iyer_2004-$p-512sq-dt0.01" --model iyer_2004 --precision $p --nx 512 --ny 512 --nz 1 --dt 0.01 \
      --steps 2000 --warmup 100
  done
fi
# One size and fewer steps: the imported models at 512^2 against TP06.
if has quick-bench; then
  for mp in iyer_2004:f32 iyer_2004:f64 ohara_rudy_2011:f32 ohara_rudy_2011:f64 courtemanche_1998:f32 \
            courtemanche_1998:f64 ten_tusscher_2006:f32; do
    m=${mp%:*} p=${mp#*:}
    bench "$m-$p-512sq" --model $m --precision $p --nx 512 --ny 512 --nz 1 --steps 500 --warmup 50
  done
  bench "iyer_2004-f32-512sq-dt0.01" --model iyer_2004 --precision f32 --nx 512 --ny 512 --nz 1 --dt 0.01 \
    --steps 500 --warmup 50
  bench "iyer_2004-f32-256c" --model iyer_2004 --precision f32 --size 256 --steps 40 --warmup 5
fi
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,launch__registers_per_thread,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
if has ncu && command -v ncu > /dev/null; then
  # NCU_RUNS narrows it (e.g. "iyer_2004:f32 ohara_rudy_2011:f32").
  for mp in ${NCU_RUNS:-iyer_2004:f32 iyer_2004:f64 ohara_rudy_2011:f32 ohara_rudy_2011:f64 courtemanche_1998:f32 courtemanche_1998:f64}; do
    m=${mp%:*} p=${mp#*:}
    {
      ncu --metrics "$metrics" --launch-skip 10 --launch-count 1 -k "regex:${m}_naive_$p" --csv \
        $bin bench --backend gpu --model $m --precision $p --size 256 --steps 2 --warmup 10 --repeats 1 \
        > "$out/ncu-$m-$p.csv" 2> "$out/ncu-$m-$p.err" || echo "ncu $m $p failed" >> "$out/errors.txt"
    }
  done
fi
tar -C "$out" -czf /tmp/cellml.tgz . && rm -rf "${out:?}" && mkdir -p "$out" && mv /tmp/cellml.tgz "$out/"
