#!/usr/bin/env bash
# The ionic models with and without their rate tables (--rate-tables) in
# the same run, on the GPU: fibril bench at Bartocci et al.'s 2D sizes
# and 256^3, f32 and f64, the ratio printed per case, and ncu counts of
# one 256^3 step each way. Everything under $OUT/rate-tables.tgz.
#
#   scripts/device-rate-tables.sh   (from the repository root, binary in .device/)
# SIZES (default "512 1024 2048 256c"; 256c is the 256^3 cube), REPEATS
# (default 3) and NCU_PRECISIONS (default "f32 f64") narrow the run.
set -uo pipefail
bin=.device/fibril
out=${OUT:-/tmp/fibril-rate-tables}/rate-tables
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/gpu.txt"
steps_per_s() { grep -o '"steps_per_s": *[0-9.e+]*' "$1" | head -1 | sed 's/.*: *//'; }
for m in beeler_reuter luo_rudy_1991 ten_tusscher_2006; do
  for p in f32 f64; do
    for n in ${SIZES:-512 1024 2048 256c}; do
      if [ "$n" = 256c ]; then size=(--size 256 --steps 200 --warmup 30); else
        size=(--nx $n --ny $n --nz 1 --steps $((2000 * 512 / n)) --warmup 100); fi
      for mode in exact tables; do
        extra=(); [ $mode = tables ] && extra=(--rate-tables)
        $bin bench --backend gpu --repeats ${REPEATS:-3} --model $m --precision $p "${size[@]}" "${extra[@]}" \
          --json "$out/bench-$m-$p-$n-$mode.json" > "$out/bench-$m-$p-$n-$mode.log" 2>&1 \
          || echo "bench $m $p $n $mode failed" >> "$out/errors.txt"
      done
      a=$(steps_per_s "$out/bench-$m-$p-$n-exact.json"); b=$(steps_per_s "$out/bench-$m-$p-$n-tables.json")
      echo "$m $p $n exact=$a tables=$b ratio=$(python3 -c "print(round($b/$a, 3))" 2>/dev/null)" >> "$out/ratios.txt"
    done
  done
done
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
metrics=$metrics,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
if command -v ncu > /dev/null; then
  for m in beeler_reuter luo_rudy_1991 ten_tusscher_2006; do
    for p in ${NCU_PRECISIONS:-f32 f64}; do
      for mode in exact tables; do
        extra=(); [ $mode = tables ] && extra=(--rate-tables)
        ncu --metrics "$metrics" --launch-skip 30 --launch-count 1 -k "regex:${m}_naive_$p" --csv \
          $bin bench --backend gpu --model $m --precision $p --size 256 --steps 2 --warmup 30 --repeats 1 \
          "${extra[@]}" > "$out/ncu-$m-$p-$mode.csv" 2> "$out/ncu-$m-$p-$mode.err" \
          || echo "ncu $m $p $mode failed" >> "$out/errors.txt"
      done
    done
  done
fi
tar -C "$out" -czf /tmp/rate-tables.tgz . && rm -rf "${out:?}" && mkdir -p "$out" && mv /tmp/rate-tables.tgz "$out/"
