"""negamax.py scoring each position for the side that is not to move."""
import negamax

score = negamax.evaluate


def evaluate(game, cells, p):
    return score(game, cells, negamax.opponent(p))


negamax.evaluate = evaluate
negamax.main()
