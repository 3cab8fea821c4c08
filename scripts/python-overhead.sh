#!/usr/bin/env bash
# What a search costs from Python against Rust, on the wheel `pip install`
# builds (the release profile: link-time optimisation, one codegen unit),
# not the test script's quicker one.
#
#   scripts/python-overhead.sh [CALLS [INPUT]]
#
# CALLS (default 100000): the per-call cost of a tiny analysis (2x2 empty
# board, ALPHABETA depth 1, one thread) in Rust and from Python
# (python/examples/overhead.rs and overhead.py).
# INPUT: also the node rate of one deep analysis of that input.txt on one
# thread, by `stakeraid analyse` and from Python: the same library call
# (principal variation included), so the node counts must agree.
#
# PYTHON names the interpreter (default python3). The wheel and its virtual
# environment go to target/python-overhead/.
set -euo pipefail
cd "$(dirname "$0")/.."

calls="${1:-100000}"
input="${2:-}"
python="${PYTHON:-python3}"
out=target/python-overhead
rm -rf "$out"
"$python" -m venv "$out/venv"
venv_python="$PWD/$out/venv/bin/python"
"$venv_python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
CARGO_TARGET_DIR="$PWD/target/python" "$venv_python" -m maturin build --release --locked \
  --manifest-path python/Cargo.toml --interpreter "$venv_python" --out "$out/wheels"
"$venv_python" -m pip install --quiet --disable-pip-version-check "$out"/wheels/stakeraid-*.whl

CARGO_TARGET_DIR="$PWD/target/python" cargo run --quiet --release --locked \
  --manifest-path python/Cargo.toml --example overhead -- "$calls"
"$venv_python" python/examples/overhead.py "$calls"

if [ -n "$input" ]; then
  cargo build --quiet --release --locked
  # `analyse` does not take the input's mode (its default is MINIMAX);
  # Python's analyse of the same input does.
  mode=$(sed -n 2p "$input" | tr '[:upper:]' '[:lower:]' | tr -d '[:space:]')
  echo "stakeraid analyse $input --mode $mode --threads 1:"
  target/release/stakeraid analyse "$input" --mode "$mode" --threads 1 | tail -n 1
  echo "python analyse, threads=1:"
  "$venv_python" python/examples/overhead.py --input "$input"
fi
