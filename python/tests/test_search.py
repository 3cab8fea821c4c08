"""Searches: analysis fields, stopping from another thread, the time
limit, the interpreter released while searching, competition moves."""

import json
import threading
import time

import stakeraid
from stakeraid import Move, Position, StopToken


def big_position():
    """An empty 7x7 board: a deep search there takes far longer than any test."""
    values = [[(r * 7 + c) * 37 % 97 + 1 for c in range(7)] for r in range(7)]
    return Position(values, None, "X")


EXAMPLE = Position(
    [
        [20, 16, 1, 32, 30],
        [20, 12, 2, 11, 8],
        [28, 48, 9, 1, 1],
        [20, 12, 10, 6, 2],
        [25, 30, 23, 21, 10],
    ],
    ["..XX.", "..XOX", "...O.", "..OO.", "....."],
    "X",
)


def test_analysis_mirrors_the_library():
    a = stakeraid.analyse(EXAMPLE, mode="ALPHABETA", depth=4, threads=1)
    assert (str(a.best), a.value, a.player, a.mode) == ("C3 Raid", 26, "X", "ALPHABETA")
    assert a.board == ["..XX.", "..XOX", "..XX.", "..XO.", "....."]
    assert a.exact and not a.stopped and a.depth == a.requested_depth == 4
    assert a.nodes > 0 and a.time_us >= 0
    assert len(a.pv) == 4 and a.pv[0] == a.best
    assert {m.bound for m in a.moves} <= {"exact", "upper"}
    assert a.ranked()[0].move == a.best
    assert a.output_text() == "C3 Raid\n" + "\n".join(a.board) + "\n"
    data = json.loads(a.to_json())
    assert data["best"] == "C3 Raid" and data["value"] == 26
    assert [m["move"] for m in data["moves"]] == [str(m.move) for m in a.moves]

    m = stakeraid.analyse(EXAMPLE, mode="minimax", depth=4, threads=2)
    assert (m.best, m.value, m.mode) == (a.best, a.value, "MINIMAX")
    assert all(rm.bound == "exact" for rm in m.moves)
    # MINIMAX values are exact, and every ALPHABETA bound is at least as large.
    for exact, bounded in zip(m.moves, a.moves):
        assert exact.move == bounded.move
        assert (
            exact.value == bounded.value
            if bounded.bound == "exact"
            else exact.value <= bounded.value
        )
    assert max(rm.value for rm in m.moves) == m.value


def test_stop_from_another_thread():
    token = StopToken()
    result = {}

    def search():
        result["analysis"] = stakeraid.analyse(
            big_position(), mode="ALPHABETA", depth=40, threads=1, stop=token
        )

    worker = threading.Thread(target=search)
    start = time.monotonic()
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive(), "the search ended by itself: the position is too easy"
    token.stop()
    worker.join(timeout=10)
    elapsed = time.monotonic() - start
    assert not worker.is_alive(), "the search did not stop"
    a = result["analysis"]
    assert a.stopped and not a.exact
    assert 1 <= a.depth < a.requested_depth == 40
    assert elapsed < 5, f"took {elapsed:.1f} s to stop"
    assert token.stopped
    # A token that is still set stops the next search at once; reset clears it.
    again = stakeraid.analyse(big_position(), depth=40, threads=1, stop=token)
    assert again.stopped and again.depth >= 1
    token.reset()
    assert not token.stopped
    assert stakeraid.analyse(EXAMPLE, depth=3, threads=1, stop=token).exact


def test_time_limit():
    start = time.monotonic()
    a = stakeraid.analyse(big_position(), time=0.2, threads=1)
    assert time.monotonic() - start < 5
    assert a.stopped and not a.exact and a.depth >= 1


def test_the_interpreter_runs_while_searching():
    token = StopToken()
    done = threading.Event()
    ticks = 0

    def search():
        stakeraid.analyse(big_position(), depth=40, threads=1, stop=token)
        done.set()

    threading.Thread(target=search).start()
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        ticks += 1
    token.stop()
    assert done.wait(10)
    assert ticks > 1000, "the search held the interpreter"


def test_competition_move_is_legal():
    p = big_position()
    for seconds in (0.0, 0.05):
        move = stakeraid.competition_move(p, seconds, threads=1)
        assert isinstance(move, Move) and move in p.legal_moves()
    # A small endgame is solved exactly: the move is the exact best one.
    end = Position([[5, 1, 7], [2, 9, 3], [4, 6, 8]], ["XO.", "O.X", ".XO"], "O")
    best = stakeraid.analyse(end, depth=9, threads=1)
    move = stakeraid.competition_move(end, 1.0, threads=1)
    assert move == best.best
