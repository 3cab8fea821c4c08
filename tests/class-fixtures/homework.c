/* The textbook Stake & Raid homework in C (tests/grade-fixtures/textbook.py,
   line for line): minimax or alpha-beta with a depth cut-off, Stakes then
   Raids in reading order, the first best root move kept. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef struct { char cell[26][27]; } Board;
typedef struct { int r, c, raid; } Move;

static int n, limit, alphabeta, value_of[26][26];
static char me, them;
static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};

static char other(char p) { return p == 'X' ? 'O' : 'X'; }

static long score(const Board *b) {
    long s = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if (b->cell[r][c] == me) s += value_of[r][c];
            else if (b->cell[r][c] == them) s -= value_of[r][c];
        }
    return s;
}

static int full(const Board *b) {
    for (int r = 0; r < n; r++)
        if (memchr(b->cell[r], '.', n)) return 0;
    return 1;
}

static int next_to(const Board *b, int r, int c, char p) {
    for (int k = 0; k < 4; k++) {
        int y = r + DR[k], x = c + DC[k];
        if (y >= 0 && y < n && x >= 0 && x < n && b->cell[y][x] == p) return 1;
    }
    return 0;
}

static int moves(const Board *b, char p, Move *out) {
    int k = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (b->cell[r][c] == '.') out[k++] = (Move){r, c, 0};
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (b->cell[r][c] == '.' && next_to(b, r, c, p)) out[k++] = (Move){r, c, 1};
    return k;
}

static void play(const Board *b, Move m, char p, Board *after) {
    *after = *b;
    after->cell[m.r][m.c] = p;
    if (!m.raid) return;
    for (int k = 0; k < 4; k++) {
        int y = m.r + DR[k], x = m.c + DC[k];
        if (y >= 0 && y < n && x >= 0 && x < n && after->cell[y][x] == other(p))
            after->cell[y][x] = p;
    }
}

static long value(const Board *b, int d, char p, long alpha, long beta) {
    if (d >= limit || full(b)) return score(b);
    int mine = p == me, count, have = 0;
    long v = 0;
    Move ms[2 * 26 * 26];
    count = moves(b, p, ms);
    for (int i = 0; i < count; i++) {
        Board after;
        play(b, ms[i], p, &after);
        long w = value(&after, d + 1, mine ? them : me, alpha, beta);
        if (!have) v = w, have = 1;
        else if (mine ? w > v : w < v) v = w;
        if (alphabeta) {
            if (mine) {
                if (v >= beta) return v;
                if (v > alpha) alpha = v;
            } else {
                if (v <= alpha) return v;
                if (v < beta) beta = v;
            }
        }
    }
    return v;
}

int main(void) {
    FILE *in = fopen("input.txt", "r");
    char mode[32], player[8];
    Board board;
    static Move ms[2 * 26 * 26];
    if (!in || fscanf(in, "%d %31s %7s %d", &n, mode, player, &limit) != 4) return 1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (fscanf(in, "%d", &value_of[r][c]) != 1) return 1;
    for (int r = 0; r < n; r++)
        if (fscanf(in, "%26s", board.cell[r]) != 1) return 1;
    fclose(in);
    alphabeta = strcmp(mode, "ALPHABETA") == 0;
    me = player[0];
    them = other(me);
    int count = moves(&board, me, ms), have = 0;
    long best_value = 0;
    Move best = ms[0];
    for (int i = 0; i < count; i++) {
        Board after;
        play(&board, ms[i], me, &after);
        long v = value(&after, 1, them, have ? best_value : LONG_MIN, LONG_MAX);
        if (!have || v > best_value) best_value = v, best = ms[i], have = 1;
    }
    Board after;
    play(&board, best, me, &after);
    FILE *out = fopen("output.txt", "w");
    if (!out) return 1;
    fprintf(out, "%c%d %s\n", 'A' + best.c, best.r + 1, best.raid ? "Raid" : "Stake");
    for (int r = 0; r < n; r++) fprintf(out, "%.*s\n", n, after.cell[r]);
    return fclose(out) != 0;
}
