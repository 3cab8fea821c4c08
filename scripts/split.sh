#!/usr/bin/env bash
# Split solves against the direct solve, on the same inputs, run in turn
# (direct, split 1, split 2, ..., direct, ...) so that the machine's drift
# falls on all alike:
#
#   scripts/split.sh BINARY REPEAT THREADS SPLITS INPUT...
#
# SPLITS is a comma list of --split values (e.g. 1,2,3); THREADS is the
# direct solve's threads and the split solves' workers. Prints, per input
# and way, the median of REPEAT `solve --stats` times, the nodes, and both
# as ratios to the direct solve; checks that every way gives the same
# output file.
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,12p' "$0"; exit 2; }
bin="$1"; repeat="$2"; threads="$3"; splits="$4"; shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "seconds nodes" of one run; its output file is $work/out-$2.
once() {
  local way="$2"
  local extra=()
  [ "$way" = direct ] || extra=(--split "${way#split}")
  "$bin" solve "$1" -o "$work/out-$way" --stats --threads "$threads" "${extra[@]}" 2>&1 |
    sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p'
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

ways=(direct)
IFS=, read -ra list <<< "$splits"
for s in "${list[@]}"; do ways+=("split$s"); done
for input in "$@"; do
  for way in "${ways[@]}"; do : > "$work/$way"; done
  for _ in $(seq "$repeat"); do
    for way in "${ways[@]}"; do
      once "$input" "$way" >> "$work/$way"
      cmp -s "$work/out-direct" "$work/out-$way" ||
        { echo "split.sh: $way answers differently on $input" >&2; exit 1; }
    done
  done
  dt=$(cut -d' ' -f1 "$work/direct" | median)
  dn=$(cut -d' ' -f2 "$work/direct" | median)
  for way in "${ways[@]}"; do
    t=$(cut -d' ' -f1 "$work/$way" | median)
    n=$(cut -d' ' -f2 "$work/$way" | median)
    printf "%-16s %-8s %8.2f s %14.0f nodes   time %5.2fx  nodes %5.2fx\n" \
      "$(basename "$input" .txt)" "$way" "$t" "$n" \
      "$(awk -v a="$t" -v b="$dt" 'BEGIN {print a / b}')" \
      "$(awk -v a="$n" -v b="$dn" 'BEGIN {print a / b}')"
  done
done
