#!/usr/bin/env bash
# The empty 5x5 board (`position --size 5 --fill 0 --seed 1`), solved in
# legs that each resume from the committed store:
#
#   scripts/moonshot.sh [--confirm | --six26] SECONDS [THREADS]
#
# runs one leg of at most SECONDS (default 2 threads), then folds the
# store's log into its file and appends the leg to its list of legs:
# commit both, and the next leg, here or on any machine, goes on from
# there. The solve is direct, with a 1 GiB table, in
# profiles/moonshot/empty5x5.db (legs.txt, answer.txt). --confirm runs the
# confirming solve, configured differently and sharing no proof with the
# first: the split driver, one job per root test (--split 1), told the
# first solve's move and value (--hint), in its own store confirm.db
# (confirm-legs.txt, confirm-answer.txt). --six26 solves the 6x6 position
# with 26 empty cells (`position --size 6 --fill 0.28 --seed 2`) the same
# way as the first, in six26.db (six26-legs.txt, six26-answer.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=profiles/moonshot
name=empty5x5; legs=legs; answer=answer; how=(--table-mb 1024)
position=(--size 5 --fill 0 --seed 1 --mode ALPHABETA --depth 25)
if [ "${1:-}" = --six26 ]; then
  shift
  name=six26; legs=six26-legs; answer=six26-answer
  position=(--size 6 --fill 0.28 --seed 2 --mode ALPHABETA --depth 26)
elif [ "${1:-}" = --confirm ]; then
  shift
  name=confirm; legs=confirm-legs; answer=confirm-answer
  # The first solve's answer as a hint: it orders the root and places the
  # first test, and cannot change the answer (src/jobs/driver.rs).
  best=$(head -1 "$dir/answer.txt")
  value=$(grep -o 'value -\?[0-9]*' "$dir/legs.txt" | tail -1 | cut -d' ' -f2)
  how=(--split 1 --hint "$best=$value")
fi
[ $# -ge 1 ] || { sed -n '2,18p' "$0"; exit 2; }
secs="$1"; threads="${2:-2}"
cargo build --release --locked --quiet
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" position "${position[@]}" -o "$work/empty.txt"
start=$(date -u +%FT%TZ)
build=$(git rev-parse --short HEAD)
status=0
timeout --signal=INT "$secs" "$bin" solve "$work/empty.txt" -o "$work/answer.txt" --stats \
  --threads "$threads" "${how[@]}" --store "$dir/$name.db" 2> "$work/stats" || status=$?
[ "$status" -eq 0 ] && cp "$work/answer.txt" "$dir/$answer.txt"
counts=$(python3 - "$dir/$name.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
n, exact, top = c.execute("select count(*), sum(lo = hi), max(plies) from bounds").fetchone()
print(f"positions {n} exact {exact} deepest {top}")
PY
)
outcome=$([ "$status" -eq 0 ] && echo "solved: $(head -1 "$dir/$answer.txt")" || echo "stopped (status $status)")
echo "$start .. $(date -u +%FT%TZ)  $build  threads $threads  ${how[*]}  $outcome  $counts  $(tr '\n' ' ' < "$work/stats")" \
  >> "$dir/$legs.txt"
tail -1 "$dir/$legs.txt"
