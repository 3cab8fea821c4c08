"""Ctrl-C (SIGINT) during a search raises KeyboardInterrupt promptly, and the
interpreter and the library go on working afterwards."""

import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import textwrap
import time

import pytest


def sigint_as_from_a_terminal():
    # A child of a process started in the background (`cmd &` in a script)
    # inherits SIGINT ignored, and Python then installs no KeyboardInterrupt
    # handler: the children here start as a program run from a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# A child that starts a search far longer than any test, reports it, and on
# KeyboardInterrupt proves that the library still answers.
CHILD = textwrap.dedent(
    """
    import sys
    import stakeraid

    values = [[(r * 7 + c) * 37 % 97 + 1 for c in range(7)] for r in range(7)]
    big = stakeraid.Position(values, None, "X")
    small = stakeraid.Position([[1, 8, 23], [5, 42, 12], [26, 30, 9]], ["X..", "...", "..."], "O")
    print("searching", flush=True)
    try:
        {call}
    except KeyboardInterrupt:
        print("interrupted", stakeraid.analyse(small, depth=2, threads=1).best, flush=True)
        sys.exit(0)
    print("finished", flush=True)
    sys.exit(1)
    """
)

BIG_INPUT = "7\\nALPHABETA\\nX\\n19\\n" + "".join(
    " ".join(str((r * 7 + c) * 37 % 97 + 1) for c in range(7)) + "\\n" for r in range(7)
) + ".......\\n" * 7


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize(
    "call",
    [
        "stakeraid.analyse(big, depth=19, threads=1)",
        "stakeraid.analyse(big, depth=19, threads=2, stop=stakeraid.StopToken())",
        f'stakeraid.solve_text("{BIG_INPUT}", threads=1)',
        # COMPETITION: a share of 1000 s for this move, far past the signal.
        "stakeraid.competition_move(big, 1000.0, 1)",
        'stakeraid.solve_text(big.to_input("COMPETITION", seconds=1000.0), threads=1)',
        "stakeraid.run_job(stakeraid.SplitSolve(([[5] * 7] * 7, ['.......'] * 7, 'X'),"
        " depth=19, split=2).take_jobs(1)[0])",
        "stakeraid.analyse_many([big] * 50, depth=19)",
    ],
)
def test_ctrl_c_interrupts_a_search(call):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(call=call)],
        preexec_fn=sigint_as_from_a_terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "searching\n", child.stderr.read()
        time.sleep(1)
        assert child.poll() is None, "the search ended by itself: the position is too easy"
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        # A generous margin: the point is seconds against hours.
        out, err = child.communicate(timeout=15)
        waited = time.monotonic() - sent
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 0, f"exit {child.returncode}\nstdout: {out}\nstderr: {err}"
    assert out == "interrupted B3 Stake\n"
    assert waited < 5, f"KeyboardInterrupt came {waited:.1f} s after SIGINT"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_ctrl_c_on_the_cluster_command_seals_the_store_in_one_line(tmp_path):
    # As `stakeraid solve --store` does: the store sealed (no log beside
    # it), one line saying what it keeps, no output file, and the process
    # ended by the signal (a shell sees 130), not a traceback and status 1.
    pytest.importorskip("ray")
    from conftest import random_position

    # 21 empty cells to the end: far longer than the test waits.
    position = random_position(random.Random(3), 5, 21)
    path = tmp_path / "deep.txt"
    path.write_text(position.to_input(depth=21))
    store = tmp_path / "deep.db"
    child = subprocess.Popen(
        [sys.executable, "-m", "stakeraid.cluster", "solve", str(path), "--store", str(store),
         "--num-cpus", "2"],
        cwd=tmp_path,
        preexec_fn=sigint_as_from_a_terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The store is made once Ray is up, just before the first jobs.
        waited = time.monotonic()
        while not store.exists():
            assert child.poll() is None, child.communicate()
            assert time.monotonic() - waited < 120, "no store after two minutes"
            time.sleep(0.1)
        time.sleep(2)
        assert child.poll() is None, "the solve ended by itself: the position is too easy"
        os.kill(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGINT, f"exit {child.returncode}\n{err}"
    # Ray's own log lines (a date, a level, a file) are Ray's to print.
    ours = [line for line in err.splitlines() if not re.match(r"\d{4}-\d\d-\d\d [\d:,]+\t", line)]
    assert len(ours) == 1, err
    assert ours[0].startswith(
        f"stakeraid.cluster: stopped by SIGINT, no output written: the store {store} keeps "
    ), err
    assert "the same command resumes" in ours[0], err
    assert out == ""
    assert not (tmp_path / "output.txt").exists()
    for log in ("-wal", "-shm"):
        assert not pathlib.Path(f"{store}{log}").exists(), f"{log} left beside the store"


def test_what_a_sealed_store_keeps_is_counted_in_agreement():
    from stakeraid.cluster import Interrupted

    assert Interrupted("s.db", 1).kept() == (
        "the store s.db keeps 1 position proved so far, and the same command resumes from there")
    assert "keeps 12 positions proved so far" in Interrupted("s.db", 12).kept()
