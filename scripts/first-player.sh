#!/usr/bin/env bash
# The exact value for the first player (X) of every board a match plays,
# found by full solves: what perfect play on both sides gives, the ceiling
# against which a match's results as X and as O can be read.
#
#   scripts/first-player.sh SIZE BOARDS [SEED]
#
# `stakeraid match A B --size SIZE --boards BOARDS --seed SEED` (empty
# boards, values 1..99) plays board k with seed SEED+k; this prints one
# line per board, "seed value", then how many boards each side wins.
# Boards of up to 16 cells solve in milliseconds; 5x5 (25 cells) takes an
# hour or more per board on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,12p' "$0"; exit 2; }
size="$1"; boards="$2"; seed="${3:-1}"
cargo build --release --locked --quiet
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cells=$((size * size))
x=0; o=0; even=0
for ((k = 0; k < boards; k++)); do
  s=$((seed + k))
  "$bin" position --size "$size" --fill 0 --seed "$s" --mode ALPHABETA --depth "$cells" \
    -o "$work/input.txt"
  # --stats prints "move C3 Stake  value V  nodes ..." on standard error.
  v=$("$bin" solve "$work/input.txt" -o /dev/null --stats 2>&1 >/dev/null |
    awk '{for (i = 1; i < NF; i++) if ($i == "value") print $(i + 1)}')
  echo "$s $v"
  if ((v > 0)); then x=$((x + 1)); elif ((v < 0)); then o=$((o + 1)); else even=$((even + 1)); fi
done
echo "X wins $x, O wins $o, even $even (of $boards boards, ${size}x${size}, perfect play)"
