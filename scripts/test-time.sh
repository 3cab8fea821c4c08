#!/usr/bin/env bash
# The test command's wall time from a fresh clone of REV (default HEAD), as
# CI runs it: the clone made beside this repository, with ../shared linked
# in, and `CI=true`. Cargo's and pip's download caches are this machine's,
# as CI's are.
#
#   scripts/test-time.sh [REV]
#
# A revision with scripts/test.sh runs it (it prints each part's time); an
# older one runs `cargo test --locked && scripts/python-test.sh &&
# scripts/release-check.sh`, timed by the same parts one after the other.
# Prints the parts and the total, in seconds. Wants a quiet machine.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rev="${1:-HEAD}"
work=$(mktemp -d -p "$(dirname "$repo")" test-time.XXXXXX)
trap 'rm -rf "$work"' EXIT
ln -s "$(dirname "$repo")/shared" "$work/shared"
git clone -q "$repo" "$work/stakeraid"
cd "$work/stakeraid"
git checkout -q "$rev"
export CI=true

part() {
  local name="$1" t0
  shift
  t0=$(date +%s)
  "$@" > "$work/$name.log" 2>&1 || { tail -40 "$work/$name.log"; echo "test-time.sh: $name failed" >&2; exit 1; }
  printf '%-14s %5d s\n' "$name" $(($(date +%s) - t0))
}

t0=$(date +%s)
echo "revision $(git rev-parse --short HEAD)"
if [ -x scripts/test.sh ]; then
  scripts/test.sh > "$work/test.log" 2>&1 || { tail -40 "$work/test.log"; exit 1; }
  cat target/test-logs/times.txt
else
  part rust_build cargo test --locked --no-run
  part rust_tests cargo test --locked
  part python scripts/python-test.sh
  grep -E '^=+ .*(passed|failed).* in ' "$work/python.log" | tail -1
  part release_check scripts/release-check.sh
  printf '%-14s %5d s\n' total $(($(date +%s) - t0))
fi
