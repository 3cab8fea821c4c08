"""Moves: parsing and printing, action indices, equality and hashing."""

import pickle

import pytest
import stakeraid
from stakeraid import Move


def test_every_move_reads_back_what_it_prints():
    for row in range(26):
        for col in range(26):
            for kind in ("Stake", "Raid"):
                text = f"{chr(ord('A') + col)}{row + 1} {kind}"
                move = Move.parse(text)
                assert str(move) == text
                assert (move.cell, move.kind, move.row, move.col) == (
                    text.split()[0],
                    kind,
                    row,
                    col,
                )
                assert Move.parse(str(move)) == move
                assert Move(move.cell, move.kind) == move
                assert eval(repr(move), {"Move": Move}) == move


def test_case_and_spacing_are_free():
    assert Move.parse("  c3   raid ") == Move.parse("C3 Raid") == Move("c3", "RAID")
    assert Move.parse("z26 stake") == Move("Z26", "Stake")


@pytest.mark.parametrize(
    "bad", ["C3", "C3 Blitz", "3C Stake", "C0 Stake", "C27 Raid", "C3 Stake now", "", "é3 Raid"]
)
def test_bad_moves_are_value_errors(bad):
    with pytest.raises(ValueError):
        Move.parse(bad)


def test_equality_and_hash():
    a, b, c = Move.parse("B2 Stake"), Move.parse("b2 stake"), Move.parse("B2 Raid")
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    # A move is its text as printed, hashed alike; no other spelling, whose
    # hash would differ; a move orders against moves only.
    assert a == "B2 Stake" and "B2 Stake" == a and hash(a) == hash("B2 Stake")
    assert a != "b2 stake" and a != "B2 Raid" and not (a != "B2 Stake")
    assert len({a, "B2 Stake", c, "B2 Raid"}) == 2 and {a: 1}["B2 Stake"] == 1
    assert a != 7 and a != None  # noqa: E711
    with pytest.raises(TypeError):
        _ = a < "C3 Stake"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(c, protocol)) == c, protocol


def test_action_indices_round_trip():
    for n in (1, 2, 5, 26):
        seen = set()
        for i in range(2 * n * n):
            move = Move.from_index(i, n)
            assert move.index(n) == i
            assert move.kind == ("Stake" if i < n * n else "Raid")
            seen.add(move)
        assert len(seen) == 2 * n * n
    assert Move.parse("B1 Raid").index(3) == 9 + 1
    assert Move.parse("A2 Stake").index(3) == 3


@pytest.mark.parametrize("index, size", [(-1, 3), (18, 3), (0, 0), (0, 27)])
def test_bad_action_indices(index, size):
    with pytest.raises(ValueError):
        Move.from_index(index, size)


def test_index_off_the_board():
    with pytest.raises(ValueError, match="off"):
        Move.parse("D1 Stake").index(3)


def test_action_index_errors_give_the_range():
    with pytest.raises(ValueError, match="a 3x3 board has actions 0 to 17"):
        Move.from_index(18, 3)
    with pytest.raises(ValueError, match="0 to 1$"):
        Move.from_index(-1, 1)


def test_moves_order_as_they_are_listed():
    position = stakeraid.Position([[1, 2, 3], [4, 5, 6], [7, 8, 9]], ["X..", ".O.", "..."])
    moves = position.legal_moves()
    assert sorted(reversed(moves)) == moves
    assert Move.parse("C3 Stake") < Move.parse("A1 Raid") <= Move.parse("A1 Raid")
    assert Move.parse("A2 Stake") > Move.parse("C1 Stake")
