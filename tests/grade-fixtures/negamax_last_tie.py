"""negamax.py keeping a root move as good as the best so far (>=)."""
import negamax


def better(v, best):
    return v >= best


negamax.better = better
negamax.main()
