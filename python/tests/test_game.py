"""Whole games through Position.play: the score the Rust board keeps
agrees with one counted from the final cells and values."""

import random

import stakeraid
from stakeraid import Position


def counted_score(position, player):
    """The score from ``player``'s side, counted from the cells."""
    total = 0
    for row_values, row_cells in zip(position.values, position.cells):
        for value, cell in zip(row_values, row_cells):
            if cell == player:
                total += value
            elif cell != ".":
                total -= value
    return total


def play_out(position, choose):
    moves = 0
    while not position.is_over:
        before = position
        move = choose(position)
        assert move in position.legal_moves()
        position = position.play(move)
        assert position.to_move != before.to_move
        assert position.empty_count == before.empty_count - 1
        for p in "XO":
            assert position.score_for(p) == counted_score(position, p)
        moves += 1
    return position, moves


def test_engine_against_engine_to_the_end():
    rng = random.Random(7)
    values = [[rng.randint(1, 99) for _ in range(5)] for _ in range(5)]
    start = Position(values, None, "X")

    def choose(p):
        if p.empty_count % 2:
            return stakeraid.analyse(p, depth=2, threads=1).best
        return stakeraid.competition_move(p, 0.2, threads=1)

    end, moves = play_out(start, choose)
    assert moves == 25 and end.is_over
    assert end.score == end.score_for(end.to_move)
    assert end.score_for("X") == -end.score_for("O") == counted_score(end, "X")


def test_random_games_and_the_last_move_value():
    rng = random.Random(11)
    for n in (1, 2, 3, 6):
        values = [[rng.randint(1, 50) for _ in range(n)] for _ in range(n)]
        position = Position(values, None, rng.choice("XO"))
        # One ply before the end, the analysis value is the final score.
        while position.empty_count > 1:
            position = position.play(rng.choice(position.legal_moves()))
        last = stakeraid.analyse(position, depth=1, threads=1)
        end = position.play(last.best)
        assert end.is_over
        assert last.value == end.score_for(position.to_move) == counted_score(end, position.to_move)
        _, moves = play_out(Position(values, None, "O"), lambda p: rng.choice(p.legal_moves()))
        assert moves == n * n
