"""A split solve on a Ray cluster of three nodes started as a user starts
one (``ray start --head``, then ``ray start --address ...`` for each other
node, all on loopback; the head with no CPU, the two others with one each,
so that every job runs on a node that can be stopped): a worker node
stopped in the middle of the solve (its raylet killed) leaves the answer
unchanged, the jobs it held run again on the node left; a driver killed
mid-solve and started again on the same store resumes to the same answer.
Both with a Ray task per job and with the per-node runners (an actor per
node), whose lost jobs the driver itself runs again."""

import os
import random
import signal
import socket
import subprocess
import sys
import time

import pytest
import stakeraid

ray = pytest.importorskip("ray") if not os.environ.get("CI") else __import__("ray")
from stakeraid import cluster  # noqa: E402

from conftest import random_position, run_killed_driver  # noqa: E402

RAY = os.path.join(os.path.dirname(sys.executable), "ray")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_start(home, *args, cpus=1):
    # The ports of every agent are named: nodes on one machine would
    # otherwise all ask for the same defaults. A home of its own: an auth
    # token left in ~/.ray by other work would make the head ask the
    # other nodes for it.
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    # The head finds a stopped node by its missed health checks: by
    # default five of them, 3 s apart, after 5 s. Here a node is stopped on
    # purpose, and the test waits for the cluster to see it go.
    env.update(RAY_health_check_initial_delay_ms="1000", RAY_health_check_period_ms="1000",
               RAY_health_check_timeout_ms="5000", RAY_health_check_failure_threshold="3")
    ports = [
        "--node-manager-port", str(free_port()),
        "--object-manager-port", str(free_port()),
        "--dashboard-agent-listen-port", str(free_port()),
        "--dashboard-agent-grpc-port", str(free_port()),
        "--runtime-env-agent-port", str(free_port()),
        "--metrics-export-port", str(free_port()),
    ]
    run = subprocess.run(
        [RAY, "start", "--num-cpus", str(cpus), "--node-ip-address", "127.0.0.1",
         "--disable-usage-stats", *ports, *args],
        capture_output=True, text=True, timeout=180, env={**env, "HOME": str(home)},
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return int(ports[1])


def forget_auth_mode():
    """Has this process read RAY_AUTH_MODE again. Ray keeps the mode it read
    at an earlier ray.init: this process's own gRPC server would then ask
    the cluster's GCS, which has no token, for one, refuse its calls, and
    the GCS, taking the driver for dead, would destroy every actor it
    creates before it starts ("Missing authorization header in request!"
    in the driver's log; the runners of per_node die "out of scope")."""
    from ray._raylet import AuthenticationTokenLoader, Config

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


@pytest.fixture(scope="module")
def three_nodes(tmp_path_factory):
    assert not ray.is_initialized()
    # ray.init of another test module leaves RAY_AUTH_MODE=token behind; a
    # cluster started as a user starts one has no token, nor its driver.
    auth = os.environ.pop("RAY_AUTH_MODE", None)
    forget_auth_mode()
    home = tmp_path_factory.mktemp("home")
    head = free_port()
    try:
        ray_start(home, "--head", "--port", str(head), "--include-dashboard", "false", cpus=0)
        workers = [ray_start(home, "--address", f"127.0.0.1:{head}") for _ in range(2)]

        def start_worker():
            return ray_start(home, "--address", f"127.0.0.1:{head}")

        yield f"127.0.0.1:{head}", workers, start_worker
    finally:
        if ray.is_initialized():
            ray.shutdown()
        subprocess.run([RAY, "stop", "--force"], capture_output=True, timeout=120)
        if auth is not None:
            os.environ["RAY_AUTH_MODE"] = auth
            forget_auth_mode()


def raylet_pids(node_manager_port):
    """The process ids of the raylet listening on ``node_manager_port``."""
    out = subprocess.run(["pgrep", "-f", f"raylet.*--node_manager_port={node_manager_port}"],
                         capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in out]


def started_on(marks):
    """A job function that notes, in the folder ``marks``, the node each
    job starts on, then runs it."""

    def run(job, threads):
        import json
        import os

        import ray
        import stakeraid

        node = ray.get_runtime_context().get_node_id()
        with open(os.path.join(marks, f"{node}-{json.loads(job)['id']}"), "w"):
            pass
        return stakeraid.run_job(job, threads)

    return run


RUNNERS = pytest.mark.parametrize("per_node", [False, True], ids=["tasks", "per-node"])


@RUNNERS
def test_a_driver_killed_mid_solve_resumes_on_the_cluster(three_nodes, tmp_path, per_node):
    # Before the node is stopped below: two nodes run the jobs here.
    address, _, _ = three_nodes
    position = random_position(random.Random(32), 5, 16)
    direct = stakeraid.analyse(position, depth=16, threads=1)
    store = str(tmp_path / "resume.db")
    # The first driver is a process of its own on the cluster, killed once
    # a few results have reached the store.
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    run_killed_driver(position, 16, store, env=env, split=2, inline_plies=4, order_plies=4,
                      address=address, per_node=per_node)
    try:
        answer = cluster.solve(position, 16, split=2, inline_plies=4, order_plies=4,
                               store=store, address=address, per_node=per_node)
    finally:
        ray.shutdown()
    assert answer["stats"]["store_loaded"] > 0
    assert (answer["best"], answer["value"]) == (str(direct.best), direct.value)


@RUNNERS
def test_a_worker_node_stopped_mid_solve_changes_no_answer(three_nodes, tmp_path, per_node):
    address, workers, start_worker = three_nodes
    # A worker node stopped by the test of the other runner is replaced.
    for k, port in enumerate(workers):
        if not raylet_pids(port):
            workers[k] = start_worker()
    position = random_position(random.Random(31), 5, 16)
    direct = stakeraid.analyse(position, depth=16, threads=1)
    ray.init(address=address, include_dashboard=False, log_to_driver=False)
    cpus = ray.cluster_resources().get("CPU", 0)
    marks = str(tmp_path)
    stopped = []

    def stop_the_node_once_it_works(stats):
        # The first worker node seen running a job is stopped while it
        # holds it: that job must run again on the other.
        if stopped:
            return
        # Asked each time: a node can be missing from the first answers.
        port_of = {n["NodeID"]: n["NodeManagerPort"] for n in ray.nodes()}
        for name in os.listdir(marks):
            port = port_of.get(name.rsplit("-", 1)[0])
            if port in workers:
                pids = raylet_pids(port)
                assert len(pids) == 1, pids
                os.kill(pids[0], signal.SIGKILL)
                stopped.append(port)
                return

    try:
        answer = cluster.solve(position, 16, split=2, inline_plies=4, order_plies=4,
                               address=address, progress=stop_the_node_once_it_works,
                               job_function=started_on(marks), per_node=per_node)
        assert stopped, "no job ran on a worker node before the solve ended"
        if per_node:
            # Each node's runner runs on its node, none on the head, which
            # has no CPU to run jobs.
            heads = {n["NodeID"] for n in ray.nodes()
                     if "node:__internal_head__" in n.get("Resources", {})}
            ran_on = {name.rsplit("-", 1)[0] for name in os.listdir(marks)}
            assert heads and not ran_on & heads, (heads, ran_on)
        assert (answer["best"], answer["value"]) == (str(direct.best), direct.value)
        # The cluster saw the node go.
        deadline = time.monotonic() + 90
        while ray.cluster_resources().get("CPU", 0) != cpus - 1 and time.monotonic() < deadline:
            time.sleep(1)
        assert ray.cluster_resources().get("CPU", 0) == cpus - 1, ray.cluster_resources()
    finally:
        ray.shutdown()
