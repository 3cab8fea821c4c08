"""Bad input is a ValueError carrying the library's message; nothing takes
the interpreter down."""

import pytest
import stakeraid
from conftest import SPEC_EXAMPLES
from stakeraid import Position

GOOD = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "line 1"),
        ("3\n", "line 2"),
        ("3\nMINIMAX\nZ\n2\n", "line 3: "),
        (GOOD.replace("MINIMAX", "MAXIMIN"), "line 2: "),
        (GOOD.replace("\n2\n", "\n0\n", 1), "line 4: "),
        (GOOD.replace("1 8 23", "1 8"), "line 5: "),
        (GOOD.replace("5 42 12", "5 -42 12"), "line 6: "),
        (GOOD.replace("26 30 9", "26 30 x"), "line 7: "),
        (GOOD.replace("X..\n", "X.?\n"), "line 8: "),
        (GOOD.replace("...\n...\n", "...\n"), "line 10"),
        ("3\nALPHABETA\nX\n1\n1 1 1\n1 1 1\n1 1 1\nXOX\nOXO\nXOX\n", "full"),
        ("27\nMINIMAX\nX\n1\n", "line 1: "),
        (GOOD + "junk\n", "line 11"),
    ],
)
def test_bad_input_text(text, message):
    with pytest.raises(ValueError, match=message):
        stakeraid.solve_text(text)
    with pytest.raises(ValueError, match=message):
        Position.from_input(text)


def test_lenient_layout():
    crlf = GOOD.replace("\n", "\r\n").rstrip("\n") + "\r\n\r\n\r\n"
    assert stakeraid.solve_text(crlf) == stakeraid.solve_text(GOOD)
    assert stakeraid.solve_text("\ufeff" + GOOD.rstrip("\n")) == stakeraid.solve_text(GOOD)


def test_pieces_read_in_either_case_as_the_player_does():
    assert Position([[1, 2], [3, 4]], ["x.", ".o"], "o") == Position(
        [[1, 2], [3, 4]], ["X.", ".O"], "O"
    )


@pytest.mark.parametrize(
    "values, cells, player, message",
    [
        ([], None, "X", "1 to 26 rows"),
        ([[1] * 27] * 27, None, "X", "1 to 26 rows"),
        ([[1, 2], [3]], None, "X", "value row 2: expected 2 values, found 1"),
        ([[1, 2], [3, -4]], None, "X", "value row 2, column 2"),
        ([[1, 2], [3, 2**31]], None, "X", "value row 2, column 2"),
        ([[1, 2], [3, 2**80]], None, "X", "value row 2, column 2"),
        ([[1, 2], [3, "4"]], None, "X", "value row 2, column 2: .* got '4'"),
        ([[1, 2], [3, 4.0]], None, "X", "value row 2, column 2"),
        ([[1, 2], [3, 4]], [".."], "X", "expected 2 rows of cells, found 1"),
        ([[1, 2], [3, 4]], ["..", "..."], "X", "cell row 2: expected 2 cells, found 3"),
        ([[1, 2], [3, 4]], ["..", ".?"], "X", "cell row 2, column 2"),
        ([[1, 2], [3, 4]], None, "Y", "unknown player"),
    ],
)
def test_bad_positions(values, cells, player, message):
    with pytest.raises(ValueError, match=message):
        Position(values, cells, player)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        Position("12\n34")
    with pytest.raises(TypeError):
        stakeraid.analyse("not a position", depth=1)


P = Position([[1, 8, 23], [5, 42, 12], [26, 30, 9]], ["X..", "...", "..."], "O")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"depth": 0}, "depth must be 1 to 4294967295, got 0"),
        ({"depth": -3}, "depth must be 1 to 4294967295, got -3"),
        ({"depth": 2**32}, "depth must be 1 to 4294967295, got 4294967296"),
        ({}, "give a depth, a time limit or both"),
        ({"depth": 2, "mode": "COMPETITION"}, "no exact answer"),
        ({"depth": 2, "mode": "BEST"}, "unknown mode"),
        ({"time": -1.0}, "time"),
        ({"time": float("nan")}, "time"),
        ({"depth": 2, "threads": -1}, "threads"),
    ],
)
def test_bad_analyse_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        stakeraid.analyse(P, **kwargs)


