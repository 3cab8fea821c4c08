#!/usr/bin/env python3
"""The split-solve simulator against real Ray runs on this machine.

    target/python-test/venv/bin/python scripts/simulator-check.py INPUT SPLIT [REPEAT]

Needs the release build of the simulator example
(``cargo build --release --example split_speedup``) and the Python package
with its ray extra (``scripts/python-test.sh`` installs both into
target/python-test/venv). Runs, REPEAT times each (default 1), in turn:

1. a local Ray instance of 2 CPUs (``ray.init(num_cpus=2)``), a task per
   job (each worker a process with its own table);
2. the same with ``per_node=True`` (one actor, its two threads sharing a
   table);
3. a cluster of three nodes started as a user starts one, all on loopback:
   ``ray start --head --num-cpus 0`` (the driver's node, no workers) and
   two ``ray start --address ... --num-cpus 1``: 2 workers on 2 cores, a
   task per job;
4. the same cluster with a runner per node, each node's costly proofs
   handed on to the other (``share_nodes``, SHARE nodes, default
   1000000): two tables, each told what the other proved;

each measuring first a Ray call's latency (a task, or an actor's method,
that does nothing, sent and waited for 200 times in a row: what a job
spends outside its search),
then the split solve (``stakeraid.cluster.solve``, the default settings,
or those SETTINGS names: any of ``--ahead``, ``--spare`` and ``--job-nodes
N``, as the simulator takes them, and ``--speculate``, which the solve
otherwise leaves off on 2 CPUs; ``SETTINGS="--ahead --spare"`` with the
shared proofs is what ``scripts/scaling.sh`` recommends), summing the time
its jobs took where they ran (a cancelled job's time is not known there).
Then the simulator predicts each from its own jobs' durations
(``split_speedup --per-table K --latency-us`` the latency measured there,
K the workers sharing a table) and the script prints measured against
predicted wall, and the jobs' summed time in both: where the workers share
the machine with the cluster's own processes, as all of them do here, a
job takes longer than the simulator's, which runs one at a time.
Nothing else should run meanwhile.

More knobs, all optional: LOCAL_CPUS (default 2), the CPUs of the local
instance, so also its workers: the per-node actor's threads share one
table, so 16 on this machine's 2 cores are 16 jobs at a time on one
table, each at about an eighth of a core; SETUPS, which of the four to run
(``SETUPS=2,4``); NODE_CLOCK, the simulator's node clock (``--node-clock``)
at that many nodes a microsecond, or at the measured jobs' own pace
(``NODE_CLOCK=jobs``: their nodes over their time, as they ran, sharing
the cores); SIMULATOR, other builds of the simulator to predict with,
separated by commas (each run is predicted by each, its rows marked #1,
#2, ...).
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import ray
import stakeraid
from stakeraid import cluster

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMULATORS = (os.environ.get("SIMULATOR") or os.path.join(
    REPO, "target", "release", "examples", "split_speedup")).split(",")
RAY = os.path.join(os.path.dirname(sys.executable), "ray")
SHARE = int(os.environ.get("SHARE", "1000000"))


def settings(words):
    """SETTINGS as keyword arguments of ``cluster.solve``."""
    kwargs, words = {}, iter(words.split())
    for word in words:
        if word in ("--ahead", "--spare", "--speculate"):
            kwargs[word[2:]] = True
        elif word == "--job-nodes":
            n = next(words, "")
            if not n.isdigit() or int(n) == 0:
                sys.exit(f"SETTINGS: --job-nodes needs a count of nodes above 0, not {n!r}")
            kwargs["job_nodes"] = int(n)
        else:
            sys.exit(f"SETTINGS: {word!r} is not one of --ahead, --spare, --speculate, "
                     "--job-nodes N")
    return kwargs


SETTINGS = os.environ.get("SETTINGS", "")
KWARGS = settings(SETTINGS)
LOCAL_CPUS = os.environ.get("LOCAL_CPUS", "2")
if not LOCAL_CPUS.isdigit() or int(LOCAL_CPUS) == 0:
    sys.exit(f"LOCAL_CPUS: a count of CPUs above 0, not {LOCAL_CPUS!r}")
LOCAL_CPUS = int(LOCAL_CPUS)
SETUPS = os.environ.get("SETUPS", "1,2,3,4").split(",")
if not all(k in ("1", "2", "3", "4") for k in SETUPS):
    sys.exit(f"SETUPS: setups 1 to 4 separated by commas, not {','.join(SETUPS)!r}")
SETUPS = [int(k) for k in SETUPS]
NODE_CLOCK = os.environ.get("NODE_CLOCK", "")
if NODE_CLOCK and NODE_CLOCK != "jobs" and not NODE_CLOCK.isdigit():
    sys.exit(f"NODE_CLOCK: nodes a microsecond, or jobs, not {NODE_CLOCK!r}")


def latency_us(per_node):
    """A call that does nothing, as the solve makes its calls: a task, or
    an actor's method."""
    if per_node:
        @ray.remote(num_cpus=0, max_concurrency=2)
        class Nothing:
            def run(self, job):
                return job

        call = Nothing.remote().run.remote
    else:
        @ray.remote(num_cpus=1, scheduling_strategy="SPREAD")
        def nothing(job):
            return job

        call = nothing.remote
    ray.get([call("") for _ in range(4)])  # workers started
    start = time.perf_counter()
    for _ in range(200):
        ray.get(call('{"id": 1}'))
    return (time.perf_counter() - start) / 200 * 1e6


