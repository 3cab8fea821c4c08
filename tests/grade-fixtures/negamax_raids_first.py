"""negamax.py listing the Raids before the Stakes."""
import negamax


def generate(game, cells, p):
    empty = [i for i, ch in enumerate(cells) if ch == "."]
    raids = [("Raid", i) for i in empty if negamax.can_raid(game, cells, p, i)]
    return raids + [("Stake", i) for i in empty]


negamax.generate = generate
negamax.main()
