"""Python's ``analyse_many`` on many tiny searches, against a loop of
``analyse`` calls on one thread: where a batch's own costs (copies, the
queue, threads started) show, since each search takes microseconds.

    python scripts/small-batch.py [--count N] [--depth D] [--rounds R] [--seed S]

N (10000) random 3x3 positions with 1 to 9 empty cells, each searched D
(2) plies deep in ALPHABETA. Each round times, by turns, the loop, the
batch with its defaults (one thread per core) and the batch on one
thread; prints each way's median of R (5) rounds and every round's time.
Run it with the interpreter whose stakeraid is measured (the release
wheel: ``scripts/python-overhead.sh`` builds it into
target/python-overhead/venv), on a quiet machine.
"""

import argparse
import pathlib
import random
import statistics
import sys
import time

import stakeraid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python" / "tests"))
from positions import random_position  # noqa: E402 (found on the path just set)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = [random_position(rng, 3, rng.randint(1, 9)) for _ in range(args.count)]
    depth = args.depth
    ways = {
        "loop": lambda: [stakeraid.analyse(p, depth=depth, threads=1) for p in positions],
        "analyse_many": lambda: stakeraid.analyse_many(positions, depth=depth),
        "analyse_many threads=1": lambda: stakeraid.analyse_many(positions, depth=depth, threads=1),
    }
    # The answers agree before anything is timed.
    expected = [(str(a.best), a.value) for a in ways["loop"]()]
    for name, way in ways.items():
        assert [(str(a.best), a.value) for a in way()] == expected, name
    times = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, way in ways.items():
            start = time.perf_counter()
            way()
            times[name].append(time.perf_counter() - start)
    print(f"{args.count} 3x3 positions, depth {depth}, medians of {args.rounds} rounds by turns")
    loop = statistics.median(times["loop"])
    for name, runs in times.items():
        median = statistics.median(runs)
        rounds = " ".join(f"{t:.3f}" for t in runs)
        print(f"{name:24} {median:.3f} s  {median / loop:.2f}x the loop's time  ({rounds})")


if __name__ == "__main__":
    main()
