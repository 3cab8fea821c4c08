#!/usr/bin/env bash
# What a split solve of INPUT would take on WORKERS workers in machines of
# PER_MACHINE (each machine's workers share one table), against the direct
# one-thread solve of the same build:
#
#   scripts/scaling.sh INPUT WORKERS PER_MACHINE
#
# Runs, one after the other: the direct solve (`solve --threads 1`); the
# simulator (examples/split_speedup.rs, model in src/jobs/simulate/) on
# that cluster with the recommended settings below; and the same on
# PATH_WORKERS (default 1024) workers sharing one table, whose wall time
# stands for the critical path: more workers would not shorten it. Each
# simulation's table row goes to standard error; the last line is
#
#   workers W per-machine M speedup S work K path P%
#
# S the direct solve's time over the simulated wall time, K the nodes the
# simulated cluster searched in all over the direct solve's (the cancelled
# jobs' nodes up to their cancelling included: the cluster pays for them),
# both as the row prints them (one definition, stakeraid::jobs::Scaling),
# P the critical path over the direct solve's time; then, in brackets, why
# the position is too small for the workers where it is (fewer jobs than
# workers, or the direct solve shared among them less than a job's
# latency each), and the speedup says little of the driver. The path's
# own row says so too: its workers are meant to be too many.
# PATH_WORKERS=0 skips the path (printed as "-"). SETTINGS replaces the
# recommended settings;
# LATENCY_US (default 3400, a Ray call measured in
# profiles/2026-11-25-vm/simulator-check.txt) is each job's time outside
# its search. The simulator runs every job on this machine, jobs of
# different machines side by side, CORES at a time (default the cores):
# run nothing else meanwhile. With NODE_CLOCK=N a job takes its nodes at
# N a microsecond instead of its measured time (and the direct solve its
# nodes at the same pace): the same line whatever else runs, run after
# run, and CORES defaults to twice the cores. TABLES_GIB (default 4) is
# the memory the simulated tables may take here: past it the least
# recently used are dropped and made again, so give it a table of the
# solve's size per machine (1 GiB for 23 plies) when there are many
# machines.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,39p' "$0" >&2; exit 2; }
input="$1"; workers="$2"; per_machine="$3"
cd "$(dirname "$0")/.."
# The root's other moves tested against the first's predicted value: on
# more than one machine faster for about as much work; on one machine of
# 16 split 3 plies down, 12% slower (profiles/2026-11-28-vm/speculate.txt).
speculate=off
[ "$workers" -le "$per_machine" ] || speculate=on
recommended="3 --speculate $speculate --ahead --spare --share-nodes 1000000"
settings="${SETTINGS:-$recommended}"
latency="${LATENCY_US:-3400}"
path_workers="${PATH_WORKERS:-1024}"
# On the node clock, twice the cores' jobs at once: a paced job held at
# the clock waits for the driver's thread to let the next go, and a second
# job per core fills that wait. 21 empty cells on 256 workers in machines
# of 16 took 137 s with 2 at a time here (2 cores), 111 s with 3, 100 s
# with 4 and 98 s with 8 (profiles/2026-11-28-vm/simulator-jobs-at-once.txt).
# On the measured clock a job sharing a core would take longer.
per_core=1
[ -z "${NODE_CLOCK:-}" ] || per_core=2
cores="${CORES:-$((per_core * $(nproc)))}"
how=()
[ -z "${NODE_CLOCK:-}" ] || how=(--node-clock "$NODE_CLOCK")
[ -z "${TABLES_GIB:-}" ] || how+=(--tables-gib "$TABLES_GIB")

cargo build --release --locked --quiet --bin stakeraid --example split_speedup
bin=target/release/stakeraid
sim=target/release/examples/split_speedup

began=$SECONDS
direct=$("$bin" solve "$input" -o /dev/null --stats --threads 1 2>&1 |
  sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p')
[ -n "$direct" ] || { echo "scaling.sh: the direct solve of $input printed no stats" >&2; exit 1; }
read -r direct_s direct_nodes <<< "$direct"
[ -z "${NODE_CLOCK:-}" ] ||
  direct_s=$(awk -v n="$direct_nodes" -v r="$NODE_CLOCK" 'BEGIN {printf "%.3f", n / r / 1e6}')
echo "direct one-thread solve: $direct_nodes nodes, $direct_s s (here $((SECONDS - began)) s)" >&2

# The simulation on $1 workers, $2 to a table, against the direct solve:
# its rows and summary lines (see examples/split_speedup.rs), also sent to
# standard error.
simulate() {
  local out began=$SECONDS
  # shellcheck disable=SC2086 # the settings are words
  out=$("$sim" "$input" $settings --per-table "$2" --latency-us "$latency" \
    --cores "$cores" ${how[@]+"${how[@]}"} --direct "$direct_s:$direct_nodes" "$1")
  echo "$out" >&2
  echo "(simulated here in $((SECONDS - began)) s)" >&2
  printf '%s\n' "$out"
}

# "workers W per-machine M speedup S work K" and maybe " (why too small)".
summary=$(simulate "$workers" "$per_machine" | sed -n '/^# workers [0-9]/{s/^# //p;q}')
[ -n "$summary" ] || { echo "scaling.sh: the simulation printed no summary" >&2; exit 1; }
path="-"
if [ "$path_workers" -gt 0 ]; then
  path_s=$(simulate "$path_workers" "$path_workers" | awk '$1 ~ /^(true|false)$/ {print $3; exit}')
  path=$(awk -v p="$path_s" -v d="$direct_s" 'BEGIN {printf "%.1f%%", 100 * p / d}')
fi
counts="${summary%% (*}"
echo "$counts path $path${summary#"$counts"}"
