"""Exact solver and competition player for the Stake & Raid board game.

>>> import stakeraid
>>> p = stakeraid.Position([[1, 8, 23], [5, 42, 12], [26, 30, 9]], ["X..", "...", "..."], "O")
>>> str(stakeraid.analyse(p, depth=2).best)
'B3 Stake'

The search itself is the Rust library ``stakeraid`` (module
``stakeraid._core``); every search releases the interpreter while it runs.
The PettingZoo environment is ``stakeraid.env`` (``pip install
"stakeraid[env]"``); deep solves on a Ray cluster are ``stakeraid.cluster``
(``pip install "stakeraid[ray]"``).
"""

from ._core import (
    Analysis,
    Move,
    Position,
    RootMove,
    SplitSolve,
    StopToken,
    __version__,
    analyse,
    competition_move,
    run_job,
    solve_text,
)

__all__ = [
    "Analysis",
    "Move",
    "Position",
    "RootMove",
    "SplitSolve",
    "StopToken",
    "__version__",
    "analyse",
    "competition_move",
    "run_job",
    "solve_text",
]
