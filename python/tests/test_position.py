"""Positions: building, reading back, legal moves in canonical order,
playing, scores and drawing."""

import pickle

import pytest
import stakeraid
from conftest import SPEC_EXAMPLES
from stakeraid import Move, Position

VALUES = [
    [20, 16, 1, 32, 30],
    [20, 12, 2, 11, 8],
    [28, 48, 9, 1, 1],
    [20, 12, 10, 6, 2],
    [25, 30, 23, 21, 10],
]
CELLS = ["..XX.", "..XOX", "...O.", "..OO.", "....."]


def test_from_values_and_from_input_agree():
    a = Position(VALUES, CELLS, "X")
    b = Position.from_input(SPEC_EXAMPLES[1][0])
    assert a == b and hash(a) == hash(b)
    assert (a.size, a.to_move, a.values, a.cells) == (5, "X", VALUES, CELLS)
    assert a.empty_count == 17 and not a.is_over
    assert Position(VALUES, CELLS, "O") != a


def test_defaults_and_round_trips():
    p = Position([[3, 1], [4, 1]])
    assert p.cells == ["..", ".."] and p.to_move == "X" and p.score == 0
    q = Position(VALUES, CELLS, "X")
    assert eval(repr(q), {"Position": Position}) == q
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(q, protocol)) == q, protocol
    assert Position.from_input(q.to_input("MINIMAX", depth=3)) == q
    text = q.to_input("COMPETITION", seconds=2.5)
    assert text.splitlines()[1:4] == ["COMPETITION", "X", "2.5"]


def test_legal_moves_are_in_canonical_order():
    p = Position(VALUES, CELLS, "X")
    moves = p.legal_moves()
    kinds = [m.kind for m in moves]
    stakes, raids = moves[: kinds.count("Stake")], moves[kinds.count("Stake") :]
    assert all(k == "Stake" for k in kinds[: len(stakes)]) and all(m.kind == "Raid" for m in raids)
    empty = [(r, c) for r in range(5) for c in range(5) if CELLS[r][c] == "."]
    assert [(m.row, m.col) for m in stakes] == empty
    assert [(m.row, m.col) for m in raids] == sorted((m.row, m.col) for m in raids)
    # Every empty cell next to an X is a Raid, whether it flips or not.
    next_to_x = [
        (r, c)
        for r, c in empty
        if any(
            0 <= r + dr < 5 and 0 <= c + dc < 5 and CELLS[r + dr][c + dc] == "X"
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        )
    ]
    assert [(m.row, m.col) for m in raids] == next_to_x
    assert Move.parse("B1 Raid") in raids  # flips nothing
    # The same order the analysis reports its root moves in.
    analysis = stakeraid.analyse(p, depth=1, threads=1)
    assert [rm.move for rm in analysis.moves] == moves
    mask = p.action_mask()
    assert len(mask) == 50 and sum(mask) == len(moves)
    assert all(mask[m.index(5)] == 1 for m in moves)


def test_play_flips_and_passes_the_turn():
    p = Position(VALUES, CELLS, "X")
    q = p.play(Move.parse("C3 Raid"))
    assert q.cells == ["..XX.", "..XOX", "..XX.", "..XO.", "....."]
    assert q.to_move == "O"
    assert q == p.play("c3 raid")
    assert q.score == -q.score_for("X") == q.score_for("O")
    assert p.cells == CELLS  # positions do not change
    s = p.play("C3 Stake")
    assert s.cells[1:3] == ["..XOX", "..XO."]
    assert p.play("B1 Raid") == p.play("B1 Stake")


@pytest.mark.parametrize(
    "move, reason",
    [
        ("C1 Stake", "taken"),
        ("A5 Raid", "next to"),
        ("F1 Stake", "off"),
        ("A1 Blitz", "Stake or Raid"),
    ],
)
def test_illegal_moves_are_value_errors(move, reason):
    p = Position(VALUES, CELLS, "X")
    with pytest.raises(ValueError, match=reason):
        p.play(move)
    if reason != "Stake or Raid":
        assert not p.is_legal(move)


def test_a_full_board_is_a_finished_game():
    p = Position([[1, 2], [3, 4]], ["O.", "OX"], "O").play("B1 Raid")
    assert p.is_over and p.legal_moves() == [] and sum(p.action_mask()) == 0
    assert p.cells == ["OO", "OO"] and p.score_for("O") == 10 and p.to_move == "X"
    assert Position([[1, 2], [3, 4]], ["XO", "OX"]).is_over
    with pytest.raises(ValueError, match="full"):
        p.play("A1 Stake")
    with pytest.raises(ValueError, match="full"):
        stakeraid.analyse(p, depth=1)
    with pytest.raises(ValueError, match="full"):
        stakeraid.competition_move(p, 1.0)


def test_str_draws_the_board():
    text = str(Position([[1, 8, 23], [5, 42, 12], [26, 30, 9]], ["X..", "...", "..."], "O"))
    assert text.splitlines() == [
        "     A    B    C",
        "  1  X 1  . 8  .23",
        "  2  . 5  .42  .12",
        "  3  .26  .30  . 9",
        "O to move, score for X +1",
    ]
