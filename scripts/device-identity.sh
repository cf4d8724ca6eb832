#!/usr/bin/env bash
# Karma's files byte for byte between two builds on a GPU: the planar run,
# the scroll protocol and a tissue run (configs/shell.toml), each written
# by OLD and by NEW (paths of fibril binaries), then every file compared.
# Usage: OLD=path NEW=path OUT=dir scripts/device-identity.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?the earlier build}" "${NEW:?the build to check}" "${OUT:=identity-out}"
mkdir -p "$OUT"
runs=(
  "planar|run --backend gpu --size 96 --duration-ms 60 --snapshot-every-ms 20 --activation-map"
  "scroll|run --backend gpu --size 64 --protocol scroll --duration-ms 200 --snapshot-every-ms 50 --apd-map"
  "tissue|run --backend gpu configs/shell.toml"
)
status=0
for entry in "${runs[@]}"; do
  name=${entry%%|*}; args=${entry#*|}
  for build in OLD NEW; do
    bin=${!build}
    dir=/tmp/identity-$name-$build
    rm -rf "$dir"
    # shellcheck disable=SC2086
    "$bin" $args --out "$dir" -q 2>>"$OUT/stderr.log"
  done
  n=0; differ=0
  for f in /tmp/identity-$name-OLD/*.npy; do
    n=$((n + 1))
    cmp -s "$f" "/tmp/identity-$name-NEW/$(basename "$f")" || { differ=$((differ + 1)); echo "differs: $name $(basename "$f")"; }
  done
  echo "$name: $n npy files compared, $differ differ"
  [ "$differ" -eq 0 ] && [ "$n" -gt 0 ] || status=1
done
exit $status
