#!/usr/bin/env bash
# The speed of the ionic models on the GPU beside Bartocci et al. 2011
# (seed 003): fibril bench at 256^3 and the paper's 2D sizes (512^2 to
# 2048^2), f32 and f64, every model; TP06 at 512^2 also at dt = 0.05 ms;
# ncu counts (instructions, floating-point operations, DRAM bytes) of one
# step of each model at 256^3; and a 3D Beeler-Reuter scroll wave for the
# README. Everything under $OUT/ionic-speed.tgz.
#
#   scripts/device-ionic-speed.sh   (from the repository root, binary in .device/)
set -uo pipefail
bin=.device/fibril
out=${OUT:-/tmp/fibril-ionic-speed}/ionic-speed
mkdir -p "$out"
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/gpu.txt"
. "$(dirname "$0")/device-bench.sh"
for m in karma bocf beeler_reuter luo_rudy_1991 ten_tusscher_2006; do
  for p in f32 f64; do
    bench "$m-$p-256c" --model $m --precision $p --size 256 --steps 200 --warmup 30
    for n in 512 1024 2048; do
      bench "$m-$p-${n}sq" --model $m --precision $p --nx $n --ny $n --nz 1 --steps $((2000 * 512 / n)) --warmup 100
    done
  done
done
for p in f32 f64; do
  bench "ten_tusscher_2006-$p-512sq-dt005" --model ten_tusscher_2006 --precision $p --nx 512 --ny 512 --nz 1 \
    --dt 0.05 --steps 2000 --warmup 100
done
# One step of each model at 256^3 under ncu (after 30 warm-up launches).
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
metrics=$metrics,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
metrics=$metrics,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
if command -v ncu > /dev/null; then
  for m in karma bocf beeler_reuter luo_rudy_1991 ten_tusscher_2006; do
    for p in f32 f64; do
      ncu --metrics "$metrics" --launch-skip 30 --launch-count 1 -k "regex:${m}_naive_$p" --csv \
        $bin bench --backend gpu --model $m --precision $p --size 256 --steps 2 --warmup 30 --repeats 1 \
        > "$out/ncu-$m-$p.csv" 2> "$out/ncu-$m-$p.err" || echo "ncu $m $p failed" >> "$out/errors.txt"
    done
  done
fi
# A 3D scroll wave of Beeler-Reuter: 512 x 32 x 512 cells of 0.3 mm (the
# protocol starts the wave along z; x and z hold the spiral).
/usr/bin/time -f "%e s wall" $bin run --backend gpu --model beeler_reuter --nx 512 --ny 32 --nz 512 --dx 0.3 \
  --protocol scroll --duration-ms 1000 --snapshot-every-ms 250 --format png --tips-every-ms 5 \
  --out "$work/br3d" -q > "$out/br3d.log" 2>&1 || echo "br3d failed" >> "$out/errors.txt"
cp "$work/br3d"/*.png "$work/br3d/summary.json" "$work/br3d/filaments.csv" "$out/" 2>/dev/null
rm -rf "$work"
tar -C "$out" -czf /tmp/ionic-speed.tgz . && rm -rf "${out:?}" && mkdir -p "$out" && mv /tmp/ionic-speed.tgz "$out/"
