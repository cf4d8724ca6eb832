#!/usr/bin/env bash
# Builds the release binary and the GPU test binaries here (the GPU machine
# has no Rust) and copies them into .device/, which git ignores.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
mkdir -p .device
cp target/release/fibril .device/
for check in gpu_vs_cpu gpu_tet; do
  bin=$(cargo test --release --test "$check" --no-run --message-format=json 2>/dev/null \
    | grep -o "\"executable\":\"[^\"]*$check[^\"]*\"" | tail -1 | cut -d'"' -f4)
  cp "$bin" ".device/$check"
done
cp "$(ls -t target/release/build/fibril-*/out/kernels.ptx | head -1)" .device/kernels.ptx
ls -la .device
