#!/usr/bin/env bash
# Positions per second on many positions at once, against the same
# positions answered one at a time on one thread:
#
#   scripts/throughput.sh [OLD_BINARY]
#
# Two sets, made by `stakeraid position`: (a) SMALL (4000) small positions,
# 5x5 to 8x8 at depth 3 to 5, ALPHABETA; (b) FULL (40) full solves of 5x5
# boards (fill 0.4, depth 25). Each goes through `serve` with its defaults,
# through `solve` on the folder, and through Python's `analyse_many` (with
# PYTHON, default python3, when its stakeraid has it: measure the release
# wheel, as `scripts/python-overhead.sh` builds it into
# target/python-overhead/venv, not the test script's slower one), against
# `serve` answering one request at a time on one thread (OLD_BINARY's
# `serve`, which does nothing else, with `"threads": 1`; without OLD_BINARY
# this build's `serve --threads 1`). Each way's time is the median of
# ROUNDS (5) rounds, the ways taken by turns in each round. `solve` on a
# folder also writes a file per position, which `serve` does not: it is
# also held to `solve --threads 1` on the same folder. And the most two
# cores give this work: two of the baseline's processes at once, each on
# every other position, a split that costs nothing. Then one request alone, OLD_BINARY against this
# build by turns (medians of REPEAT, 5), and the peak resident memory of
# `serve` with 1000 requests in flight (TABLE_MB, 256, its table budget).
# BIN: the build measured (default: this checkout's release build).
set -euo pipefail
old="${1:-}"
here=$(cd "$(dirname "$0")/.." && pwd)
bin="${BIN:-$here/target/release/stakeraid}"
small="${SMALL:-4000}"; full="${FULL:-40}"; repeat="${REPEAT:-5}"; rounds="${ROUNDS:-5}"
table_mb="${TABLE_MB:-256}"; python="${PYTHON:-python3}"
[ -x "$bin" ] || { echo "no build at $bin: cargo build --release first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
lap() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f\n", b - a}'; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# The sets: one input file per position, and the same as requests, with
# the default threads and with one thread.
mkdir -p "$work/small" "$work/full"
seq "$small" | xargs -P "$(nproc)" -I{} sh -c \
  'n=$((5 + {} % 4)); d=$((3 + {} % 3)); "$0" position --size $n --depth $d --mode ALPHABETA --seed {} -o "$1/p{}.txt"' \
  "$bin" "$work/small"
seq "$full" | xargs -P "$(nproc)" -I{} sh -c \
  '"$0" position --size 5 --fill 0.4 --mode ALPHABETA --depth 25 --seed {} -o "$1/p{}.txt"' \
  "$bin" "$work/full"
for set in small full; do
  python3 - "$work/$set" "$work/$set" <<'EOF'
import json, os, sys
folder = sys.argv[1]
names = sorted(os.listdir(folder), key=lambda n: int(n[1:-4]))
with open(folder + ".default.jsonl", "w") as d, open(folder + ".one.jsonl", "w") as one:
    for name in names:
        text = open(os.path.join(folder, name)).read()
        d.write(json.dumps({"id": name, "input": text}) + "\n")
        one.write(json.dumps({"id": name, "input": text, "threads": 1}) + "\n")
EOF
done

# Checks every line of a server's answers is an answer.
answered() {
  local lines; lines=$(grep -c '"ok":true' "$1" || true)
  [ "$lines" = "$2" ] || { echo "only $lines of $2 answered in $1" >&2; exit 1; }
}

echo "# $(nproc) cores; $(uname -srm); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# BIN=$bin OLD_BINARY=${old:-none}; each way's seconds: the median of $rounds rounds, the ways by turns in each"
printf "%-6s %-48s %6s %8s %10s %6s\n" set way positions seconds "pos/s" ratio

# One way on one set, timed once: its seconds on stdout.
run_way() {
  local set=$1 way=$2 count t0 t1 threads=0
  count=$(ls "$work/$set" | wc -l)
  case "$way" in
    base)
      t0=$(now)
      if [ -n "$old" ]; then "$old" serve < "$work/$set.one.jsonl" > "$work/out"
      else "$bin" serve --threads 1 < "$work/$set.one.jsonl" > "$work/out"; fi
      t1=$(now); answered "$work/out" "$count" ;;
    serve1)
      t0=$(now); "$bin" serve --threads 1 < "$work/$set.one.jsonl" > "$work/out"; t1=$(now)
      answered "$work/out" "$count" ;;
    halves)
      # Two processes at once, each the baseline on every other position:
      # a split with no cost at all, so what two cores give this work.
      local one=("$bin" serve --threads 1)
      [ -n "$old" ] && one=("$old" serve)
      awk 'NR % 2 == 1' "$work/$set.one.jsonl" > "$work/odd.jsonl"
      awk 'NR % 2 == 0' "$work/$set.one.jsonl" > "$work/even.jsonl"
      t0=$(now)
      "${one[@]}" < "$work/odd.jsonl" > "$work/out" &
      "${one[@]}" < "$work/even.jsonl" > "$work/out2"
      wait; t1=$(now)
      answered "$work/out" $(( (count + 1) / 2 )); answered "$work/out2" $(( count / 2 )) ;;
    serve)
      t0=$(now); "$bin" serve < "$work/$set.default.jsonl" > "$work/out"; t1=$(now)
      answered "$work/out" "$count" ;;
    serve_one_each)
      t0=$(now); "$bin" serve < "$work/$set.one.jsonl" > "$work/out"; t1=$(now)
      answered "$work/out" "$count" ;;
    solve1|solve)
      rm -rf "$work/answers"
      [ "$way" = solve1 ] && threads=1
      t0=$(now); "$bin" solve "$work/$set" -o "$work/answers" --threads $threads 2> /dev/null; t1=$(now)
      [ "$(ls "$work/answers" | wc -l)" = "$count" ] || { echo "solve left outputs missing" >&2; exit 1; }
      rm -rf "$work/answers" ;;
    python)
      "$python" - "$work/$set" <<'EOF'
