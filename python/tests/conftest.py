"""Shared helpers: the golden case corpus beside the repository, the
three worked examples of the assignment, random positions, and a split
solve's driver killed mid-solve."""

import os
import pathlib
import subprocess
import sys

import pytest
import stakeraid
from positions import random_position  # noqa: F401 (the tests take it from here)

REPO = pathlib.Path(__file__).resolve().parents[2]
CASES = pathlib.Path(os.environ.get("STAKERAID_CASES", REPO.parent / "shared" / "cases"))

SPEC_EXAMPLES = [
    (
        "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n",
        "B3 Stake\nX..\n...\n.O.\n",
    ),
    (
        (
            "5\nMINIMAX\nX\n1\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n"
            "25 30 23 21 10\n..XX.\n..XOX\n...O.\n..OO.\n.....\n"
        ),
        "B3 Stake\n..XX.\n..XOX\n.X.O.\n..OO.\n.....\n",
    ),
    (
        (
            "5\nALPHABETA\nX\n4\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n"
            "25 30 23 21 10\n..XX.\n..XOX\n...O.\n..OO.\n.....\n"
        ),
        "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n",
    ),
]


def case_dirs():
    """Every case folder holding input.txt and output.txt, sorted. Skips the
    calling test when the corpus is absent, and fails it under CI, where the
    corpus is always checked out beside the repository, in one line naming
    the folder (as the Rust tests do)."""
    dirs = []
    if CASES.is_dir():
        dirs = sorted(
            d for d in CASES.iterdir()
            if (d / "input.txt").is_file() and (d / "output.txt").is_file()
        )
    if not dirs:
        is_not = "holds no case folders" if CASES.is_dir() else "is not there"
        named = "STAKERAID_CASES" if "STAKERAID_CASES" in os.environ else "../shared/cases"
        if os.environ.get("CI"):
            pytest.fail(
                f"CI is set and the golden cases' folder {named} ({CASES.resolve()}) {is_not}: "
                "this test needs it",
                pytrace=False,
            )
        pytest.skip(f"the golden cases' folder {named} ({CASES.resolve()}) {is_not}")
    return dirs


def normalized(text):
    """Expected output as the grader compares it: no CR, one final newline."""
    text = text.replace("\r", "")
    while text.endswith("\n\n"):
        text = text[:-1]
    if not text.endswith("\n"):
        text += "\n"
    return text



def run_killed_driver(position, depth, store, env=None, **solve_args):
    """Runs ``cluster.solve`` of ``position`` on ``store`` as a process of
    its own, killed once five results have reached the store; checks that
    it was killed there."""
    args = "".join(f", {k}={v!r}" for k, v in solve_args.items())
    script = (
        "import os, stakeraid\n"
        "from stakeraid import cluster\n"
        f"p = stakeraid.Position.from_input({position.to_input(depth=depth)!r})\n"
        "def stop(stats):\n"
        "    if stats['done'] >= 5: os._exit(9)\n"
        f"cluster.solve(p, {depth}, store={store!r}, progress=stop{args})\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300,
                         env=env)
    assert run.returncode == 9, run.stderr.decode()[-2000:]
