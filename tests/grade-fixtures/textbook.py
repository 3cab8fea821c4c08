"""The textbook Stake & Raid homework: AIMA minimax and alpha-beta with a
depth cut-off, moves in canonical order, the first best root move kept.

Run as a program, it is the correct answer. The other fixtures import it and
change one thing each, the way a homework goes wrong.
"""

NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class Homework:
    raid_first = False  # tie-break bug: Raids before Stakes
    depth_offset = 0  # off by one: search DEPTH + depth_offset plies
    eval_side = None  # wrong side: score for this player, not YOUPLAY
    quiet_raids = True  # False: no Raid that flips nothing
    flip = True  # False: the board written without the flips
    final_newline = True
    output_name = "output.txt"

    def read(self):
        with open("input.txt") as f:
            lines = [line.strip() for line in f if line.strip()]
        self.n = n = int(lines[0])
        self.mode, self.me, self.depth = lines[1], lines[2], int(lines[3])
        self.values = [[int(v) for v in lines[4 + r].split()] for r in range(n)]
        self.board = [list(lines[4 + n + r]) for r in range(n)]
        self.them = "O" if self.me == "X" else "X"

    def score(self, b):
        side = self.eval_side or self.me
        s = 0
        for r in range(self.n):
            for c in range(self.n):
                if b[r][c] != ".":
                    s += self.values[r][c] if b[r][c] == side else -self.values[r][c]
        return s

    def moves(self, b, p):
        n, q = self.n, ("O" if p == "X" else "X")
        stakes = [(r, c, "Stake", ()) for r in range(n) for c in range(n) if b[r][c] == "."]
        raids = []
        for r, c, _, _ in stakes:
            near = [(r + dr, c + dc) for dr, dc in NEIGHBOURS if 0 <= r + dr < n and 0 <= c + dc < n]
            if any(b[y][x] == p for y, x in near):
                flips = tuple((y, x) for y, x in near if b[y][x] == q)
                if flips or self.quiet_raids:
                    raids.append((r, c, "Raid", flips))
        return raids + stakes if self.raid_first else stakes + raids

    def play(self, b, move, p):
        r, c, _, flips = move
        after = [row[:] for row in b]
        after[r][c] = p
        for y, x in flips:
            after[y][x] = p
        return after

    def value(self, b, d, p, alpha, beta):
        """Minimax value of b with p to move at depth d (alpha-beta in ALPHABETA mode)."""
        if d >= self.limit or all("." not in row for row in b):
            return self.score(b)
        mine = p == self.me
        v = None
        for m in self.moves(b, p):
            w = self.value(self.play(b, m, p), d + 1, self.them if mine else self.me, alpha, beta)
            v = w if v is None else (max(v, w) if mine else min(v, w))
            if self.mode == "ALPHABETA":
                if mine:
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
                else:
                    if v <= alpha:
                        return v
                    beta = min(beta, v)
        return v

    def best(self):
        self.limit = self.depth + self.depth_offset
        best = None
        for m in self.moves(self.board, self.me):
            alpha = float("-inf") if best is None else best[0]
            v = self.value(self.play(self.board, m, self.me), 1, self.them, alpha, float("inf"))
            if best is None or v > best[0]:
                best = (v, m)
        return best[1]

    def answer(self, move):
        r, c, kind, _ = move
        after = self.play(self.board, move if self.flip else (r, c, kind, ()), self.me)
        lines = ["%s%d %s" % ("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[c], r + 1, kind)]
        lines += ["".join(row) for row in after]
        return "\n".join(lines) + ("\n" if self.final_newline else "")

    def main(self):
        self.read()
        text = self.answer(self.best())
        with open(self.output_name, "w") as f:
            f.write(text)


if __name__ == "__main__":
    Homework().main()