def timed_jobs(folder):
    """A job function that runs each job as the solve does and appends its
    measured time (microseconds) and nodes to a file of its process in
    ``folder``: the job time the cluster really spent, beside the
    simulator's. It takes the runner's stop token, as ``run_job`` does, so
    that a runner per node gives up the jobs made unneeded."""

    def run(job, threads, stop=None):
        import json
        import os

        result = stakeraid.run_job(job, threads, stop=stop)
        answer = json.loads(result)
        try:
            with open(os.path.join(folder, str(os.getpid())), "a") as f:
                f.write(f"{answer['micros']} {answer['nodes']}\n")
        except FileNotFoundError:
            pass  # a job still running when the solve ended: the folder is gone
        return result

    return run


def solve(position, depth, split, per_node, share):
    folder = tempfile.mkdtemp(prefix="simcheck-jobs-")
    start = time.perf_counter()
    answer = cluster.solve(position, depth, split=split, per_node=per_node,
                           share_nodes=share, job_function=timed_jobs(folder), **KWARGS)
    wall = time.perf_counter() - start
    micros = nodes = 0
    for name in os.listdir(folder):
        with open(os.path.join(folder, name)) as f:
            for line in f:
                m, n = line.split()
                micros, nodes = micros + int(m), nodes + int(n)
    shutil.rmtree(folder)
    return wall, micros / 1e6, nodes / max(micros, 1), answer


def forget_auth_mode():
    """Has this process read ``RAY_AUTH_MODE`` again: the local instance of
    the setups before sets it to ``token`` and Ray keeps what it read, so
    the driver of the three-node cluster, started without a token, would
    refuse the GCS's calls, and the GCS destroy its runners."""
    from ray._raylet import AuthenticationTokenLoader, Config

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_start(home, cpus, *args):
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    ports = []
    for flag in ("--node-manager-port", "--object-manager-port",
                 "--dashboard-agent-listen-port", "--dashboard-agent-grpc-port",
                 "--runtime-env-agent-port", "--metrics-export-port"):
        ports += [flag, str(free_port())]
    subprocess.run(
        [RAY, "start", "--num-cpus", str(cpus), "--node-ip-address", "127.0.0.1",
         "--disable-usage-stats", *ports, *args],
        check=True, capture_output=True, timeout=180, env={**env, "HOME": home},
    )


