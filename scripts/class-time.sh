#!/usr/bin/env bash
# What `stakeraid grade --class` costs against grading the same class one
# submission at a time: a class of 20 submission folders (the zoo of
# tests/grade-zoo/ with its bug programs, its programs with bugs no model
# has and its honest variants, doubled where needed, a crash, an endless
# loop and a folder with no program), graded
#   (a) with one `grade --class` command, and
#   (b) with 20 `grade` commands, one per folder, in a shell loop,
# both on the default 50 cases (seed 1, 10 s time limit), two jobs, and
# then (c) --class killed halfway and resumed, its gradebook compared with
# (a)'s.
#
#   scripts/class-time.sh [OUT]
#
# BIN takes another build than target/release/stakeraid; CASES fewer cases
# (`BIN=target/debug/stakeraid CASES=4` checks the script quickly). OUT
# (default: standard output) receives the times with the exact commands,
# the build and the machine. Take the numbers on a quiet machine.
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
class="$work/class"

# 20 folders, named as course exports name them.
i=1000
for p in student root_ge raids_first alphabeta_short leaf_for_mover piece_one \
  diagonal_raid wrong_column minimax_always strict_cuts student root_ge \
  leaf_for_mover piece_one alphabeta_short minimax_always raids_first; do
  i=$((i + 1))
  d="$class/Student, $p $i"
  mkdir -p "$d"
  cp "$zoo/student.py" "$d/"
  cp "$zoo/$p.py" "$d/homework.py"
done
mkdir -p "$class/crash_2001" "$class/endless_2002" "$class/no program_2003"
echo 'raise SystemExit("boom")' > "$class/crash_2001/homework.py"
printf 'while True:\n    pass\n' > "$class/endless_2002/homework.py"

now() { date +%s.%N; }
args=(--cases "$cases" --jobs 2)

start=$(now)
"$bin" grade --class "$class" --class-out "$work/a" "${args[@]}" -- "$python" -B homework.py \
  > /dev/null 2> "$work/a.err"
wall_a=$(echo "$(now) - $start" | bc -l)

start=$(now)
for d in "$class"/*/; do
  (cd "$d" && "$bin" grade "${args[@]}" -- "$python" -B homework.py > /dev/null 2>&1 || true)
done
wall_b=$(echo "$(now) - $start" | bc -l)

# (c) killed once the first third of the students are done, then resumed.
"$bin" grade --class "$class" --class-out "$work/c" "${args[@]}" -- "$python" -B homework.py \
  > /dev/null 2>&1 &
pid=$!
while [[ $(ls "$work/c/reports" 2>/dev/null | grep -c '\.row\.json$' || true) -lt 7 ]] \
  && kill -0 "$pid" 2>/dev/null; do
  sleep 0.2
done
kill -INT "$pid" 2>/dev/null || true
wait "$pid" || true
kept=$(ls "$work/c/reports" | grep -c '\.row\.json$' || true)
"$bin" grade --class "$class" --class-out "$work/c" "${args[@]}" -- "$python" -B homework.py \
  > /dev/null 2>&1
same=$(cmp -s "$work/a/gradebook.csv" "$work/c/gradebook.csv" && echo yes || echo no)

{
  echo "# stakeraid grade --class on 20 submissions against 20 single grade runs"
  echo "# build $build; $(uname -srm); $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# (a) $bin grade --class CLASS --class-out A ${args[*]} -- $python -B homework.py"
  echo "# (b) for each folder: cd FOLDER && $bin grade ${args[*]} -- $python -B homework.py"
  echo "class_wall_s $wall_a"
  echo "single_runs_wall_s $wall_b"
  echo "gradebook_rows $(($(wc -l < "$work/a/gradebook.csv") - 1))"
  echo "resumed_after_kill_kept $kept"
  echo "resumed_gradebook_same $same"
  echo
  cat "$work/a/summary.txt"
} > "$out"
