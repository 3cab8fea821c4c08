"""Never tries a Raid: both players only Stake."""
from textbook import Homework


class StakesOnly(Homework):
    def moves(self, b, p):
        return [m for m in super().moves(b, p) if m[2] == "Stake"]


StakesOnly().main()