@pytest.mark.parametrize("depth", [0, -3, 2**32])
def test_every_function_refuses_a_depth_in_the_same_words(depth):
    says = f"depth must be 1 to 4294967295, got {depth}"
    calls = [
        lambda: stakeraid.analyse(P, depth=depth),
        lambda: stakeraid.analyse_many([P], depth=depth),
        lambda: stakeraid.analyse_many([P, SPEC_EXAMPLES[0][0]], depth=depth),
        lambda: P.to_input("MINIMAX", depth=depth),
    ]
    for call in calls:
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == says


def test_huge_limits_are_fine():
    a = stakeraid.analyse(P, depth=10**9, time=float("inf"), threads=1)
    assert a.exact and a.depth == a.requested_depth == 8


@pytest.mark.parametrize("seconds", [-1.0, float("nan"), float("inf")])
def test_bad_competition_budget(seconds):
    with pytest.raises(ValueError, match="seconds_left"):
        stakeraid.competition_move(P, seconds)


def test_a_rust_panic_is_a_python_exception():
    # PanicException derives from BaseException, as pyo3 defines it.
    with pytest.raises(BaseException, match="boom") as e:
        stakeraid._core._panic_for_tests("boom")
    assert type(e.value).__name__ == "PanicException"
    # The interpreter and the library are still there.
    assert stakeraid.analyse(P, depth=2, threads=1).best == stakeraid.Move.parse("B3 Stake")


def test_a_value_of_zero_is_a_value():
    position = stakeraid.Position([[1, 2], [3, 0]], ["X.", ".."], "O")
    assert position.values == [[1, 2], [3, 0]]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "MINIMAX"}, "MINIMAX needs a depth"),
        ({"mode": "alphabeta", "depth": 0}, "depth must be 1 to"),
        ({"mode": "ALPHABETA", "depth": -2}, "depth must be 1 to"),
        ({"mode": "MINIMAX", "depth": 2, "seconds": 1.0}, "takes a depth, not seconds"),
        ({"mode": "COMPETITION"}, "COMPETITION needs seconds"),
        ({"mode": "COMPETITION", "depth": 2}, "not a depth"),
        ({"mode": "COMPETITION", "seconds": float("nan")}, "finite number >= 0, got (?i:nan)"),
        ({"mode": "BEST", "depth": 2}, "unknown mode 'BEST'|unknown mode \"BEST\""),
    ],
)
def test_to_input_errors_say_what_is_missing(kwargs, message):
    with pytest.raises(ValueError, match=message) as e:
        P.to_input(**kwargs)
    assert "Some(" not in str(e.value) and "None" not in str(e.value)


def test_a_move_of_the_wrong_type_says_what_a_move_is():
    for call in (P.play, P.is_legal):
        with pytest.raises(TypeError, match='a Move or its text, such as "C3 Raid"; got int') as e:
            call(5)
        assert "variant" not in str(e.value)


@pytest.mark.parametrize("threads", [257, 9999])
def test_threads_are_capped_as_on_the_command_line(threads):
    with pytest.raises(ValueError, match="threads must be 0 .* to 256"):
        stakeraid.analyse(P, depth=2, threads=threads)
    with pytest.raises(ValueError, match="to 256"):
        stakeraid.solve_text(GOOD, threads=threads)
    with pytest.raises(ValueError, match="to 256"):
        stakeraid.competition_move(P, 1.0, threads=threads)


def test_values_are_documented_and_checked_from_zero():
    assert "positive" not in Position.__doc__
    with pytest.raises(ValueError, match="integers from 0 to 2147483647") as e:
        Position([[1, 2], [3, "4"]])
    assert "positive" not in str(e.value)
