"""negamax.py counting the root as ply 1: the cut-off (ply == DEPTH) comes
one ply early, and at depth 1 never (the search runs to the full board)."""
import negamax

negamax.ROOT_PLY = 1
negamax.main()
