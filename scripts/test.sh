#!/usr/bin/env bash
# The test command: every test of the project, as CI runs it.
#
#   scripts/test.sh
#
# 1. The Rust tests' build, and beside it the Python package's environment
#    and wheel (scripts/python-test.sh --build-only): one is mostly the
#    compiler on both cores, the other mostly downloads.
# 2. The Rust tests (cargo test), and beside them the Python tests
#    (scripts/python-test.sh --no-build, mostly waiting on Ray clusters
#    starting and stopping) and the release check (scripts/release-check.sh,
#    on the wheel of step 1).
# What runs in the background writes to target/test-logs/, printed whole
# when it ends. The last lines give each part's wall time; they are kept in
# target/test-logs/times.txt. Exits non-zero when any part fails.
set -euo pipefail
cd "$(dirname "$0")/.."

logs=target/test-logs
rm -rf "$logs"
mkdir -p "$logs"
started=$(date +%s)

# Runs "$@" in the background, its output to $logs/NAME.log and its wall
# time, once it ends, to $logs/NAME.time; the pid lands in the variable NAME.
background() {
  local name="$1"
  shift
  (
    local t0
    t0=$(date +%s)
    "$@" > "$logs/$name.log" 2>&1
    echo $(($(date +%s) - t0)) > "$logs/$name.time"
  ) &
  printf -v "$name" '%s' "$!"
}

# Waits for a background part and prints its log; returns its status.
finish() {
  local name="$1" pid="$2" status=0
  wait "$pid" || status=$?
  echo "== $name ($logs/$name.log)"
  cat "$logs/$name.log"
  [ "$status" = 0 ] || echo "scripts/test.sh: $name failed (exit $status)" >&2
  return "$status"
}

# Runs "$@" in the foreground and records its wall time as NAME.
timed() {
  local name="$1" t0 status=0
  shift
  t0=$(date +%s)
  "$@" || status=$?
  echo $(($(date +%s) - t0)) > "$logs/$name.time"
  return "$status"
}

failed=0
echo "== step 1: the Rust build, with the Python wheel built beside it"
background python_build scripts/python-test.sh --build-only
timed rust_build cargo test --locked --no-run || failed=1
finish python_build "$python_build" || failed=1
[ "$failed" = 0 ] || exit 1

echo "== step 2: the Rust tests, with the Python tests and the release check beside them"
background python_tests scripts/python-test.sh --no-build
background release_check scripts/release-check.sh
timed rust_tests cargo test --locked || failed=1
finish python_tests "$python_tests" || failed=1
finish release_check "$release_check" || failed=1

{
  for part in rust_build python_build rust_tests python_tests release_check; do
    [ -f "$logs/$part.time" ] && printf '%-14s %5d s\n' "$part" "$(cat "$logs/$part.time")"
  done
  printf '%-14s %5d s\n' total $(($(date +%s) - started))
} | tee "$logs/times.txt"
exit "$failed"
