#!/usr/bin/env bash
# Two builds on the same inputs, run alternately (old, new, old, new, ...)
# so that the machine's drift falls on both alike:
#
#   scripts/ab.sh OLD_BINARY NEW_BINARY REPEAT THREADS INPUT...
#
# Prints, per input, the median of REPEAT `solve --stats` times of each
# build, their ratio (old / new) and both node counts.
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,8p' "$0"; exit 2; }
old="$1"; new="$2"; repeat="$3"; threads="$4"; shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/solve-times.sh"

for input in "$@"; do
  : > "$work/old"; : > "$work/new"
  for _ in $(seq "$repeat"); do
    solve_once "$old" "$input" "$threads" >> "$work/old"
    solve_once "$new" "$input" "$threads" >> "$work/new"
  done
  o=$(cut -d' ' -f1 "$work/old" | median)
  n=$(cut -d' ' -f1 "$work/new" | median)
  printf "%-14s old %7.3f s  new %7.3f s  %5.2fx  nodes %s / %s\n" "$(basename "$input" .txt)" \
    "$o" "$n" "$(awk -v o="$o" -v n="$n" 'BEGIN {print o / n}')" \
    "$(head -1 "$work/old" | cut -d' ' -f2)" "$(head -1 "$work/new" | cut -d' ' -f2)"
done
