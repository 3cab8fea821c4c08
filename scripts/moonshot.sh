#!/usr/bin/env bash
# The empty 5x5 board (`position --size 5 --fill 0 --seed 1`), solved in
# legs that each resume from the committed store:
#
#   scripts/moonshot.sh SECONDS [THREADS]
#
# runs one leg of at most SECONDS (default 2 threads, a 1 GiB table), then
# folds the store's log into profiles/moonshot/empty5x5.db and appends the
# leg to profiles/moonshot/legs.txt: commit both, and the next leg, here or
# on any machine, goes on from there. A finished solve writes its answer
# to profiles/moonshot/answer.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }
secs="$1"; threads="${2:-2}"
dir=profiles/moonshot
cargo build --release --locked --quiet
bin=target/release/stakeraid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" position --size 5 --fill 0 --seed 1 --mode ALPHABETA --depth 25 -o "$work/empty.txt"
start=$(date -u +%FT%TZ)
build=$(git rev-parse --short HEAD)
status=0
timeout --signal=INT "$secs" "$bin" solve "$work/empty.txt" -o "$work/answer.txt" --stats \
  --threads "$threads" --table-mb 1024 --store "$dir/empty5x5.db" 2> "$work/stats" || status=$?
[ "$status" -eq 0 ] && cp "$work/answer.txt" "$dir/answer.txt"
counts=$(python3 - "$dir/empty5x5.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
n, exact, top = c.execute("select count(*), sum(lo = hi), max(plies) from bounds").fetchone()
print(f"positions {n} exact {exact} deepest {top}")
PY
)
outcome=$([ "$status" -eq 0 ] && echo "solved: $(head -1 "$dir/answer.txt")" || echo "stopped (status $status)")
echo "$start .. $(date -u +%FT%TZ)  $build  threads $threads  $outcome  $counts  $(tr '\n' ' ' < "$work/stats")" \
  >> "$dir/legs.txt"
tail -1 "$dir/legs.txt"
