#!/usr/bin/env bash
# The imported CellML models on the GPU: the bit-identity checks of
# gpu_vs_cpu (every registered model, imported ones included), ptxas's
# register and spill report of their kernels, fibril bench at 512^2 and
# 256^3 in f32 and f64 (Bartocci et al. 2011's sizes, seed 003), and ncu
# counts of one naive step at 256^3. Everything under $OUT/cellml.
#
#   scripts/device-cellml.sh [PARTS]   (PARTS: checks more-checks ptxas bench ncu; default all)
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
  $ptxas -arch=sm_90 -v --entry "${entries#,}" .device/kernels.ptx -o /dev/null > "$out/ptxas.txt" 2>&1
fi
bench() { # name, then fibril bench options
  local name=$1; shift
  $bin bench --backend gpu --repeats 3 --json "$out/bench-$name.json" "$@" > "$out/bench-$name.log" 2>&1 \
    || echo "bench $name failed" >> "$out/errors.txt"
}
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
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,launch__registers_per_thread,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
if has ncu && command -v ncu > /dev/null; then
  for m in iyer_2004 ohara_rudy_2011 courtemanche_1998; do
    for p in f32 f64; do
      ncu --metrics "$metrics" --launch-skip 10 --launch-count 1 -k "regex:${m}_naive_$p" --csv \
        $bin bench --backend gpu --model $m --precision $p --size 256 --steps 2 --warmup 10 --repeats 1 \
        > "$out/ncu-$m-$p.csv" 2> "$out/ncu-$m-$p.err" || echo "ncu $m $p failed" >> "$out/errors.txt"
    done
  done
fi
tar -C "$out" -czf /tmp/cellml.tgz . && rm -rf "${out:?}" && mkdir -p "$out" && mv /tmp/cellml.tgz "$out/"
