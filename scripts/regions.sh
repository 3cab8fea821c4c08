#!/usr/bin/env bash
# The long exactness checks of large boards' regions, which the test
# command leaves out (`#[ignore]`): 1080 positions of 9x9 to 26x26 with 4
# to 12 empty cells against the textbook search through the api (MINIMAX
# and ALPHABETA, every depth, 1, 2 and 8 threads), and 240 positions of 13
# to 18 empty cells against the general engine.
#
#   scripts/regions.sh [--record]
#
# --record keeps the output in profiles/<date>-vm/regions.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
record=0
[ "${1:-}" = --record ] && record=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
  echo "# scripts/regions.sh at $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes), $(date -u +%F), $(nproc) cores"
  start=$(date +%s)
  cargo test --locked --test suite -- --ignored --exact \
    regions::many_large_boards_near_their_end_equal_the_textbook_search 2>&1 | grep -E '^test |test result'
  cargo test --locked --lib -- --ignored --exact \
    search::tests::regions::many_regions_equal_the_general_engine 2>&1 | grep -E '^test |test result'
  echo "# $(($(date +%s) - start)) s"
} | tee "$out"
grep -q FAILED "$out" && exit 1
if [ "$record" = 1 ]; then
  dir="profiles/$(date -u +%F)-vm"
  mkdir -p "$dir"
  cp "$out" "$dir/regions.txt"
fi
