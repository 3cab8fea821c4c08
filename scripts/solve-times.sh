# Helpers for the scripts that time `stakeraid solve`; sourced, not run.

# "seconds nodes" of one run: solve_once BINARY INPUT THREADS
solve_once() {
  "$1" solve "$2" -o /dev/null --stats --threads "$3" 2>&1 |
    sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p'
}

# The median of the numbers on standard input, one a line.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
