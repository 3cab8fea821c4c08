#!/usr/bin/env bash
# What `stakeraid grade` costs, on the correct textbook Python homework
# (tests/grade-fixtures/textbook.py):
#   (a) the wall time of grading it on the 50 default cases (seed 1,
#       10 s time limit) with two jobs, as a teaching assistant runs it;
#   (b) the grader's own overhead per case: the whole command's wall time
#       with one job and no shrinking, less the wall time of every run of
#       the program (as the report records it), over the cases. What is
#       left is drawing the cases and their exact answers, the folders,
#       judging and the report.
#
#   scripts/grade-overhead.sh [OUT]
#
# OUT (default: standard output) receives the measurements with the exact
# commands, the build and the machine. PYTHON names the interpreter
# (default: the one python3 runs, resolved past any version manager's shim,
# whose start-up would count as the program's). Take the numbers on a quiet
# machine: other work on the cores slows the program's runs and the grader
# alike.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-/dev/stdout}"
# Named before OUT is written, which may be a file of this checkout.
build="$(git rev-parse --short HEAD)$(git diff --quiet -- . ':!profiles' || echo '+changes')"
python="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
cargo build --quiet --release --locked
bin="$PWD/target/release/stakeraid"
homework="$PWD/tests/grade-fixtures/textbook.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# (a) 50 default cases, two jobs.
cmd_a=("$bin" grade --jobs 2 --json "$work/a.json" -- "$python" -B "$homework")
start=$(now)
"${cmd_a[@]}" > "$work/a.txt"
end=$(now)
wall_a=$(echo "$end - $start" | bc -l)

# (b) one job, no shrinking: the grader's time around the runs.
cmd_b=("$bin" grade --jobs 1 --shrink-runs 0 --json "$work/b.json" -- "$python" -B "$homework")
start=$(now)
"${cmd_b[@]}" > /dev/null
end=$(now)
wall_b=$(echo "$end - $start" | bc -l)

summary=$("$python" - "$work/a.json" "$work/b.json" "$wall_a" "$wall_b" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
wall_a, wall_b = float(sys.argv[3]), float(sys.argv[4])
def runs(r):
    return sum(c["wall"] for c in r["cases"]), sum(c["cpu"] for c in r["cases"])
n = len(b["cases"])
run_wall, run_cpu = runs(b)
print("(a) %d cases, --jobs 2: %.2f s wall; score %d; the program's runs: %.2f s wall, %.2f s CPU in all"
      % (len(a["cases"]), wall_a, a["strict"]["points"], *runs(a)))
slowest = max(a["cases"], key=lambda c: c["cpu"])
print("    slowest case: %s, %.2f s CPU (%s)" % (slowest["name"], slowest["cpu"], slowest["summary"]))
print("(b) %d cases, --jobs 1: %.2f s wall, of which the program's runs %.2f s;"
      % (n, wall_b, run_wall))
print("    the grader's own overhead: %.2f s in all, %.2f ms a case" % (wall_b - run_wall, (wall_b - run_wall) / n * 1e3))
PY
)

{
  echo "# scripts/grade-overhead.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# build: $build, $(rustc --version), release profile"
  echo "# python: $("$python" --version 2>&1) ($python)"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# (a) ${cmd_a[*]/#$PWD\//}"
  echo "# (b) ${cmd_b[*]/#$PWD\//}"
  echo "$summary"
} > "$out"
