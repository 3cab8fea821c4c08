"""Counts the root as depth 1, so it stops one ply short of the depth asked."""
from textbook import Homework


class OneShort(Homework):
    depth_offset = -1


OneShort().main()
