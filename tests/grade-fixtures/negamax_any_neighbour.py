"""negamax.py allowing a Raid next to any piece, not only the mover's own."""
import negamax


def can_raid(game, cells, p, i):
    return any(cells[j] != "." for j in negamax.around(game["n"], i))


negamax.can_raid = can_raid
negamax.main()
