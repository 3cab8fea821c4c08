#!/usr/bin/env bash
# What `stakeraid grade` costs, on the correct textbook Python homework
# (tests/grade-fixtures/textbook.py) and on two with a bug (off_by_one.py,
# stakes_only.py), whose failing cases the bug models run on:
#   (a) the wall time of grading textbook.py on the 50 default cases (seed
#       1, 10 s time limit) with two jobs, as a teaching assistant runs it;
#   (b) the grader's own overhead per case, for each homework: the whole
#       command's wall time with one job and no shrinking, less the wall
#       time of every run of the program (as the report records it), over
#       the cases: the first 12 cases of seeds 1 to 4, which every version
#       of the grader draws alike. What is left is drawing the cases and
#       their exact answers, the folders, judging (the bug models on each
#       failing case, and on the passing ones for the bugs still suspected)
#       and the report. The program's runs include those of the
#       experiments that settle a tie between bugs (the report gives each
#       one's wall time, as a case's); a grader with no experiments makes
#       none.
#
#   scripts/grade-overhead.sh [OUT]
#   BEFORE=/path/to/an/older/stakeraid scripts/grade-overhead.sh [OUT]
#
# With BEFORE, (b) is taken with that binary too, on the same cases, and
# the difference given: e.g. the grader before the bug models, built with
#   git worktree add /tmp/before 9b68485 && (cd /tmp/before && cargo build --release --locked)
#   BEFORE=/tmp/before/target/release/stakeraid scripts/grade-overhead.sh
# BIN takes another build than target/release/stakeraid (none is built),
# SEEDS other seeds than 1 2 3 4 for (b), CASES_A fewer cases for (a)
# (`BIN=target/debug/stakeraid CASES_A=2 SEEDS=1` checks the script quickly).
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
. scripts/binary.sh
seeds="${SEEDS:-1 2 3 4}"
homework="$PWD/tests/grade-fixtures/textbook.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# (a) 50 default cases, two jobs.
cmd_a=("$bin" grade --jobs 2 ${CASES_A:+--cases "$CASES_A"} --json "$work/a.json" -- "$python" -B "$homework")
start=$(now)
"${cmd_a[@]}" > "$work/a.txt"
end=$(now)
wall_a=$(echo "$end - $start" | bc -l)

# (b) one job, no shrinking, 4 seeds of 12 cases: the grader's time around
# the runs, for each homework and each binary.
homeworks=(textbook.py off_by_one.py stakes_only.py)
bins=("after=$bin")
if [[ -n "${BEFORE:-}" ]]; then
  bins=("before=$(realpath "$BEFORE")" "${bins[@]}")
fi
rows="$work/rows"
: > "$rows"
for entry in "${bins[@]}"; do
  tag="${entry%%=*}"
  b="${entry#*=}"
  for hw in "${homeworks[@]}"; do
    start=$(now)
    for seed in $seeds; do
      "$b" grade --jobs 1 --shrink-runs 0 --cases 12 --seed "$seed" \
        --json "$work/$tag-$hw-$seed.json" -- "$python" -B "$PWD/tests/grade-fixtures/$hw" > /dev/null || true
    done
    end=$(now)
    echo "$tag $hw $(echo "$end - $start" | bc -l)" >> "$rows"
  done
done
cmd_b=("$bin" grade --jobs 1 --shrink-runs 0 --cases 12 --seed SEED --json FILE -- "$python" -B "tests/grade-fixtures/HOMEWORK")

summary=$("$python" - "$work" "$rows" "$wall_a" "$seeds" <<'PY'
import json, sys
work, rows, wall_a, seeds = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4].split()
a = json.load(open(work + "/a.json"))
def runs(cases):
    return sum(c["wall"] for c in cases), sum(c["cpu"] for c in cases)
print("(a) %d cases, --jobs 2: %.2f s wall; score %d; the program's runs: %.2f s wall, %.2f s CPU in all"
      % (len(a["cases"]), wall_a, a["strict"]["points"], *runs(a["cases"])))
slowest = max(a["cases"], key=lambda c: c["cpu"])
print("    slowest case: %s, %.2f s CPU (%s)" % (slowest["name"], slowest["cpu"], slowest["summary"]))
print("(b) %d seeds x 12 cases, --jobs 1, no shrinking: the grader's own time around the program's runs" % len(seeds))
print("    %-6s %-16s %5s %5s %5s %9s %10s %12s" % ("binary", "homework", "cases", "fail", "exps", "wall s", "runs s", "ms a case"))
per = {}
for line in open(rows):
    tag, hw, wall = line.split()
    cases, exps = [], []
    for seed in seeds:
        report = json.load(open("%s/%s-%s-%s.json" % (work, tag, hw, seed)))
        cases += report["cases"]
        exps += (report.get("diagnosis") or {}).get("experiments", [])
    run_wall = runs(cases)[0] + sum(e["wall"] for e in exps)
    fail = sum(1 for c in cases if c["failure"])
    over = (float(wall) - run_wall) / len(cases) * 1e3
    per[(tag, hw)] = over
    print("    %-6s %-16s %5d %5d %5d %9.2f %10.2f %12.1f" % (tag, hw, len(cases), fail, len(exps), float(wall), run_wall, over))
for (tag, hw), over in per.items():
    if tag == "after" and ("before", hw) in per:
        before = per[("before", hw)]
        print("    %s: %+.1f ms a case after, against before (%.2fx)" % (hw, over - before, over / before))
PY
)

{
  echo "# scripts/grade-overhead.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# build: $build, $(rustc --version), ${BIN:+the binary $BIN, not built here}${BIN:-release profile}"
  echo "# python: $("$python" --version 2>&1) ($python)"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# (a) ${cmd_a[*]/#$PWD\//}"
  echo "# (b) ${cmd_b[*]/#$PWD\//}, for SEED in $seeds and HOMEWORK in ${homeworks[*]}${BEFORE:+; before: $BEFORE}"
  echo "$summary"
} > "$out"
