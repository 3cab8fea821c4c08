#!/usr/bin/env python3
"""The CPU time of short commands, run by turns so that a shared machine's
drift falls on all of them alike.

Each command runs --runs times in --dir, standard output discarded; its CPU
time (user + system) and minor page faults come from the operating system
(wait4), as a referee takes them. Prints, per command, the mean, median,
90th and 99th percentiles and maximum in milliseconds, the median page
faults, and how many runs took over 5 ms and 10 ms.

    scripts/cpu-ab.py [--runs 400] [--dir .] NAME=COMMAND [NAME=COMMAND ...]

A COMMAND is split on spaces; VAR=VALUE words before the program set its
environment (`"thp off=MIMALLOC_ALLOW_THP=0 ./stakeraid"`).
"""
import argparse
import os
import statistics
import sys


def parse(spec):
    name, _, command = spec.partition("=")
    words = command.split()
    env = dict(os.environ)
    while words and "=" in words[0] and not words[0].startswith(("/", ".")):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if not name or not words:
        sys.exit(f"cpu-ab.py: expected NAME=COMMAND, got {spec!r}")
    program = words[0] if "/" in words[0] else next(
        (os.path.join(d, words[0]) for d in env.get("PATH", "").split(":")
         if os.access(os.path.join(d, words[0]), os.X_OK)), words[0])
    return name, os.path.abspath(program) if "/" in program else program, words, env


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--dir", default=".")
    ap.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = ap.parse_args()
    commands = [parse(c) for c in args.commands]
    devnull = os.open(os.devnull, os.O_WRONLY)
    cpu = {name: [] for name, *_ in commands}
    faults = {name: [] for name, *_ in commands}
    home = os.getcwd()
    os.chdir(args.dir)
    try:
        for _ in range(args.runs):
            for name, program, argv, env in commands:
                pid = os.posix_spawn(program, argv, env,
                                     file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
                _, status, usage = os.wait4(pid, 0)
                if status != 0:
                    sys.exit(f"cpu-ab.py: {name} failed ({status})")
                cpu[name].append(usage.ru_utime + usage.ru_stime)
                faults[name].append(usage.ru_minflt)
    finally:
        os.chdir(home)
    width = max(len(name) for name in cpu)
    print(f"{'command':<{width}} {'runs':>5} {'mean_ms':>8} {'median_ms':>9} {'p90_ms':>7} "
          f"{'p99_ms':>7} {'max_ms':>7} {'minflt':>6} {'>5ms':>5} {'>10ms':>5}")
    for name, times in cpu.items():
        t = sorted(times)
        q = lambda f: t[min(len(t) - 1, int(f * len(t)))] * 1000
        print(f"{name:<{width}} {len(t):>5} {statistics.mean(t) * 1000:>8.3f} "
              f"{statistics.median(t) * 1000:>9.3f} {q(0.9):>7.3f} {q(0.99):>7.3f} "
              f"{t[-1] * 1000:>7.3f} {statistics.median(faults[name]):>6.0f} "
              f"{sum(x > 0.005 for x in t):>5} {sum(x > 0.010 for x in t):>5}")


if __name__ == "__main__":
    main()
