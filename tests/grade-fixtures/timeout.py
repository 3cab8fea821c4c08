"""Reads its input, then never stops searching."""
from textbook import Homework

h = Homework()
h.read()
while True:
    pass
