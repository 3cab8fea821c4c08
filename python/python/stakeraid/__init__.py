"""Exact solver and competition player for the Stake & Raid board game.

>>> import stakeraid
>>> p = stakeraid.Position([[1, 8, 23], [5, 42, 12], [26, 30, 9]], ["X..", "...", "..."], "O")
>>> str(stakeraid.analyse(p, depth=2).best)
'B3 Stake'

The search itself is the Rust library ``stakeraid`` (module
``stakeraid._core``); every search releases the interpreter while it runs.
``analyse_many`` answers a batch of positions, spread over the cores.
The PettingZoo environment is ``stakeraid.env`` (``pip install
"stakeraid[env]"``); deep solves on a Ray cluster are ``stakeraid.cluster``
(``pip install "stakeraid[ray]"``). ``stakeraid.grade`` grades a homework
program as ``stakeraid grade`` does.
"""

import json as _json
from collections.abc import Sequence as _Sequence
from typing import Any as _Any, Iterable as _Iterable, Literal as _Literal, Optional as _Optional
from typing import Union as _Union, overload as _overload

from ._core import (
    Analysis,
    BatchError,
    Move,
    Position,
    RootMove,
    SplitSolve,
    StopToken,
    __version__,
    analyse,
    analyse_batch,
    competition_move,
    grade_cases_json,
    grade_json,
    home_plies_for,
    judge_output_json,
    run_job,
    shrink_json,
    solve_text,
)


@_overload
def analyse_many(
    positions: "_Iterable[_Union[Position, str]]",
    mode: str = "ALPHABETA",
    depth: _Optional[int] = None,
    time: _Optional[float] = None,
    threads: int = 0,
    stop: _Optional[StopToken] = None,
    errors: '_Literal["raise"]' = "raise",
    table_budget: _Optional[int] = None,
) -> "list[Analysis]": ...
@_overload
def analyse_many(
    positions: "_Iterable[_Union[Position, str]]",
    mode: str = "ALPHABETA",
    depth: _Optional[int] = None,
    time: _Optional[float] = None,
    threads: int = 0,
    stop: _Optional[StopToken] = None,
    *,
    errors: '_Literal["return"]',
    table_budget: _Optional[int] = None,
) -> "list[_Union[Analysis, ValueError]]": ...
def analyse_many(
    positions: "_Iterable[_Union[Position, str]]",
    mode: str = "ALPHABETA",
    depth: _Optional[int] = None,
    time: _Optional[float] = None,
    threads: int = 0,
    stop: _Optional[StopToken] = None,
    errors: str = "raise",
    table_budget: _Optional[int] = None,
) -> "list[_Union[Analysis, ValueError]]":
    """Analyses every position of ``positions``, spread over ``threads``
    cores (0: every core), and returns one ``Analysis`` per position, in
    order.

    Each entry is a ``Position``, searched in ``mode`` to ``depth`` plies
    and/or for ``time`` seconds (with neither, to the end of the game), or
    the text of an ``input.txt``, searched in its own mode to its own depth
    (``time`` applies to it too). With at least as many positions as
    threads each is searched on one thread; fewer share the threads out.
    The tables of the searches in flight take at most ``table_budget``
    bytes together (default 1 GiB). The interpreter is released while the
    batch runs.

    ``stop``, a ``StopToken``, stops the whole batch: every position is
    still answered, a running search with its deepest completed depth and
    one not yet started with depth 1 (``stopped`` true, ``exact`` false).
    Ctrl-C stops it too, and raises ``KeyboardInterrupt``.

    A position that fails (a full board, a bad ``input.txt``, a
    COMPETITION question) does not stop the others: with
    ``errors="raise"`` a ``BatchError`` (a ``ValueError``) is raised once
    all are answered, carrying every answer in ``results``; with
    ``errors="return"`` the list holds that position's ``ValueError`` in
    its place. Bad arguments raise ``ValueError`` before any search."""
    return analyse_batch(
        positions,
        {"mode": mode, "depth": depth, "time": time},
        {"threads": threads, "table_budget": table_budget},
        stop,
        errors,
    )


def grade(
    command: _Union[str, _Sequence[str]],
    *,
    seed: int = 1,
    cases: _Optional[int] = None,
    cases_from: _Optional[str] = None,
    time_limit: float = 10.0,
    jobs: int = 0,
    shrink_runs: int = 60,
    expected: str = "engine",
    shrink_time: float = 60.0,
    sandbox: str = "auto",
    memory_mb: int = 1024,
    processes: int = 512,
) -> "dict[str, _Any]":
    """Grades a homework program the course's way, as ``stakeraid grade``:
    ``command`` is a shell command (a string) or a program and its arguments
    (a list). Returns the report of ``stakeraid grade --json`` as a dict:
    every case with its verdict, the ``strict`` and ``lenient`` scores, and
    the smallest failing input of each kind of failure (``shrunk``). A
    program that cannot run, or a bad setting, is a ``ValueError``. Where a
    ``cases_from`` folder's ``output.txt`` is not the textbook answer, the
    case is graded by the textbook answer (``expected="engine"``) or by the
    folder's file (``"folder"``); either way its ``dispute`` says so.
    On Linux the program runs in a sandbox (``sandbox``: ``"auto"``,
    ``"require"`` or ``"off"``), held to ``memory_mb`` and ``processes``;
    the report's ``sandbox`` says what was enforced."""
    return _json.loads(
        grade_json(
            command,
            (seed, cases, cases_from, expected),
            (time_limit, jobs, shrink_runs, shrink_time),
            (sandbox, memory_mb, processes),
        )
    )


def grade_cases(seed: int = 1, count: int = 50, time_limit: float = 10.0) -> "list[dict[str, _Any]]":
    """The cases ``grade`` draws from ``seed``: each with its ``input`` and
    ``expected`` texts, its ``kind``, ``size``, estimated textbook cost and
    every root move's exact value (``root_values``)."""
    return _json.loads(grade_cases_json(seed, count, time_limit))


def judge_output(input_text: str, output: _Union[bytes, str]) -> "dict[str, _Any]":
    """The verdict on an ``output.txt`` written for ``input_text``:
    ``{"failure": None or a kind such as "wrong_move", "verdict": {...}}``."""
    if isinstance(output, str):
        output = output.encode()
    return _json.loads(judge_output_json(input_text, output))


def shrink(
    command: _Union[str, _Sequence[str]],
    input_text: str,
    *,
    time_limit: float = 10.0,
    max_runs: int = 60,
    max_seconds: float = 60.0,
    sandbox: str = "auto",
    memory_mb: int = 1024,
    processes: int = 512,
) -> "dict[str, _Any]":
    """Runs the program on ``input_text`` (in a sandbox, as ``grade``);
    if it fails, searches for a smaller input failing the same way. Returns
    ``{"failure", "verdict", "shrunk"}`` (``shrunk`` is None for a pass)."""
    return _json.loads(
        shrink_json(
            command,
            input_text,
            time_limit,
            max_runs,
            max_seconds,
            (sandbox, memory_mb, processes),
        )
    )


__all__ = [
    "Analysis",
    "BatchError",
    "Move",
    "Position",
    "RootMove",
    "SplitSolve",
    "StopToken",
    "__version__",
    "analyse",
    "analyse_many",
    "competition_move",
    "grade",
    "grade_cases",
    "home_plies_for",
    "judge_output",
    "run_job",
    "shrink",
    "solve_text",
]
