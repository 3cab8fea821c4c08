"""Searches right, but writes the board with its own piece added and the
flipped pieces left as they were."""
from textbook import Homework


class NoFlips(Homework):
    flip = False


NoFlips().main()
