"""The homework grader from Python: its cases, the verdict on an output.txt,
the shrinker and a whole grade, on the fixtures of tests/grade-fixtures/."""

import pathlib
import sys

import pytest
import stakeraid
from stakeraid import Position

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "grade-fixtures"
EXAMPLE = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n"
# X at A1; B1 is worth most, and its Raid flips nothing: B1 Stake wins the tie.
TIE = "2\nMINIMAX\nX\n1\n1 9\n1 1\nX.\n..\n"


def homework(name):
    return [sys.executable, "-B", str(FIXTURES / name)]


def test_cases_are_seeded_and_carry_their_answers():
    cases = stakeraid.grade_cases(seed=2, count=12, time_limit=4)
    assert len(cases) == 12
    assert stakeraid.grade_cases(seed=2, count=3, time_limit=4) == cases[:3]
    assert cases[1]["kind"] == "stake_raid_tie"
    for case in cases:
        assert case["expected"] == stakeraid.solve_text(case["input"])
        p = Position.from_input(case["input"])
        assert len(case["root_values"]) == len(p.legal_moves())
        assert case["textbook_seconds"] <= 1.0


def test_verdicts_on_output_texts():
    assert stakeraid.judge_output(EXAMPLE, "B3 Stake\nX..\n...\n.O.\n")["failure"] is None
    spacing = stakeraid.judge_output(EXAMPLE, b"B3 Stake\r\nX..\r\n...\r\n.O.")
    assert spacing["failure"] == "spacing"
    assert spacing["verdict"]["differences"] == ["crlf", "no_final_newline"]
    tie = stakeraid.judge_output(TIE, "B1 Raid\nXX\n..\n")
    assert tie["failure"] == "wrong_move"
    assert tie["verdict"]["reproduced_by"] == ["last_tie", "raids_first"]
    illegal = stakeraid.judge_output(EXAMPLE, "A1 Stake\nX..\n...\n...\n")
    assert illegal["verdict"] == {
        "verdict": "illegal_move",
        "move": "A1 Stake",
        "reason": "A1 is taken",
    }
    with pytest.raises(ValueError, match="line 2"):
        stakeraid.judge_output("3\nMAXIMIN\n", "")


def test_a_tie_break_bug_shrinks_to_a_small_tie():
    result = stakeraid.shrink(homework("tie_break.py"), TIE, time_limit=4, max_runs=10)
    assert result["failure"] == "wrong_move"
    assert "raids_first" in result["shrunk"]["verdict"]["reproduced_by"]
    assert result["shrunk"]["size"]["n"] <= 2
    passing = stakeraid.shrink(homework("textbook.py"), TIE, time_limit=4)
    assert passing["failure"] is None and passing["shrunk"] is None


def test_a_whole_grade():
    report = stakeraid.grade(homework("textbook.py"), cases=4, time_limit=4, jobs=2)
    assert report["strict"]["points"] == 100
    assert [c["failure"] for c in report["cases"]] == [None] * 4
    report = stakeraid.grade(homework("wrong_name.py"), cases=2, time_limit=4, shrink_runs=0)
    assert report["strict"]["points"] == 0
    assert report["cases"][0]["verdict"] == {"verdict": "wrong_name", "found": "Output.txt"}


def test_a_relative_path_in_a_command_string_is_refused_and_a_list_resolves(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    with pytest.raises(ValueError, match="textbook.py names a file of the current folder"):
        stakeraid.grade(f"{sys.executable} -B textbook.py", cases=1)
    report = stakeraid.grade([sys.executable, "-B", "textbook.py"], cases=2, time_limit=4)
    assert report["strict"]["points"] == 100


def test_bad_use_is_a_value_error():
    with pytest.raises(ValueError, match="does not exist"):
        stakeraid.grade(["/no/such/program"])
    with pytest.raises(ValueError, match="time_limit"):
        stakeraid.grade(homework("textbook.py"), time_limit=-1)
    with pytest.raises(ValueError, match="cases"):
        stakeraid.grade(homework("textbook.py"), cases=0)
    with pytest.raises(ValueError, match="no case"):
        stakeraid.grade(homework("textbook.py"), cases_from=str(FIXTURES))
