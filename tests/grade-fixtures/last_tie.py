"""Keeps a root move that is as good as the best so far (>= instead of >):
the last best move wins a tie, and in ALPHABETA mode so does a later move
whose bound (what the pruned search returns) equals the best."""
from textbook import Homework


class LastTie(Homework):
    def best(self):
        self.limit = self.depth + self.depth_offset
        best = None
        for m in self.moves(self.board, self.me):
            alpha = float("-inf") if best is None else best[0]
            v = self.value(self.play(self.board, m, self.me), 1, self.them, alpha, float("inf"))
            if best is None or v >= best[0]:
                best = (v, m)
        return best[1]


LastTie().main()
