#!/usr/bin/env bash
# What a full solve costs by the number of empty cells, on one thread: the
# curve COMPETITION uses to decide when to solve exactly
# (engine::competition::solve_cost).
#
#   scripts/solve-cost.sh [--seeds K] [--limit SECONDS]
#
# For boards 5x5 to 8x8 and K seeds each (default 10), positions from
# `stakeraid position` aimed at 15, 17 and 19 empty cells are solved to the
# end (ALPHABETA, depth 64) with `solve --threads 1`; a run past LIMIT
# seconds (default 20) counts as LIMIT. Prints the median and the largest
# wall time per board size and empty-cell count.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=10
limit=20
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift ;;
    --limit) limit="$2"; shift ;;
    *) echo "solve-cost.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
cargo build --release --locked --quiet
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for n in 5 6 7 8; do
  for s in $(seq 1 "$seeds"); do
    for e in 15 17 19; do
      fill=$(awk -v e="$e" -v n="$n" 'BEGIN { print 1 - e / (n * n) }')
      "$bin" position --size "$n" --fill "$fill" --seed "$s" --depth 64 > "$work/in.txt"
      empties=$(tail -n "$n" "$work/in.txt" | tr -cd . | wc -c)
      if out=$(timeout "$limit" "$bin" solve "$work/in.txt" -o /dev/null --stats --threads 1 2>&1); then
        secs=$(sed -n 's/.*time \([0-9.]*\)s.*/\1/p' <<< "$out")
      else
        secs="$limit"
      fi
      echo "$n $empties $secs"
    done
  done
done | sort -k1,1n -k2,2n -k3,3g | awk '
  function flush() { if (count) printf "%dx%d %3d empty  %2d runs  median %8.3fs  max %8.3fs\n", size, size, cells, count, v[int((count + 1) / 2)], v[count] }
  $1 != size || $2 != cells { flush(); size = $1; cells = $2; count = 0 }
  { v[++count] = $3 }
  END { flush() }'
