"""Scores every position for O, whoever plays: right for O, wrong for X."""
from textbook import Homework


class AlwaysO(Homework):
    eval_side = "O"


AlwaysO().main()
