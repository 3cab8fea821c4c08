#!/usr/bin/env bash
# What killing a stored solve costs: one uninterrupted solve with a fresh
# store, then the same solve with another fresh store killed (SIGKILL) KILLS
# times and resumed after each kill by the same command:
#
#   scripts/resume.sh BINARY THREADS KILLS INPUT [SEED [SOLVE-OPTION...]]
#
# The kills come at KILLS moments drawn from SEED between 10% and 90% of
# the uninterrupted time: leg k runs for the time between moment k-1 and
# moment k, as long as an uninterrupted solve takes to get from one to the
# next, so a resume that lost nothing is killed every time. Prints every leg's wall time, the total against
# the uninterrupted time, and checks that both output files are the same.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,12p' "$0"; exit 2; }
bin="$1"; threads="$2"; kills="$3"; input="$4"; seed="${5:-1}"
extra=("${@:6}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.1f", b - a}'; }
# A command, not a function: started in the background, a function runs in
# a subshell, and a kill would reach the subshell and leave the solve running.
solve=("$bin" solve "$input" --threads "$threads" "${extra[@]}")

start=$(now)
"${solve[@]}" -o "$work/whole.txt" --store "$work/whole.db" --stats 2> "$work/whole.stats"
whole=$(since "$start")
echo "uninterrupted: ${whole} s  $(tr "\n" " " < "$work/whole.stats")"

RANDOM=$seed
# Drawn in this shell: a subshell draws from a freshly seeded generator.
draws=""
for _ in $(seq "$kills"); do draws="$draws $RANDOM"; done
moments=$(for r in $draws; do
  awk -v t="$whole" -v r="$r" 'BEGIN {printf "%.1f\n", t * (0.1 + 0.8 * r / 32767)}'
done | sort -n | tr '\n' ' ')
echo "kills at ${moments}s of the uninterrupted solve"
total=0
killed=0
finished=""
previous=0
leg=0
for moment in $moments; do
  leg=$((leg + 1))
  after=$(awk -v a="$moment" -v b="$previous" 'BEGIN {printf "%.1f", a - b}')
  previous=$moment
  start=$(now)
  "${solve[@]}" -o "$work/killed.txt" --store "$work/killed.db" 2> /dev/null &
  pid=$!
  # Sleep in short steps, so that a leg that finishes first is timed.
  deadline=$(awk -v a="$(now)" -v b="$after" 'BEGIN {printf "%.3f", a + b}')
  while kill -0 "$pid" 2> /dev/null && awk -v d="$deadline" -v t="$(now)" 'BEGIN {exit !(t < d)}'; do
    sleep 0.1
  done
  if kill -KILL "$pid" 2> /dev/null; then
    wait "$pid" || true
    took=$(since "$start")
    total=$(awk -v a="$total" -v b="$took" 'BEGIN {print a + b}')
    killed=$((killed + 1))
    echo "leg $leg: killed after ${took} s"
  else
    wait "$pid"
    took=$(since "$start")
    total=$(awk -v a="$total" -v b="$took" 'BEGIN {print a + b}')
    finished=yes
    echo "leg $leg: finished after ${took} s, before its kill at ${after} s"
    break
  fi
done
if [ -z "$finished" ]; then
  start=$(now)
  "${solve[@]}" -o "$work/killed.txt" --store "$work/killed.db" --stats 2> "$work/last.stats"
  took=$(since "$start")
  total=$(awk -v a="$total" -v b="$took" 'BEGIN {print a + b}')
  echo "last leg: ${took} s  $(tr "\n" " " < "$work/last.stats")"
fi
! pgrep -f "$work/killed.db" > /dev/null ||
  { echo "resume.sh: a killed leg is still running" >&2; exit 1; }
cmp -s "$work/whole.txt" "$work/killed.txt" ||
  { echo "resume.sh: the resumed solve answers differently" >&2; exit 1; }
awk -v t="$total" -v w="$whole" -v k="$killed" \
  'BEGIN {printf "killed %d times: %.1f s in all, %.2fx the uninterrupted %.1f s; same answer\n", k, t, t / w, w}'
