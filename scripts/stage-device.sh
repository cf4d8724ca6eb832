#!/usr/bin/env bash
# Builds the release binary and the GPU test binary here (the GPU machine
# has no Rust) and copies them into .device/, which git ignores.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
mkdir -p .device
cp target/release/fibril .device/
bin=$(cargo test --release --test gpu_vs_cpu --no-run --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*gpu_vs_cpu[^"]*"' | tail -1 | cut -d'"' -f4)
cp "$bin" .device/gpu_vs_cpu
cp "$(ls -t target/release/build/fibril-*/out/kernels.ptx | head -1)" .device/kernels.ptx
ls -la .device
