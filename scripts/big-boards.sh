#!/usr/bin/env bash
# Endgames of every board size, an older build against this tree in one
# run: one thread, `solve --stats`, the median of REPEAT runs of each
# (the old build once, cut off at OLD_TIMEOUT seconds, default 60).
#
#   scripts/big-boards.sh OLD_BINARY [--repeat K] [--rows issue|all] [--record]
#
# Positions: `stakeraid position --size N --fill (1 - E/N^2) --seed S
# --mode ALPHABETA --depth 40`, S the first seed from 1 that gives exactly
# E empty cells (the rows of the large-board table in docs/deep-solves.md
# name theirs). --rows issue (the default) runs the table's rows: 17 empty
# cells on 5x5 to 26x26 and 20 on 5x5, 14x14 and 26x26; --rows all adds
# boards 5 to 26 at 16 to 24 empty cells (the old build cut off sooner,
# OLD_TIMEOUT_ALL, default 20). Columns: the region's cells (the empty
# cells and their neighbours), each build's median seconds and nodes,
# and old / new. --record keeps the table in profiles/<date>-vm/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
old="$(realpath "$1")"; shift
repeat=3
rows=issue
record=0
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift ;;
    --rows) rows="$2"; shift ;;
    --record) record=1 ;;
    *) echo "big-boards.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
. scripts/solve-times.sh
cargo build --release --locked --quiet
new=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() {
  local n=$1 e=$2 limit=$3 seed file old_t old_n times nodes t
  read -r seed file < <(endgame "$new" "$work" "$n" "$e")
  if out=$(timeout "$limit" "$old" solve "$file" -o /dev/null --stats --threads 1 2>&1); then
    read -r old_t old_n < <(echo "$out" | sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p')
  else
    old_t=">$limit" old_n=-
  fi
  times=()
  for _ in $(seq "$repeat"); do
    read -r t nodes < <(solve_once "$new" "$file" 1)
    times+=("$t")
  done
  t=$(printf '%s\n' "${times[@]}" | median)
  ratio=$(awk -v a="${old_t#>}" -v b="$t" -v cut="${old_t:0:1}" 'BEGIN {printf "%s%.1f", (cut == ">") ? ">" : "", a / b}')
  printf '%5s %5s %5s %6s | %9s %11s | %8s %11s | %7s\n' "${n}x$n" "$e" "$seed" "$(region_cells "$n" "$file")" \
    "$old_t" "$old_n" "$t" "$nodes" "$ratio"
}

{
  echo "# scripts/big-boards.sh $old --repeat $repeat --rows $rows   ($(date -u +%F), $(nproc) cores)"
  echo "# old: $("$old" --version 2>/dev/null | head -1), new: $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)"
  printf '%5s %5s %5s %6s | %9s %11s | %8s %11s | %7s\n' board empty seed region "old s" "old nodes" "new s" "new nodes" "old/new"
  for n in 5 6 8 10 14 20 26; do row "$n" 17 "${OLD_TIMEOUT:-60}"; done
  for n in 5 14 26; do row "$n" 20 "${OLD_TIMEOUT:-60}"; done
  if [ "$rows" = all ]; then
    for e in 16 18 22 24; do
      for n in 5 6 8 10 14 20 26; do row "$n" "$e" "${OLD_TIMEOUT_ALL:-20}"; done
    done
  fi
} | tee "$work/table.txt"
# The geometric mean of old / new over the 17-empty rows of boards past
# 64 cells (those the old build left to its general engine), and over
# those of 5x5 to 8x8, where both builds run the compact engine.
awk -F'|' '$1 ~ / 17 / && $4 !~ />/ {split($1, b, "x"); split($4, a, " ")
    big = b[1] + 0 > 8; s[big] += log(a[1]); k[big]++}
  END {printf "geometric mean old/new, 17 empty: %.1f on 10x10 to 26x26 (%d boards), %.2f on 5x5 to 8x8 (%d)\n",
    exp(s[1] / k[1]), k[1], exp(s[0] / k[0]), k[0]}' "$work/table.txt" | tee -a "$work/table.txt"
if [ "$record" = 1 ]; then
  dir="profiles/$(date -u +%F)-vm"
  mkdir -p "$dir"
  cp "$work/table.txt" "$dir/big-boards.txt"
  echo "recorded in $dir/big-boards.txt"
fi
