"""Counts the root as depth -1, so it searches one ply deeper than asked."""
from textbook import Homework


class OneDeeper(Homework):
    depth_offset = 1


OneDeeper().main()
