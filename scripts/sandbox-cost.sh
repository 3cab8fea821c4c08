#!/usr/bin/env bash
# What the sandbox adds to one case of `stakeraid grade`: the same grade,
# one job, no shrinking, with --sandbox off and --sandbox auto, taken in
# turns REPS times, of a program that does nothing (/bin/true: every case's
# time is then the grader's and the box's) and of Python starting up and
# exiting (PYTHON -c pass: the interpreter's files read through the box).
# Two measures each:
#   per run:  the median over every case of the run's wall time as the
#             report records it (from the start of the box to the
#             program's exit), on against off;
#   per case: the whole command's wall time over the cases, on against off
#             (the box's cgroups and folders made and removed included).
#
#   scripts/sandbox-cost.sh [OUT]
#
# OUT (default: standard output) receives the measurements with the exact
# commands, the build, the machine and what the sandbox enforced. CASES
# (default 200) and REPS (default 5) set the size; BIN takes another build
# than this checkout's release build (an older one, to compare). Take the
# numbers on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-/dev/stdout}"
# Named before OUT is written, which may be a file of this checkout.
build="$(git rev-parse --short HEAD)$(git diff --quiet -- . ':!profiles' || echo '+changes')"
cases="${CASES:-200}"
reps="${REPS:-5}"
python="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
. scripts/binary.sh
[ -z "${BIN:-}" ] || build="$("$bin" --version) at $bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# One grade: writes WORK/NAME-MODE-REP.json and appends its wall time.
grade() {
    local name=$1 mode=$2 rep=$3
    shift 3
    local start end
    start=$(now)
    "$bin" grade --jobs 1 --shrink-runs 0 --cases "$cases" --sandbox "$mode" \
        --json "$work/$name-$mode-$rep.json" -- "$@" > /dev/null || true
    end=$(now)
    echo "$name $mode $rep $(echo "$end - $start" | bc -l)" >> "$work/walls.txt"
}

for rep in $(seq "$reps"); do
    for mode in off auto; do
        grade true "$mode" "$rep" /bin/true
        grade python "$mode" "$rep" "$python" -c pass
    done
done

summary=$(python3 - "$work" "$cases" <<'PY'
import glob, json, os, statistics, sys
work, cases = sys.argv[1], int(sys.argv[2])
walls = {}
for line in open(os.path.join(work, "walls.txt")):
    name, mode, rep, wall = line.split()
    walls.setdefault((name, mode), []).append(float(wall) / cases)
enforced = ""
for name in ("true", "python"):
    runs = {}
    for mode in ("off", "auto"):
        w = []
        for path in glob.glob(os.path.join(work, "%s-%s-*.json" % (name, mode))):
            report = json.load(open(path))
            w += [c["wall"] for c in report["cases"]]
            if mode == "auto":
                enforced = report["sandbox"]
        runs[mode] = statistics.median(w)
    case = {m: statistics.median(walls[(name, m)]) for m in ("off", "auto")}
    print("%-6s per run (median of %d): off %.2f ms, on %.2f ms: +%.2f ms"
          % (name, len(w), runs["off"] * 1e3, runs["auto"] * 1e3,
             (runs["auto"] - runs["off"]) * 1e3))
    print("%-6s per case (median of %d grades): off %.2f ms, on %.2f ms: +%.2f ms"
          % (name, len(walls[(name, "off")]), case["off"] * 1e3, case["auto"] * 1e3,
             (case["auto"] - case["off"]) * 1e3))
print("sandbox: %s" % "; ".join(enforced["enforced"] + enforced["missing"]))
PY
)

{
    echo "# sandbox-cost.sh: the time the sandbox adds to one case"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "build: $build"
    echo "machine: $(nproc) cores, $(uname -sr), $(id -un)"
    echo "commands (each REP, off then auto):"
    echo "  $bin grade --jobs 1 --shrink-runs 0 --cases $cases --sandbox MODE --json F -- /bin/true"
    echo "  $bin grade --jobs 1 --shrink-runs 0 --cases $cases --sandbox MODE --json F -- $python -c pass"
    echo "reps: $reps"
    echo "$summary"
} > "$out"
