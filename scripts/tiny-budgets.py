#!/usr/bin/env python3
"""Single COMPETITION moves on tiny budgets, charged as a tournament charges
them: boards 3x3 to 26x26, 0.02 s to 5 s left, each binary run with no
arguments in a folder holding input.txt, by turns, its CPU time (user +
system, wait4) held against its share (the search time the engine plans
plus the 20 ms it sets aside per move) and against the time left.

    scripts/tiny-budgets.py [--reps 3] NAME=BINARY [NAME=BINARY ...]

Prints, per binary, the moves, those over their share, the worst move over
its share and over the time left, and the median CPU of the moves with no
time to search (0.02 s left).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

OVERHEAD = 0.020
SIZES = (3, 4, 5, 6, 8, 12, 20, 26)
FILLS = (0.0, 0.5, 0.8)
LEFT = (0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


def share(empties, left):
    """The engine's planned search time plus its per-move overhead
    (src/engine/competition.rs, search_time)."""
    moves_left = max(1, (empties + 1) // 2)
    spendable = min(left, 3600.0) - OVERHEAD * moves_left
    if spendable <= 0:
        return OVERHEAD
    return spendable * min(3.0 / moves_left, 0.5) + OVERHEAD


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("binaries", nargs="+", metavar="NAME=BINARY")
    args = ap.parse_args()
    binaries = []
    for spec in args.binaries:
        name, _, path = spec.partition("=")
        binaries.append((name, os.path.abspath(path)))
    devnull = os.open(os.devnull, os.O_WRONLY)
    moves = {name: [] for name, _ in binaries}
    with tempfile.TemporaryDirectory() as folder:
        input_txt = os.path.join(folder, "input.txt")
        for size in SIZES:
            for fill in FILLS:
                for left in LEFT:
                    subprocess.run(
                        [binaries[0][1], "position", "--size", str(size), "--fill", str(fill),
                         "--seed", "2", "--mode", "COMPETITION", "--depth", str(left),
                         "-o", input_txt], check=True)
                    with open(input_txt) as f:
                        cells = f.read().split("\n")[4 + size:4 + 2 * size]
                    empties = sum(row.count(".") for row in cells)
                    if empties == 0:
                        continue
                    for _ in range(args.reps):
                        for name, path in binaries:
                            pid = _spawn_in(path, folder, devnull)
                            _, status, usage = os.wait4(pid, 0)
                            if status != 0:
                                sys.exit(f"tiny-budgets.py: {name} failed on {size}x{size}")
                            cpu = usage.ru_utime + usage.ru_stime
                            moves[name].append((cpu, share(empties, left), left))
    print(f"{'binary':<12} {'moves':>5} {'over_share':>10} {'max/share':>9} {'max/left':>8} "
          f"{'median_ms_at_0.02s':>18}")
    for name, played in moves.items():
        tiny = [cpu for cpu, _, left in played if left == LEFT[0]]
        print(f"{name:<12} {len(played):>5} {sum(c > s for c, s, _ in played):>10} "
              f"{max(c / s for c, s, _ in played):>9.3f} {max(c / l for c, _, l in played):>8.3f} "
              f"{statistics.median(tiny) * 1000:>18.3f}")


def _spawn_in(path, folder, devnull):
    """The program started with no arguments in `folder`, output discarded."""
    home = os.getcwd()
    os.chdir(folder)
    try:
        return os.posix_spawn(path, [path], os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    finally:
        os.chdir(home)


if __name__ == "__main__":
    main()
