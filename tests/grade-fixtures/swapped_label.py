"""Searches and writes the board right, but names the move with its row and
column swapped (the column letter from the row, the row number from the
column)."""
from textbook import Homework


class SwappedLabel(Homework):
    def answer(self, move):
        r, c, kind, flips = move
        lines = super().answer(move).split("\n")
        lines[0] = "%s%d %s" % ("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r], c + 1, kind)
        return "\n".join(lines)


SwappedLabel().main()
