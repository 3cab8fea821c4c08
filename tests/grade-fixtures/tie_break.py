"""Lists the Raids before the Stakes: a Raid that ties with the Stake on its
cell (or with an earlier Stake) wins the tie."""
from textbook import Homework


class RaidsFirst(Homework):
    raid_first = True


RaidsFirst().main()
