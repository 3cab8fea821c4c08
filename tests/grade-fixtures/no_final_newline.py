"""The right answer, without the newline after the last board line."""
from textbook import Homework


class NoFinalNewline(Homework):
    final_newline = False


NoFinalNewline().main()
