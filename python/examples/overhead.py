"""The cost of one tiny ``stakeraid.analyse`` call from Python (2x2 empty
board, ALPHABETA depth 1, one thread), to compare with ``overhead.rs``;
with ``--input``, the nodes and time of one analysis of an input.txt on one
thread, printed as ``stakeraid analyse`` prints them.

python overhead.py [CALLS]
python overhead.py --input INPUT
"""

import statistics
import sys
import time

import stakeraid


def per_call_us(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) * 1e6 / calls


def deep(path):
    with open(path) as f:
        text = f.read()
    position = stakeraid.Position.from_input(text)
    depth = int(text.splitlines()[3])
    mode = text.splitlines()[1].strip()
    a = stakeraid.analyse(position, mode=mode, depth=depth, threads=1)
    print(f"{a.nodes} nodes, {a.time_us / 1e6:.3f} s")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--input":
        deep(sys.argv[2])
        return
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    position = stakeraid.Position([[1, 2], [3, 4]])
    analyse = stakeraid.analyse

    def call():
        return analyse(position, depth=1, threads=1)

    def call_and_read():
        a = analyse(position, depth=1, threads=1)
        return a.best, a.value, a.moves, a.pv

    for name, fn in (("analyse", call), ("analyse + read best/value/moves/pv", call_and_read)):
        fn()
        rounds = sorted(per_call_us(fn, calls) for _ in range(5))
        print(
            f"python {name} 2x2 depth 1 threads 1: median {statistics.median(rounds):.2f} us per call "
            f"(rounds {', '.join(f'{r:.2f}' for r in rounds)}; {calls} calls each)"
        )


if __name__ == "__main__":
    main()
