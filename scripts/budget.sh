#!/usr/bin/env bash
# Plays the competition engine under budgets from 1 to 30 CPU seconds per
# game (200 games in all, board sizes 4 to 26) and prints each match's
# report, whose "max per game" line must stay under the budget.
#
#   scripts/budget.sh [--threads N]
#
# The opponent is the greedy agent, which costs next to nothing, so the
# run takes about as long as the budgets add up to (some 15 CPU minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

threads=0
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="$2"; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "budget.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

cargo build --release --quiet
bin=target/release/stakeraid

# budget per game, boards (each played twice), sizes
plan="1 40 4..10
2 20 6..10
3 20 8..12
10 15 10..16
30 5 12..26"

over=0
while read -r budget boards sizes; do
  echo "== comp:$budget against greedy, $((2 * boards)) games, sizes $sizes"
  report=$("$bin" match "comp:$budget" greedy --boards "$boards" --size "$sizes" \
    --seed "$budget" --threads "$threads")
  echo "$report"
  # "A: cpu per move ...  max per move Xs  max per game Ys"
  worst=$(echo "$report" | awk '/^A:/ { sub("s$", "", $NF); print $NF }')
  if awk -v w="$worst" -v b="$budget" 'BEGIN { exit !(w > b) }'; then
    echo "OVER BUDGET: $worst s > $budget s"
    over=1
  fi
done <<< "$plan"
exit "$over"
