#!/usr/bin/env bash
# What `stakeraid grade --class` costs against grading the same class one
# submission at a time, on two classes:
#   failing: 19 submission folders (the zoo of tests/grade-zoo/ with its bug
#     programs, its programs with bugs no model has and its honest
#     variants, doubled where needed, a crash and a folder with no
#     program): every one with failures is diagnosed and shrunk;
#   passing: 10 folders of the zoo's correct program, all scoring 100;
# each graded
#   (a) with one `grade --class` command, and
#   (b) with one `grade` command per folder, in a shell loop,
# both on the default 50 cases (seed 1, 10 s time limit), two jobs; then
# (c) the failing class stopped by SIGINT once a third of it is done and
# resumed by the same command, its gradebook compared with (a)'s.
#
# No endless program is in the timed classes: its 50 cases cost 500 CPU
# seconds (10 s each), both cores busy in either way of grading, the same
# wall time in (a) and (b), and nothing to overlap.
#
#   scripts/class-time.sh [OUT]
#
# Each wall time comes with the CPU seconds spent in it, and the failing
# class with the most any overlapping could give: the loop's wall time
# over the class's CPU time spread on every core (STOP=0 leaves out (c)).
#
# BIN takes another build than target/release/stakeraid; CASES fewer cases
# (`BIN=target/debug/stakeraid CASES=4` checks the script quickly). OUT
# (default: standard output) receives the times with the exact commands,
# the build and the machine. Take the numbers on a quiet machine
# (no build beside it).
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-/dev/stdout}"
build="$(git rev-parse --short HEAD)$(git diff --quiet -- . ':!profiles' || echo '+changes')"
python="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
. scripts/binary.sh
cases="${CASES:-50}"
zoo="$PWD/tests/grade-zoo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The failing class: 17 zoo folders, named as course exports name them.
failing="$work/failing"
i=1000
for p in student root_ge raids_first alphabeta_short leaf_for_mover piece_one \
  diagonal_raid wrong_column minimax_always strict_cuts student root_ge \
  leaf_for_mover piece_one alphabeta_short minimax_always raids_first; do
  i=$((i + 1))
  d="$failing/Student, $p $i"
  mkdir -p "$d"
  cp "$zoo/student.py" "$d/"
  cp "$zoo/$p.py" "$d/homework.py"
done
mkdir -p "$failing/crash_2001" "$failing/no program_2003"
echo 'raise SystemExit("boom")' > "$failing/crash_2001/homework.py"

# The passing class: the zoo's correct program, 10 times.
passing="$work/passing"
for i in $(seq 3001 3010); do
  d="$passing/Student, passing $i"
  mkdir -p "$d"
  cp "$zoo/student.py" "$d/"
  cp "$zoo/student.py" "$d/homework.py"
done

now() { date +%s.%N; }
args=(--cases "$cases" --jobs 2)
program=(-- "$python" -B homework.py)

# Seconds (a) and (b) take on CLASS, graded into OUT, each wall-clock and
# CPU (user and system, of the grader and every program it ran):
# "CLASS_S CLASS_CPU_S LOOP_S LOOP_CPU_S".
class_and_loop() {
  local class=$1 into=$2 TIMEFORMAT='%R %U %S' a b
  a=$( { time "$bin" grade --class "$class" --class-out "$into" "${args[@]}" "${program[@]}" \
    > /dev/null 2> "$into.err"; } 2>&1)
  b=$( { time (for d in "$class"/*/; do
    (cd "$d" && "$bin" grade "${args[@]}" "${program[@]}" > /dev/null 2>&1 || true)
  done); } 2>&1)
  echo "$a $b" | awk '{ print $1, $2 + $3, $4, $5 + $6 }'
}

read -r fail_class fail_class_cpu fail_loop fail_loop_cpu < <(class_and_loop "$failing" "$work/a")
read -r pass_class pass_class_cpu pass_loop pass_loop_cpu < <(class_and_loop "$passing" "$work/p")

# (c) stopped once a third of the students are done, then resumed (not
# with STOP=0, to keep the timing short).
status=- kept=- partial=- same=-
if [[ "${STOP:-1}" != 0 ]]; then
"$bin" grade --class "$failing" --class-out "$work/c" "${args[@]}" "${program[@]}" \
  > /dev/null 2> "$work/c.err" &
pid=$!
while [[ $(ls "$work/c/reports" 2>/dev/null | grep -c '\.row\.json$' || true) -lt 7 ]] \
  && kill -0 "$pid" 2>/dev/null; do
  sleep 0.2
done
kill -INT "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
kept=$(ls "$work/c/reports" | grep -c '\.row\.json$' || true)
partial=$([[ -e "$work/c/gradebook.partial.csv" && ! -e "$work/c/gradebook.csv" ]] \
  && echo yes || echo no)
"$bin" grade --class "$failing" --class-out "$work/c" "${args[@]}" "${program[@]}" \
  > /dev/null 2>&1
same=$(cmp -s "$work/a/gradebook.csv" "$work/c/gradebook.csv" && echo yes || echo no)
fi

ratio() { echo "scale=2; $1 / $2" | bc -l; }
{
  echo "# stakeraid grade --class against one grade run per folder, on a class with failures"
  echo "# (19 folders) and a class that all pass (10 folders), $cases cases"
  echo "# build $build; $(uname -srm); $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# (a) $bin grade --class CLASS --class-out A ${args[*]} ${program[*]}"
  echo "# (b) for each folder: cd FOLDER && $bin grade ${args[*]} ${program[*]}"
  echo "failing_class_wall_s $fail_class"
  echo "failing_class_cpu_s $fail_class_cpu"
  echo "failing_loop_wall_s $fail_loop"
  echo "failing_loop_cpu_s $fail_loop_cpu"
  echo "failing_loop_over_class $(ratio "$fail_loop" "$fail_class")"
  echo "failing_class_cores_busy $(ratio "$fail_class_cpu" "$fail_class")"
  echo "failing_loop_over_class_on_busy_cores $(ratio "$fail_loop" "$(ratio "$fail_class_cpu" "$(nproc)")")"
  echo "passing_class_wall_s $pass_class"
  echo "passing_class_cpu_s $pass_class_cpu"
  echo "passing_loop_wall_s $pass_loop"
  echo "passing_loop_cpu_s $pass_loop_cpu"
  echo "passing_loop_over_class $(ratio "$pass_loop" "$pass_class")"
  echo "gradebook_rows $(($(wc -l < "$work/a/gradebook.csv") - 1))"
  echo "stopped_status $status"
  echo "stopped_line $( [[ -e "$work/c.err" ]] && tail -n 1 "$work/c.err" | sed "s|$work|WORK|g")"
  echo "stopped_kept $kept"
  echo "stopped_gradebook_partial $partial"
  echo "resumed_gradebook_same $same"
  echo
  cat "$work/a/summary.txt"
} > "$out"
