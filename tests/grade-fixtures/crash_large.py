"""Keeps the board in a fixed 12 x 12 grid: any larger board raises IndexError."""
from textbook import Homework

SIDE = 12


class FixedGrid(Homework):
    def read(self):
        super().read()
        grid = [["."] * SIDE for _ in range(SIDE)]
        for r in range(self.n):
            for c in range(self.n):
                grid[r][c] = self.board[r][c]
        self.board = [row[: self.n] for row in grid[: self.n]]


FixedGrid().main()
