#!/usr/bin/env bash
# Deep exact solving, an older build against this tree, in one run: each
# workload runs REPEAT times on this tree (median wall time, nodes, rate)
# and once on the old build, just before the first new run.
#
#   scripts/deep.sh OLD_BINARY [--repeat K] [--record]
#
# Workloads (inputs made with `stakeraid position`):
#   5x5, 19 empty cells (the seeds of --fill 0.24 in 1..30 that give 19),
#     full solve (ALPHABETA, depth 19), 2 threads and 1 thread;
#   ALPHABETA 8x8 half filled, depth 11, 1 thread;
#   ALPHABETA empty 26x26, depth 6, 1 thread;
#   MINIMAX 8x8 half filled, depth 6, 2 threads.
# --record keeps the table in profiles/<date>-vm/deep.txt. The old binary
# gets at most OLD_TIMEOUT seconds per run (default 120).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,16p' "$0"; exit 2; }
old="$(realpath "$1")"; shift
repeat=3
record=0
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift ;;
    --record) record=1 ;;
    *) echo "deep.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
cargo build --release --locked --quiet
new=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
old_timeout="${OLD_TIMEOUT:-120}"

# name size fill seed mode depth threads old-too
workloads() {
  for s in 3 5 9 10 13 16 20 27; do echo "e19-s$s 5 0.24 $s ALPHABETA 19 2 yes"; done
  for s in 3 9 13; do echo "e19-s$s-1t 5 0.24 $s ALPHABETA 19 1 no"; done
  echo "ab8-d11 8 0.5 3 ALPHABETA 11 1 yes"
  echo "e26-d6 26 0 3 ALPHABETA 6 1 yes"
  echo "mm8-d6 8 0.5 3 MINIMAX 6 2 yes"
}

# One run: "nodes seconds move" or "timeout".
once() {
  local bin="$1" input="$2" threads="$3" limit="$4" err="$work/err"
  if timeout "$limit" "$bin" solve "$input" -o /dev/null --stats --threads "$threads" 2> "$err"; then
    sed 's/^move \([A-Z0-9]*\) \([A-Za-z]*\) .* nodes \([0-9]*\) *time \([0-9.]*\)s.*/\3 \4 \1_\2/' "$err"
  else
    echo timeout
  fi
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

table="$work/table"
printf "%-12s %3s  %-9s %12s %9s  %-9s %12s %9s %8s  %7s\n" workload thr old-move old-nodes old-s new-move new-nodes new-s Mnodes/s speedup > "$table"
workloads | while read -r name size fill seed mode depth threads compare; do
  input="$work/$name.txt"
  "$new" position --size "$size" --fill "$fill" --seed "$seed" --mode "$mode" --depth "$depth" -o "$input"
  : > "$work/old.t"; : > "$work/new.t"
  on=-; om=-
  for k in $(seq "$repeat"); do
    # The old build runs once per workload (its times are long and its
    # node count is fixed), first, and not at all on single-thread rows.
    if [ "$compare" = yes ] && [ "$k" = 1 ]; then
      read -r on ot om < <(once "$old" "$input" "$threads" "$old_timeout")
      [ "$on" = timeout ] && ot="$old_timeout" && om="-"
      echo "$ot" >> "$work/old.t"
    fi
    read -r nn nt nm < <(once "$new" "$input" "$threads" 600)
    echo "$nt" >> "$work/new.t"
  done
  nmed=$(median < "$work/new.t")
  omed=-; speed=-
  if [ "$compare" = yes ]; then
    omed=$(median < "$work/old.t")
    speed=$(awk -v o="$omed" -v t="$nmed" 'BEGIN {printf "%.1fx", o / t}')
    [ "$on" = timeout ] && omed=">$old_timeout" && speed=">$speed"
  fi
  rate=$(awk -v n="$nn" -v t="$nmed" 'BEGIN {printf "%.1f", n / t / 1e6}')
  printf "%-12s %3s  %-9s %12s %9s  %-9s %12s %9s %8s  %7s\n" "$name" "$threads" "$om" "$on" "$omed" "$nm" "$nn" "$nmed" "$rate" "$speed" | tee -a "$table"
done
median19=$(awk '$1 ~ /^e19-s[0-9]+$/ {print $8}' "$table" | median)
echo "median new time over the 19-empty 2-thread solves: ${median19}s"
if [ "$record" = 1 ]; then
  dir="profiles/$(date +%F)-vm"
  mkdir -p "$dir"
  {
    echo "# scripts/deep.sh $(basename "$old") --repeat $repeat --record at $(git rev-parse --short HEAD), $(date -u +%FT%TZ), $(nproc) cores"
    echo "# old: $old ($("$old" --version 2>/dev/null || echo unknown)), one run; new: this tree, median wall seconds of $repeat runs;"
    echo "# nodes from --stats (each engine counts its own way: positions searched); Mnodes/s is the new engine's."
    cat "$table"
    echo "median new time over the 19-empty 2-thread solves: ${median19}s"
  } > "$dir/deep.txt"
  echo "recorded in $dir/deep.txt"
fi
