#!/usr/bin/env bash
# A CPU profile of one workload of profiles/workloads.txt (or any input file):
#
#   scripts/profile.sh WORKLOAD [THREADS]     e.g. scripts/profile.sh ab-mid8-d10 1
#   scripts/profile.sh path/to/input.txt [THREADS]
#
# Uses `perf record` + `perf report` when perf works on this machine, and
# falls back to valgrind's callgrind (instruction counts, repeatable under
# load) otherwise. Builds with the `profiling` profile (release + debug info).
# Reports go to target/profile/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,10p' "$0"; exit 2; }
what="$1"
threads="${2:-1}"

cargo build --profile profiling --quiet
bin=target/profiling/stakeraid
out=target/profile
mkdir -p "$out"

if [ -f "$what" ]; then
  input="$what"
else
  line=$(grep -E "^$what[[:space:]]" profiles/workloads.txt) || { echo "no workload $what" >&2; exit 2; }
  read -r name size fill max seed player mode depth _ <<< "$line"
  input="$out/$name.txt"
  "$bin" position --size "$size" --fill "$fill" --max-value "$max" --seed "$seed" \
    --player "$player" --mode "$(echo "$mode" | tr a-z A-Z)" --depth "$depth" -o "$input"
fi

if command -v perf > /dev/null && perf stat -e instructions true > /dev/null 2>&1; then
  perf record -g -o "$out/perf.data" "$bin" solve "$input" -o /dev/null --stats --threads "$threads"
  perf report -i "$out/perf.data" --stdio --no-children --percent-limit 1 > "$out/report.txt"
  echo "perf report in $out/report.txt"
elif command -v valgrind > /dev/null; then
  valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
    "$bin" solve "$input" -o /dev/null --stats --threads "$threads"
  callgrind_annotate "$out/callgrind.out" > "$out/report.txt"
  echo "callgrind report in $out/report.txt"
else
  echo "profile.sh: needs perf (apt-get install linux-perf) or valgrind" >&2
  exit 2
fi
head -40 "$out/report.txt"
