#!/usr/bin/env bash
# The largest endgames solved within a time limit: for each board side,
# positions of 18, 19, ... empty cells (`stakeraid position`, the first
# seed from 1 that gives each, ALPHABETA to the end), each solved with
# `solve --stats --threads T`, until one takes longer than the limit.
#
#   scripts/largest-endgame.sh [--sizes "14 20 26"] [--threads 2] [--limit 60] [--from 18] [--record]
#
# --record keeps the table in profiles/<date>-vm/largest-endgame.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="14 20 26" threads=2 limit=60 from=18 record=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --limit) limit="$2"; shift ;;
    --from) from="$2"; shift ;;
    --record) record=1 ;;
    *) echo "largest-endgame.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
. scripts/solve-times.sh
cargo build --release --locked --quiet
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "# scripts/largest-endgame.sh --sizes \"$sizes\" --threads $threads --limit $limit   ($(git rev-parse --short HEAD)$(git diff --quiet || echo +changes), $(date -u +%F), $(nproc) cores)"
  printf '%5s %5s %5s %6s | %8s %12s %9s\n' board empty seed region seconds nodes "Mnodes/s"
  for n in $sizes; do
    e=$from
    while :; do
      read -r seed file < <(endgame "$bin" "$work" "$n" "$e")
      if ! out=$(timeout "$limit" "$bin" solve "$file" -o /dev/null --stats --threads "$threads" 2>&1); then
        printf '%5s %5s %5s %6s | %8s\n' "${n}x$n" "$e" "$seed" "$(region_cells "$n" "$file")" ">$limit"
        break
      fi
      read -r t nodes < <(echo "$out" | sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p')
      printf '%5s %5s %5s %6s | %8s %12s %9.1f\n' "${n}x$n" "$e" "$seed" "$(region_cells "$n" "$file")" \
        "$t" "$nodes" "$(awk -v a="$nodes" -v b="$t" 'BEGIN {print a / b / 1e6}')"
      e=$((e + 1))
    done
  done
} | tee "$work/table.txt"
if [ "$record" = 1 ]; then
  dir="profiles/$(date -u +%F)-vm"
  mkdir -p "$dir"
  cp "$work/table.txt" "$dir/largest-endgame.txt"
  echo "recorded in $dir/largest-endgame.txt"
fi
