"""Ctrl-C (SIGINT) during a search raises KeyboardInterrupt promptly, and the
interpreter and the library go on working afterwards."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

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
    ],
)
def test_ctrl_c_interrupts_a_search(call):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(call=call)],
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
