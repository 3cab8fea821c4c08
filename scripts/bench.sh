#!/usr/bin/env bash
# Runs the workloads of profiles/workloads.txt through the release binary and
# prints one table: workload, engine, threads, nodes, median time, Mnodes/s,
# speedup vs 1 thread, ratio vs the reference engine.
#
#   scripts/bench.sh [--record] [--repeat K] [--workloads FILE]
#
# --record also keeps the run as profiles/<date>-<machine>/ (command,
# versions, raw CSV, summary). The reference engine runs once per workload,
# single-threaded, and is cut off after REFERENCE_TIMEOUT seconds (default 15).
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=5
workloads=profiles/workloads.txt
record=0
while [ $# -gt 0 ]; do
  case "$1" in
    --record) record=1 ;;
    --repeat) repeat="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
ref_timeout="${REFERENCE_TIMEOUT:-15}"

# CARGO_BUILD_ARGS, e.g. "--no-default-features", builds another variant.
cargo build --release --quiet ${CARGO_BUILD_ARGS:-}
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv="$work/raw.csv"
echo "workload,engine,threads,run,nodes,seconds,move" > "$csv"

# One solve: prints "nodes seconds move" from --stats, or "timeout".
solve_once() {
  local input="$1" engine="$2" threads="$3" limit="$4" err
  err="$work/err"
  if timeout "$limit" "$bin" solve "$input" -o /dev/null --stats --engine "$engine" --threads "$threads" 2> "$err"; then
    awk '{for (i = 1; i <= NF; i++) { if ($i == "nodes") n = $(i+1); if ($i == "time") t = $(i+1); }
          sub("s$", "", t); print n, t, $2 "_" $3}' "$err"
  else
    echo timeout
  fi
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

grep -v '^[[:space:]]*#' "$workloads" | while read -r name size fill max seed player mode depth threads _; do
  [ -n "${name:-}" ] || continue
  input="$work/$name.txt"
  "$bin" position --size "$size" --fill "$fill" --max-value "$max" --seed "$seed" \
    --player "$player" --mode "$(echo "$mode" | tr a-z A-Z)" --depth "$depth" -o "$input"
  for t in ${threads//,/ }; do
    for k in $(seq "$repeat"); do
      read -r nodes secs mv < <(solve_once "$input" fast "$t" 600)
      echo "$name,fast,$t,$k,$nodes,$secs,$mv" >> "$csv"
    done
  done
  out=$(solve_once "$input" reference 1 "$ref_timeout")
  if [ "$out" = timeout ]; then
    echo "$name,reference,1,1,,>$ref_timeout," >> "$csv"
  else
    read -r nodes secs mv <<< "$out"
    echo "$name,reference,1,1,$nodes,$secs,$mv" >> "$csv"
  fi
done

summary="$work/summary.txt"
{
  printf '%-16s %-9s %7s %14s %11s %10s %8s %9s\n' workload engine threads nodes median_s Mnodes/s speedup vs_ref
  for name in $(tail -n +2 "$csv" | cut -d, -f1 | uniq); do
    ref=$(grep "^$name,reference," "$csv" | cut -d, -f6)
    base=""
    for t in $(grep "^$name,fast," "$csv" | cut -d, -f3 | uniq); do
      rows=$(grep "^$name,fast,$t," "$csv")
      nodes=$(echo "$rows" | cut -d, -f5 | median)
      med=$(echo "$rows" | cut -d, -f6 | median)
      [ -n "$base" ] || base=$med
      speed=$(awk -v a="$base" -v b="$med" 'BEGIN {printf "%.2fx", a / b}')
      rate=$(awk -v n="$nodes" -v s="$med" 'BEGIN {printf "%.1f", n / s / 1e6}')
      vsref=$(awk -v r="$ref" -v s="$med" 'BEGIN {if (r ~ /^>/) printf "%s", ">" int(substr(r, 2) / s) "x"; else printf "%.1fx", r / s}')
      printf '%-16s %-9s %7s %14s %11s %10s %8s %9s\n' "$name" fast "$t" "$nodes" "$med" "$rate" "$speed" "$vsref"
    done
    refnodes=$(grep "^$name,reference," "$csv" | cut -d, -f5)
    printf '%-16s %-9s %7s %14s %11s %10s %8s %9s\n' "$name" reference 1 "${refnodes:--}" "$ref" "-" "-" "1.0x"
  done
} > "$summary"
cat "$summary"

if [ "$record" = 1 ]; then
  dir="profiles/$(date +%Y-%m-%d)-$(hostname -s)"
  mkdir -p "$dir"
  cp "$csv" "$dir/raw.csv"
  cp "$summary" "$dir/summary.txt"
  cp "$workloads" "$dir/workloads.txt"
  {
    echo "command: scripts/bench.sh --record --repeat $repeat --workloads $workloads"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "rustc: $(rustc --version)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "cores: $(nproc)"
    echo "signature: $("$bin" bench)"
  } > "$dir/command.txt"
  echo "recorded in $dir"
fi
