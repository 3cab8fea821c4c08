#!/usr/bin/env bash
# Builds the Python package as an abi3 wheel in a fresh virtual environment,
# installs it with its [env,test,ray] extras and runs its tests (python/tests).
#
#   scripts/python-test.sh [--build-only | --no-build] [PYTEST ARGS...]
#
# --build-only stops once the wheel is installed; --no-build runs the tests
# on what an earlier --build-only left (scripts/test.sh runs the two apart,
# the build beside the Rust build and the tests beside the Rust tests).
# PYTHON names the interpreter (default python3, 3.9 or later). Everything
# lands under target/python-test/ (removed first by a build): the virtual
# environment, the wheel, and the binding crate's build (python/Cargo.lock,
# --locked). The golden cases are read from ../shared/cases; the comparison
# with the command line uses target/release/stakeraid or
# target/debug/stakeraid when one is built (STAKERAID_BIN names another).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
tests=1
case "${1:-}" in
  --build-only) tests=0; shift ;;
  --no-build) build=0; shift ;;
esac

python="${PYTHON:-python3}"
out=target/python-test
venv_python="$PWD/$out/venv/bin/python"

if [ "$build" = 1 ]; then
  rm -rf "$out"
  "$python" -m venv "$out/venv"
  "$venv_python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"

  # The binding crate keeps its own target folder: its release profile
  # differs from the solver's (panic = "unwind").
  CARGO_TARGET_DIR="$PWD/target/python" "$venv_python" -m maturin build \
    --profile wheel-test --locked --manifest-path python/Cargo.toml --interpreter "$venv_python" \
    --out "$out/wheels"
  wheels=("$out"/wheels/stakeraid-*.whl)
  [ ${#wheels[@]} -eq 1 ] || { echo "python-test.sh: expected one wheel, found: ${wheels[*]}" >&2; exit 1; }
  "$venv_python" -m pip install --quiet --disable-pip-version-check "${wheels[0]}[env,test,ray]"
fi
[ "$tests" = 1 ] || exit 0
[ -x "$venv_python" ] ||
  { echo "python-test.sh: no environment under $out: run it without --no-build first" >&2; exit 1; }

if [ -z "${STAKERAID_BIN:-}" ]; then
  for candidate in target/release/stakeraid target/debug/stakeraid; do
    if [ -x "$candidate" ]; then
      export STAKERAID_BIN="$PWD/$candidate"
      break
    fi
  done
fi

# Run from python/, where no stakeraid folder shadows the installed package.
cd python
"$venv_python" -m pytest -p no:cacheprovider tests "$@"
