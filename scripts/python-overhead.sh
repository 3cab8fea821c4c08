#!/usr/bin/env bash
# The per-call cost of a tiny analysis (2x2 empty board, ALPHABETA depth 1,
# one thread) in Rust and from Python: python/examples/overhead.rs and
# overhead.py. Uses the wheel scripts/python-test.sh installed in
# target/python-test/venv (run that first).
#
#   scripts/python-overhead.sh [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."

venv_python=target/python-test/venv/bin/python
[ -x "$venv_python" ] || { echo "python-overhead.sh: run scripts/python-test.sh first" >&2; exit 2; }
calls="${1:-100000}"
CARGO_TARGET_DIR="$PWD/target/python" cargo run --quiet --release --locked \
  --manifest-path python/Cargo.toml --example overhead -- "$calls"
"$venv_python" python/examples/overhead.py "$calls"
