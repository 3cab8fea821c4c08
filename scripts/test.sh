#!/usr/bin/env bash
# The test command: every test of the project, as CI runs it.
#
#   scripts/test.sh
#
# 0. The set-up a fresh Debian machine needs (scripts/setup.sh, its lines
#    first): chromium for the browser tests, installed where it is missing
#    and this runs as root with apt-get (apt-get update first); under CI
#    (CI set), a one-line failure at once where ../shared/cases, the golden
#    cases, is missing, or chromium cannot be had.
# 1. The Rust tests' build, alone: it keeps both cores busy, and a second
#    build beside it would only share them.
# 2. The Rust tests (cargo test), and beside them, one after the other, the
#    Python package's wheel (scripts/python-test.sh --build-only), its tests
#    (--no-build: mostly waiting on Ray clusters starting and stopping) and
#    the release check (scripts/release-check.sh, on that wheel): the Rust
#    tests leave room on the cores that the Python side fills.
# The Python side writes to target/test-logs/, printed whole when it ends.
# The last lines give each part's wall time; they are kept in
# target/test-logs/times.txt. Exits non-zero when any part fails.
set -euo pipefail
cd "$(dirname "$0")/.."

logs=target/test-logs
rm -rf "$logs"
mkdir -p "$logs"
started=$(date +%s)

# Runs "$@" as the part NAME: its output to $logs/NAME.log unless LOG is 0,
# its wall time, once it succeeds, to $logs/NAME.time.
part() {
  local name="$1" t0
  shift
  t0=$(date +%s)
  if [ "${LOG:-1}" = 1 ]; then
    "$@" > "$logs/$name.log" 2>&1 || return 1
  else
    "$@" || return 1
  fi
  echo $(($(date +%s) - t0)) > "$logs/$name.time"
}

python_side() {
  part python_build scripts/python-test.sh --build-only &&
    part python_tests scripts/python-test.sh --no-build &&
    part release_check scripts/release-check.sh
}

echo "== step 0: the set-up (scripts/setup.sh)"
LOG=0 part setup scripts/setup.sh || exit 1

echo "== step 1: the Rust build"
LOG=0 part rust_build cargo test --locked --no-run || exit 1

echo "== step 2: the Rust tests, with the Python wheel, its tests and the release check beside them"
failed=0
python_side &
python_pid=$!
LOG=0 part rust_tests cargo test --locked || failed=1
python_status=0
wait "$python_pid" || python_status=$?
for name in python_build python_tests release_check; do
  if [ -f "$logs/$name.log" ]; then
    echo "== $name ($logs/$name.log)"
    cat "$logs/$name.log"
  fi
done
if [ "$python_status" != 0 ]; then
  echo "scripts/test.sh: the Python side failed (see above)" >&2
  failed=1
fi

{
  for name in setup rust_build rust_tests python_build python_tests release_check; do
    [ -f "$logs/$name.time" ] && printf '%-14s %5d s\n' "$name" "$(cat "$logs/$name.time")"
  done
  printf '%-14s %5d s\n' total $(($(date +%s) - started))
} | tee "$logs/times.txt"
exit "$failed"
