#!/usr/bin/env bash
# What Ctrl-C costs a stored solve: a fresh stored solve of the 21-empty
# position timed whole, then for each STOP (default 2 6 10 seconds) the
# same solve with a fresh store stopped by SIGINT after STOP seconds (it
# saves its table and seals its store before it ends) and resumed by the
# same command:
#
#   scripts/ctrl-c-resume.sh [STOP...]
#
# Each row: the stop, the seconds from the signal to the end (the save),
# the resume's time, and stop + save + resume against the fresh solve.
# A resume should never take longer than the fresh solve by more than its
# save; the last column says whether it did. Checks that every resume
# answers as the fresh solve. BIN names the binary (default: built here,
# target/release/stakeraid), THREADS the solve's threads (default 0, one
# per core), POSITION the arguments of `stakeraid position` (default the
# 21-empty position: --size 5 --fill 0.16 --seed 3 --depth 25). RECORD
# names the file the table also goes to (default
# profiles/2026-11-28-vm/ctrl-c-resume.txt; "-" for none). Run nothing
# else meanwhile: the times are wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
stops=("$@")
[ ${#stops[@]} -gt 0 ] || stops=(2 6 10)
for s in "${stops[@]}"; do
  [[ "$s" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { sed -n '2,20p' "$0" >&2; exit 2; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet --bin stakeraid
  bin=$PWD/target/release/stakeraid
else
  bin=$BIN
fi
threads="${THREADS:-0}"
read -r -a position <<< "${POSITION:---size 5 --fill 0.16 --seed 3 --depth 25}"
record="${RECORD:-profiles/2026-11-28-vm/ctrl-c-resume.txt}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.2f", b - a}'; }
out() { if [ "$record" = - ]; then cat; else tee -a "$record"; fi; }
[ "$record" = - ] || : > "$record"

"$bin" position "${position[@]}" -o "$work/input.txt"
solve=("$bin" solve "$work/input.txt" --threads "$threads")
{
  echo "# scripts/ctrl-c-resume.sh ${stops[*]} at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, threads $threads"
  echo "# position: stakeraid position ${position[*]}"
} | out

start=$(now)
"${solve[@]}" -o "$work/fresh.txt" --store "$work/fresh.db" --stats 2> "$work/fresh.stats"
fresh=$(since "$start")
echo "fresh stored solve: $fresh s  $(tr '\n' ' ' < "$work/fresh.stats")" | out
echo "stop_s  save_s  resume_s  total_s  total/fresh  resume<=fresh+save" | out

for stop in "${stops[@]}"; do
  db="$work/stop-$stop.db"
  # A command, not a function: the signal must reach the solve itself.
  "${solve[@]}" -o "$work/stopped.txt" --store "$db" 2> "$work/stop.err" &
  pid=$!
  sleep "$stop"
  signalled=$(now)
  if ! kill -INT "$pid" 2> /dev/null; then
    wait "$pid" || true
    echo "$stop  the solve ended before its signal: nothing to resume" | out
    continue
  fi
  wait "$pid" || true
  save=$(since "$signalled")
  [ ! -e "$work/stopped.txt" ] ||
    { echo "ctrl-c-resume.sh: a stopped solve wrote its output" >&2; exit 1; }
  echo "# stopped at $stop s: $(cat "$work/stop.err")" | out
  start=$(now)
  "${solve[@]}" -o "$work/resumed.txt" --store "$db" --stats 2> "$work/resume.stats"
  resume=$(since "$start")
  cmp -s "$work/fresh.txt" "$work/resumed.txt" ||
    { echo "ctrl-c-resume.sh: the resume after $stop s answers differently" >&2; exit 1; }
  echo "# resumed: $(tr '\n' ' ' < "$work/resume.stats")" | out
  awk -v s="$stop" -v v="$save" -v r="$resume" -v f="$fresh" 'BEGIN {
    t = s + v + r
    printf "%6s  %6.2f  %8.2f  %7.2f  %10.2fx  %s\n", s, v, r, t, t / f, (r <= f + v ? "yes" : "NO")
  }' | out
done
