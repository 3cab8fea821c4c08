#!/usr/bin/env bash
# Two builds at one and two threads on the same inputs, run alternately
# (old 1, new 1, old 2, new 2, old 1, ...) so that the machine's drift
# falls on all four alike:
#
#   scripts/threads.sh OLD_BINARY NEW_BINARY REPEAT INPUT...
#
# Prints, per input and build, the median of REPEAT `solve --stats` times
# at 1 and 2 threads, the speedup of 2 threads over 1 and the nodes of 2
# threads over 1; then the 1-thread ratio old / new.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,10p' "$0"; exit 2; }
old="$1"; new="$2"; repeat="$3"; shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/solve-times.sh"

for input in "$@"; do
  name=$(basename "$input" .txt)
  for b in old new; do for t in 1 2; do : > "$work/$b$t"; done; done
  for _ in $(seq "$repeat"); do
    for t in 1 2; do
      solve_once "$old" "$input" "$t" >> "$work/old$t"
      solve_once "$new" "$input" "$t" >> "$work/new$t"
    done
  done
  for b in old new; do
    t1=$(cut -d' ' -f1 "$work/${b}1" | median)
    t2=$(cut -d' ' -f1 "$work/${b}2" | median)
    n1=$(cut -d' ' -f2 "$work/${b}1" | median)
    n2=$(cut -d' ' -f2 "$work/${b}2" | median)
    printf "%-8s %s  1 thread %7.3f s %11d nodes  2 threads %7.3f s %11d nodes  speedup %5.2fx  nodes %5.3fx\n" \
      "$name" "$b" "$t1" "$n1" "$t2" "$n2" \
      "$(awk -v a="$t1" -v b="$t2" 'BEGIN {print a / b}')" \
      "$(awk -v a="$n2" -v b="$n1" 'BEGIN {print a / b}')"
    echo "$t1" > "$work/${b}t1"
  done
  printf "%-8s 1 thread old / new %5.3fx\n" "$name" \
    "$(awk -v a="$(cat "$work/oldt1")" -v b="$(cat "$work/newt1")" 'BEGIN {print a / b}')"
done
