#!/usr/bin/env bash
# The COMPETITION budget sweep (examples/budget_sweep.rs): whole games of
# the stakeraid program against itself, run and charged by the referee as a
# tournament runs them, boards 3x3 to 26x26, fills 0 to 0.7, budgets 0.05 s
# to 30 s per side, and single moves with up to 300 s left. Fails if any
# move goes over its share or any game over its budget.
#
#   scripts/budget.sh [--record]    --record keeps the run in profiles/<date>-vm/budget.txt
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
cargo build --release --locked --quiet --example budget_sweep
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
./target/release/examples/budget_sweep target/release/stakeraid | tee "$out" || status=$?
if [ "${1:-}" = "--record" ]; then
    dir="profiles/$(date +%F)-vm"
    mkdir -p "$dir"
    {
        echo "# scripts/budget.sh --record at $(git rev-parse --short HEAD), $(date -u +%FT%TZ), $(nproc) cores"
        echo "# CPU per move from wait4 (user + system, the whole process tree, through sh -c);"
        echo "# share = the engine's planned search time + its per-move overhead; max/share is the worst move."
        cat "$out"
    } > "$dir/budget.txt"
    echo "recorded in $dir/budget.txt"
fi
exit "$status"