def simulate(simulator, input_path, split, latency, workers, per_table, share, pace):
    sharing = ["--share-nodes", str(share)] if share else []
    clock = []
    if NODE_CLOCK:
        per_us = pace if NODE_CLOCK == "jobs" else int(NODE_CLOCK)
        clock = ["--node-clock", str(max(1, round(per_us))), "--cores", "2"]
    # The simulator takes speculation as a switch's value, the solve as a flag.
    words = [w for w in SETTINGS.split() if w != "--speculate"]
    speculate = "on" if KWARGS.get("speculate") else "off"
    out = subprocess.run(
        [simulator, input_path, str(split), "--per-table", str(per_table), "--latency-us",
         str(round(latency)), "--speculate", speculate, *sharing, *clock, *words,
         str(workers)],
        check=True, capture_output=True, text=True,
    ).stdout
    lines = out.splitlines()
    # Columns by the header's names: the example may print more of them.
    names = next(line.split() for line in lines if line.startswith("speculate"))
    row = dict(zip(names, next(line.split() for line in lines
                               if line.startswith(("true", "false")))))
    return float(row["wall_s"]), float(row["work_s"]), int(row["jobs"]), int(row["nodes"])


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    input_path, split = sys.argv[1], int(sys.argv[2])
    repeat = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    text = open(input_path, encoding="utf-8").read()
    position = stakeraid.Position.from_input(text)
    depth = int(text.splitlines()[3])
    start = time.perf_counter()
    direct = stakeraid.analyse(position, depth=depth, threads=1)
    print(f"settings: {SETTINGS or 'the defaults'}; local CPUs {LOCAL_CPUS}; "
          f"node clock {NODE_CLOCK or 'none (measured)'}; simulators {SIMULATORS}")
    print(f"direct one-thread solve: {direct.best} {direct.value}, {direct.nodes} nodes, "
          f"{time.perf_counter() - start:.2f} s")
    rows = []
    for _ in range(repeat):
        setups = (f"local Ray, {LOCAL_CPUS} CPUs", f"local Ray, {LOCAL_CPUS} CPUs, per node",
                  "3 nodes: head 0 CPUs + 2 x 1 CPU", "3 nodes, per node, shared proofs")
        for setup in (setups[k - 1] for k in SETUPS):
            per_node = "per node" in setup
            share = SHARE if setup.endswith("shared proofs") else None
            home = tempfile.mkdtemp(prefix="simcheck-")
            auth = os.environ.pop("RAY_AUTH_MODE", None)
            forget_auth_mode()
            try:
                if setup.startswith("local"):
                    ray.init(num_cpus=LOCAL_CPUS, include_dashboard=False, log_to_driver=False)
                else:
                    head = free_port()
                    ray_start(home, 0, "--head", "--port", str(head), "--include-dashboard", "false")
                    for _ in range(2):
                        ray_start(home, 1, "--address", f"127.0.0.1:{head}")
                    ray.init(address=f"127.0.0.1:{head}", include_dashboard=False,
                             log_to_driver=False)
                lat = latency_us(per_node)
                wall, work, pace, answer = solve(position, depth, split, per_node, share)
            finally:
                ray.shutdown()
                if not setup.startswith("local"):
                    subprocess.run([RAY, "stop", "--force"], capture_output=True, timeout=120,
                                   env={**os.environ, "HOME": home})
                if auth is not None:
                    os.environ["RAY_AUTH_MODE"] = auth
            assert (answer["best"], answer["value"]) == (str(direct.best), direct.value), answer
            # A table per process: the local actor's threads share one,
            # each node of the three-node cluster has one CPU.
            local = setup.startswith("local")
            workers = LOCAL_CPUS if local else 2
            per_table = LOCAL_CPUS if per_node and local else 1
            print(f"{setup}: the jobs ran at {pace:.1f} nodes a microsecond", flush=True)
            for k, simulator in enumerate(SIMULATORS, 1):
                predicted, swork, jobs, nodes = simulate(simulator, input_path, split, lat,
                                                         workers, per_table, share, pace)
                label = setup if len(SIMULATORS) == 1 else f"{setup} #{k}"
                rows.append((label, lat, wall, work, answer["stats"]["done"],
                             answer["stats"]["nodes"], predicted, swork, jobs, nodes))
                print(json.dumps(rows[-1]), flush=True)
    print()
    # work: the jobs' summed time, measured in the cluster's workers and in
    # the simulator (which runs one job at a time on an idle machine).
    print("setup                              latency_us  measured_s  work_s  jobs  nodes        "
          "predicted_s  work_s  jobs  nodes        predicted/measured  work")
    for setup, lat, wall, work, jobs, nodes, predicted, swork, sjobs, snodes in rows:
        print(f"{setup:34} {lat:10.0f}  {wall:10.2f}  {work:6.2f}  {jobs:4}  {nodes:11}"
              f"  {predicted:11.2f}  {swork:6.2f}  {sjobs:4}  {snodes:11}"
              f"  {predicted / wall:18.2f}  {swork / work:.2f}")
    for setup in dict.fromkeys(r[0] for r in rows):
        ratios = [r[6] / r[2] for r in rows if r[0] == setup]
        print(f"median predicted/measured, {setup}: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
