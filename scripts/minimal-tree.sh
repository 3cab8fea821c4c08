#!/usr/bin/env bash
# The exact search's distance to the minimal tree on a fixed set of full
# solves (5x5 and 6x6, 12 to 15 empty cells, several seeds): builds the
# release binary and `examples/minimal_tree.rs` with the `counters`
# feature, writes each position with `stakeraid position`, and runs the
# example on them all (one thread; node counts, not times, so another
# process running does not change them).
#
#   scripts/minimal-tree.sh [SET]
#
# SET is `quick` (12 and 13 empty cells: seconds) or `full` (the default:
# up to 15, about 15 minutes in all and up to 9 GB of memory at 15; 16 would need more
# than this machine's 24 GB, see docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
set_name="${1:-full}"
cargo build --release --locked --quiet
cargo build --release --locked --quiet --features counters --example minimal_tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# size fill seed: the empty cells follow from them (listed for reading).
quick=(
  "5 0.44 2"   # 12
  "5 0.48 3"   # 12
  "6 0.48 4"   # 12
  "5 0.56 1"   # 13
  "5 0.56 4"   # 13
)
full=(
  "${quick[@]}"
  "5 0.38 2"   # 14
  "5 0.42 3"   # 14
  "5 0.42 5"   # 14
  "6 0.46 4"   # 14
  "6 0.5 3"    # 14
  "5 0.34 7"   # 15
  "5 0.42 1"   # 15
  "6 0.5 5"    # 15
)
case "$set_name" in
  quick) set=("${quick[@]}") ;;
  full) set=("${full[@]}") ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac
inputs=()
for spec in "${set[@]}"; do
  read -r size fill seed <<< "$spec"
  file="$work/s${size}-f${fill}-seed${seed}.txt"
  target/release/stakeraid position --size "$size" --fill "$fill" --seed "$seed" \
    --mode ALPHABETA --depth $((size * size)) -o "$file"
  inputs+=("$file")
done
target/release/examples/minimal_tree "${inputs[@]}"
