"""The right answer, written to Output.txt."""
from textbook import Homework


class CapitalName(Homework):
    output_name = "Output.txt"


CapitalName().main()
