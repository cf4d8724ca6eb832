#!/usr/bin/env bash
# Builds the release binary, the GPU test binaries and the mesh speed
# example here (the GPU machine has no Rust) and copies them, stripped
# and xz-compressed, into .device/, which git ignores (scripts/device-*.sh
# unpack them).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins --examples
mkdir -p .device
rm -f .device/*
cp target/release/fibril target/release/examples/tet_speed .device/
for check in gpu_vs_cpu gpu_tet; do
  bin=$(cargo test --release --test "$check" --no-run --message-format=json 2>/dev/null \
    | grep -o "\"executable\":\"[^\"]*$check[^\"]*\"" | tail -1 | cut -d'"' -f4)
  cp "$bin" ".device/$check"
done
cp "$(ls -t target/release/build/fibril-*/out/kernels.ptx | head -1)" .device/kernels.ptx
for f in .device/*; do
  [ "$f" = .device/kernels.ptx ] || strip "$f"
  xz -6 "$f"
done
ls -la .device
