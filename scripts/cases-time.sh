#!/usr/bin/env bash
# Two builds over every golden case, alternately (old, new, old, ...):
#
#   scripts/cases-time.sh OLD_BINARY NEW_BINARY REPEAT [CASES_DIR]
#
# Each round runs `solve INPUT -o OUT` on every case, one process each,
# and checks OUT against the case's output.txt (line ends and a missing
# final newline aside). Prints each round's wall time, the median of each
# build and their ratio (old / new). CASES_DIR defaults to ../shared/cases.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,9p' "$0"; exit 2; }
old="$1"; new="$2"; repeat="$3"; cases="${4:-$(dirname "$0")/../../shared/cases}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds for one pass of BINARY over the cases; a wrong answer is fatal.
pass() {
  local start end
  start=$(date +%s.%N)
  for dir in "$cases"/*/; do
    "$1" solve "$dir/input.txt" -o "$work/out.txt"
    # The cases' files may lack the final newline or end lines with CRLF.
    cmp -s "$work/out.txt" <(tr -d '\r' < "$dir/output.txt" | sed -e '$a\') ||
      { echo "cases-time.sh: $1 differs on $dir" >&2; exit 1; }
  done
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f\n", e - s}'
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

: > "$work/old"; : > "$work/new"
for round in $(seq "$repeat"); do
  o=$(pass "$old"); n=$(pass "$new")
  echo "round $round: old $o s  new $n s"
  echo "$o" >> "$work/old"; echo "$n" >> "$work/new"
done
o=$(median < "$work/old"); n=$(median < "$work/new")
printf "cases %d  old %.3f s  new %.3f s  %.2fx\n" "$(ls -d "$cases"/*/ | wc -l)" "$o" "$n" \
  "$(awk -v o="$o" -v n="$n" 'BEGIN {print o / n}')"
