#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest), CPU only: builds the
# extension into a virtual environment under target/ (the dev profile, so
# it reuses what `cargo test --workspace` compiled), then runs pytest
# against the command line of the same build (target/debug/fibril).
# Needs python3 (3.9 or later) with venv; without it, says it skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null || ! python3 -c 'import sys, venv; assert sys.version_info >= (3, 9)' 2>/dev/null; then
    echo "skipped: the Python package's tests need python3 >= 3.9 with venv"
    exit 0
fi
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q pytest tqdm
# The dev profile: the same compiled crates as the Rust tests.
MATURIN_PEP517_ARGS="--profile dev" "$venv/bin/python" -m pip install -q ./python
[ -x target/debug/fibril ] || cargo build -q --bin fibril
FIBRIL_BIN="$PWD/target/debug/fibril" "$venv/bin/python" -m pytest -q python/tests "$@"