import os, sys, time
import stakeraid
folder = sys.argv[1]
texts = [open(os.path.join(folder, n)).read() for n in sorted(os.listdir(folder))]
start = time.perf_counter()
# input.txt texts: each searched in its own mode to its own depth.
answers = stakeraid.analyse_many(texts)
print(f"{time.perf_counter() - start:.3f}")
assert len(answers) == len(texts)
EOF
      return ;;
  esac
  secs "$t0" "$t1"; echo
}

# The ways that write 4000 files go last in a round: the kernel's work
# after them slowed whatever came next (Python's batch: 0.40 s after them,
# 0.24 s alone).
ways="base halves serve1 serve serve_one_each"
if "$python" -c 'import stakeraid, sys; sys.exit(not hasattr(stakeraid, "analyse_many"))' 2> /dev/null; then
  ways="$ways python"
else
  echo "# python analyse_many: skipped: $python's stakeraid has no analyse_many"
fi
ways="$ways solve1 solve"
declare -A name=(
  [base]="$([ -n "$old" ] && echo 'old serve, "threads": 1 each' || echo 'serve --threads 1')"
  [halves]="two of the first at once, each every other one"
  [serve1]="serve --threads 1 (one at a time, this build)"
  [serve]="serve (defaults)"
  [serve_one_each]="serve, \"threads\": 1 each"
  [solve1]="solve --threads 1 FOLDER -o DIR (one at a time)"
  [solve]="solve FOLDER -o DIR"
  [python]="python analyse_many"
)
for set in small full; do
  count=$(ls "$work/$set" | wc -l)
  for way in $ways; do : > "$work/times.$way"; done
  for _ in $(seq "$rounds"); do
    for way in $ways; do run_way "$set" "$way" >> "$work/times.$way"; done
  done
  base=$(median < "$work/times.base")
  for way in $ways; do
    s=$(median < "$work/times.$way")
    printf "%-6s %-48s %6d %8.3f %10.1f %6s\n" "$set" "${name[$way]}" "$count" "$s" \
      "$(awk -v n="$count" -v s="$s" 'BEGIN {print n / s}')" \
      "$(awk -v b="$base" -v s="$s" 'BEGIN {printf "%.2fx", b / s}')"
  done
  one=$(median < "$work/times.solve1"); many=$(median < "$work/times.solve")
  echo "$set    solve FOLDER against solve --threads 1 FOLDER (the same files written): $(awk -v a="$one" -v b="$many" 'BEGIN {printf "%.2fx", a / b}')"
done

# One request alone: a full 5x5 solve, wall time of the whole process.
echo
echo "# one request alone (set b's first position, default threads): wall seconds, medians of $repeat"
one=$(head -1 "$work/full.default.jsonl")
alone() { local t0 t1; t0=$(now); echo "$one" | "$1" serve > /dev/null; t1=$(now); lap "$t0" "$t1"; }
: > "$work/lat-old"; : > "$work/lat-new"
for _ in $(seq "$repeat"); do
  [ -n "$old" ] && alone "$old" >> "$work/lat-old"
  alone "$bin" >> "$work/lat-new"
done
[ -n "$old" ] && echo "old  $(median < "$work/lat-old") s  (all: $(tr '\n' ' ' < "$work/lat-old"))"
echo "new  $(median < "$work/lat-new") s  (all: $(tr '\n' ' ' < "$work/lat-new"))"

# Memory: 1000 deep requests in flight (each alone would size a 256 MiB
# table), stopped after 3 s; the peak resident memory of the server.
echo
echo "# serve --table-mb $table_mb with 1000 requests in flight (5x5, fill 0.1, depth 25), a stop after 3 s"
"$bin" position --size 5 --fill 0.1 --mode ALPHABETA --depth 25 --seed 7 -o "$work/deep.txt"
python3 - "$work/deep.txt" > "$work/deep.jsonl" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
for i in range(1000):
    print(json.dumps({"id": i, "input": text}))
EOF
{ cat "$work/deep.jsonl"; sleep 3; echo '{"id": "stop", "cmd": "stop"}'; } \
  | /usr/bin/time -f "%M" -o "$work/rss" "$bin" serve --table-mb "$table_mb" > "$work/out"
answered "$work/out" 1001
echo "peak resident memory $(( $(cat "$work/rss") / 1024 )) MiB (table budget $table_mb MiB); $(grep -c '"stopped":true' "$work/out") of 1000 answered as stopped"
