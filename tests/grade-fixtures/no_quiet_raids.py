"""Lists only the Raids that flip something. A Raid that flips nothing leaves
the board of the Stake on its cell, which comes first: no answer changes."""
from textbook import Homework


class CapturingRaidsOnly(Homework):
    quiet_raids = False


CapturingRaidsOnly().main()
