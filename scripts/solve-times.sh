# Helpers for the scripts that time `stakeraid solve`; sourced, not run.

# "seconds nodes" of one run: solve_once BINARY INPUT THREADS
solve_once() {
  "$1" solve "$2" -o /dev/null --stats --threads "$3" 2>&1 |
    sed -n 's/.*nodes \([0-9]*\) *time \([0-9.]*\)s.*/\2 \1/p'
}

# The median of the numbers on standard input, one a line.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# "SEED FILE": the first seed from 1 for which BINARY's `position` gives a
# SIZE x SIZE board exactly EMPTY empty cells (ALPHABETA to the end),
# written into DIR: endgame BINARY DIR SIZE EMPTY
endgame() {
  local bin=$1 dir=$2 n=$3 e=$4 s=1 fill file
  fill=$(awk -v n="$n" -v e="$e" 'BEGIN {printf "%.6f", 1 - e / (n * n)}')
  file="$dir/p$n-$e.txt"
  while :; do
    "$bin" position --size "$n" --fill "$fill" --seed "$s" --mode alphabeta --depth 40 -o "$file"
    if [ "$(tail -n "$n" "$file" | tr -cd . | wc -c)" = "$e" ]; then
      echo "$s $file"
      return
    fi
    s=$((s + 1))
  done
}

# The cells of FILE's region (its empty cells and their neighbours):
# region_cells SIZE FILE
region_cells() {
  awk -v n="$1" 'NR > n + 4 && NR <= 2 * n + 4 {row[NR - n - 5] = $0}
    END {for (r = 0; r < n; r++) for (c = 0; c < n; c++) {
      e = substr(row[r], c + 1, 1) == "."
      up = r > 0 && substr(row[r - 1], c + 1, 1) == "."
      dn = r < n - 1 && substr(row[r + 1], c + 1, 1) == "."
      lf = c > 0 && substr(row[r], c, 1) == "."
      rt = c < n - 1 && substr(row[r], c + 2, 1) == "."
      k += e || up || dn || lf || rt}
    print k}' "$2"
}
