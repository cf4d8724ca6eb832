# Sourced by the device scripts: `bench NAME [fibril bench options]` runs
# `$bin bench` on the GPU (median of 3), JSON to $out/bench-NAME.json, log
# beside it, and a line in $out/errors.txt if it fails. The caller sets
# `bin` (the binary) and `out` (the result folder).
bench() { # name, then fibril bench options
  local name=$1; shift
  $bin bench --backend gpu --repeats 3 --json "$out/bench-$name.json" "$@" > "$out/bench-$name.log" 2>&1 \
    || echo "bench $name failed" >> "$out/errors.txt"
}
