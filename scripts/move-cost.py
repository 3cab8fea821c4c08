#!/usr/bin/env python3
"""The fixed CPU cost of one COMPETITION move of the stakeraid process.

Runs the release binary the way a tournament does (input.txt in the working
directory, output.txt written), with no time left, so that no search is
made: what is measured is start-up, reading, the quickest move, writing
and exit. CPU time (user + system) comes from the operating system
(wait4), as a referee takes it. Prints median, 90th and 99th percentiles
and the maximum per board, in milliseconds.

    scripts/move-cost.py [--runs 300] [--binary target/release/stakeraid]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--binary", default="target/release/stakeraid")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    devnull = os.open(os.devnull, os.O_WRONLY)
    print(f"{'board':>12} {'runs':>5} {'median_ms':>10} {'p90_ms':>8} {'p99_ms':>8} {'max_ms':>8}")
    for size, fill in [(3, 0.0), (12, 0.0), (12, 0.5), (26, 0.0), (26, 0.5)]:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(
                [binary, "position", "--size", str(size), "--fill", str(fill),
                 "--mode", "COMPETITION", "--depth", "0", "-o", os.path.join(d, "input.txt")],
                check=True)
            times = []
            for _ in range(args.runs):
                cwd = os.getcwd()
                os.chdir(d)
                try:
                    pid = os.posix_spawn(binary, [binary], os.environ,
                                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
                finally:
                    os.chdir(cwd)
                _, status, usage = os.wait4(pid, 0)
                if status != 0:
                    sys.exit(f"{binary} failed on a {size}x{size} board")
                times.append(usage.ru_utime + usage.ru_stime)
            times.sort()
            q = lambda f: times[min(len(times) - 1, int(f * len(times)))] * 1000
            print(f"{size}x{size} f{fill:<4} {len(times):>5} {statistics.median(times) * 1000:>10.2f} "
                  f"{q(0.9):>8.2f} {q(0.99):>8.2f} {times[-1] * 1000:>8.2f}")


if __name__ == "__main__":
    main()
