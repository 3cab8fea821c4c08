"""A search's table costs memory only as the search fills it, as in the
command line: an analysis stopped at once stays small however large a
table its depth would give it, and so does the next one."""

import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import resource
    import stakeraid

    values = [[(r * 7 + c) * 37 % 97 + 1 for c in range(7)] for r in range(7)]
    big = stakeraid.Position(values, None, "X")
    stop = stakeraid.StopToken()
    stop.stop()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # 40 plies: the largest table the library gives a search (1 GiB).
    # A second such search gets a new table: fresh pages, not the first
    # one's cleared by hand, every page touched.
    for _ in range(2):
        a = stakeraid.analyse(big, depth=40, threads=1, stop=stop)
        assert a.stopped and a.depth == 1
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB is Linux's")
def test_an_unfilled_table_is_not_resident():
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    grown_mib = int(out) / 1024
    assert grown_mib < 128, f"the search's peak memory grew by {grown_mib:.0f} MiB"
