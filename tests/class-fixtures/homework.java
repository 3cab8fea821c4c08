// The textbook Stake & Raid homework in Java (tests/grade-fixtures/textbook.py,
// line for line): minimax or alpha-beta with a depth cut-off, Stakes then
// Raids in reading order, the first best root move kept.
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public class homework {
    static final int[] DR = {-1, 1, 0, 0}, DC = {0, 0, -1, 1};
    int n, limit;
    boolean alphabeta;
    char me, them;
    int[][] values;

    static char other(char p) { return p == 'X' ? 'O' : 'X'; }

    boolean inside(int y, int x) { return y >= 0 && y < n && x >= 0 && x < n; }

    long score(char[][] b) {
        long s = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                if (b[r][c] == me) s += values[r][c];
                else if (b[r][c] == them) s -= values[r][c];
            }
        return s;
    }

    List<int[]> moves(char[][] b, char p) {
        List<int[]> stakes = new ArrayList<>(), raids = new ArrayList<>();
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                if (b[r][c] != '.') continue;
                stakes.add(new int[] {r, c, 0});
                for (int k = 0; k < 4; k++)
                    if (inside(r + DR[k], c + DC[k]) && b[r + DR[k]][c + DC[k]] == p) {
                        raids.add(new int[] {r, c, 1});
                        break;
                    }
            }
        stakes.addAll(raids);
        return stakes;
    }

    char[][] play(char[][] b, int[] m, char p) {
        char[][] after = new char[n][];
        for (int r = 0; r < n; r++) after[r] = b[r].clone();
        after[m[0]][m[1]] = p;
        if (m[2] == 1)
            for (int k = 0; k < 4; k++) {
                int y = m[0] + DR[k], x = m[1] + DC[k];
                if (inside(y, x) && after[y][x] == other(p)) after[y][x] = p;
            }
        return after;
    }

    long value(char[][] b, int d, char p, long alpha, long beta) {
        boolean full = true;
        for (char[] row : b) for (char ch : row) full = full && ch != '.';
        if (d >= limit || full) return score(b);
        boolean mine = p == me, have = false;
        long v = 0;
        for (int[] m : moves(b, p)) {
            long w = value(play(b, m, p), d + 1, mine ? them : me, alpha, beta);
            if (!have) { v = w; have = true; }
            else if (mine ? w > v : w < v) v = w;
            if (alphabeta) {
                if (mine) {
                    if (v >= beta) return v;
                    alpha = Math.max(alpha, v);
                } else {
                    if (v <= alpha) return v;
                    beta = Math.min(beta, v);
                }
            }
        }
        return v;
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("input.txt")))
            if (!line.trim().isEmpty()) lines.add(line.trim());
        homework h = new homework();
        h.n = Integer.parseInt(lines.get(0));
        h.alphabeta = lines.get(1).equals("ALPHABETA");
        h.me = lines.get(2).charAt(0);
        h.them = other(h.me);
        h.limit = Integer.parseInt(lines.get(3));
        h.values = new int[h.n][h.n];
        char[][] board = new char[h.n][];
        for (int r = 0; r < h.n; r++) {
            String[] cells = lines.get(4 + r).split("\\s+");
            for (int c = 0; c < h.n; c++) h.values[r][c] = Integer.parseInt(cells[c]);
            board[r] = lines.get(4 + h.n + r).toCharArray();
        }
        int[] best = null;
        long bestValue = 0;
        for (int[] m : h.moves(board, h.me)) {
            long v = h.value(h.play(board, m, h.me), 1, h.them,
                best == null ? Long.MIN_VALUE : bestValue, Long.MAX_VALUE);
            if (best == null || v > bestValue) { bestValue = v; best = m; }
        }
        try (PrintWriter out = new PrintWriter("output.txt")) {
            out.print((char) ('A' + best[1]) + "" + (best[0] + 1) + (best[2] == 1 ? " Raid" : " Stake") + "\n");
            for (char[] row : h.play(board, best, h.me)) out.print(new String(row) + "\n");
        }
    }
}
