"""Right in MINIMAX mode; in ALPHABETA mode the min node is a copy of the
max node that was never changed: the opponent's replies are maximized too."""
from textbook import Homework


class CopiedMaxNode(Homework):
    def value(self, b, d, p, alpha, beta):
        if self.mode != "ALPHABETA" or p == self.me:
            return super().value(b, d, p, alpha, beta)
        if d >= self.limit or all("." not in row for row in b):
            return self.score(b)
        v = None
        for m in self.moves(b, p):
            w = self.value(self.play(b, m, p), d + 1, self.me, alpha, beta)
            v = w if v is None else max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v


CopiedMaxNode().main()
