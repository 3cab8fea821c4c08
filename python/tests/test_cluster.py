"""Split solves on a local Ray instance: the same answer as the direct
solve at several split depths, with a task per job or an actor per node,
a worker that dies mid-job is replaced and the answer is unchanged, and a
driver started again on its store resumes. A batch of positions in chunks
answers each once, in order, though workers die mid-chunk."""

import json
import os
import random
import stat
import subprocess
import sys

import pytest
import stakeraid

ray = pytest.importorskip("ray") if not os.environ.get("CI") else __import__("ray")
from stakeraid import cluster  # noqa: E402

from conftest import random_position, run_killed_driver  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("seed", range(4))
def test_split_solve_equals_the_direct_solve(seed, tmp_path):
    rng = random.Random(seed)
    position = random_position(rng, 5, 12 + seed)
    depth = 12 + seed - (seed % 2)
    direct = stakeraid.analyse(position, depth=depth, threads=1)
    for split in (1, 2, 3):
        # Every proof of 12 plies or more handed on, where the nodes run
        # their jobs in one process each.
        per_node = (seed + split) % 2 == 1
        share = 1 if per_node and depth - split >= 12 else None
        answer = cluster.solve(position, depth, split=split, inline_plies=4, order_plies=4,
                               speculate=split == 2, ahead=split != 2, spare=split != 1,
                               store=str(tmp_path / f"s{split}.db"),
                               per_node=per_node, share_nodes=share)
        assert (answer["best"], answer["value"]) == (str(direct.best), direct.value), split
        assert answer["stats"]["done"] > 0
        assert (answer["stats"]["proofs"] > 0) == (share is not None), answer["stats"]


@pytest.mark.parametrize("seed", range(2))
def test_jobs_stopped_at_their_budget_give_the_direct_answer(seed):
    # A budget small enough that jobs on 15 and 16 empty cells stop, and
    # their children go out as jobs in their place.
    rng = random.Random(40 + seed)
    position = random_position(rng, 5, 15 + seed)
    direct = stakeraid.analyse(position, depth=15 + seed, threads=1)
    answer = cluster.solve(position, 15 + seed, split=1 + seed, inline_plies=4,
                           job_nodes=50_000)
    assert (answer["best"], answer["value"]) == (str(direct.best), direct.value)
    assert answer["stats"]["stopped"] > 0, "no job reached its budget"


def test_a_zero_job_budget_is_refused():
    position = random_position(random.Random(1), 4, 6)
    with pytest.raises(ValueError, match="job_nodes"):
        cluster.solve(position, 6, job_nodes=0)


def test_the_time_left_for_the_known_jobs():
    stats = dict(done=10, running=4, queued=16, seconds=5.0)
    assert cluster.known_left(stats) == pytest.approx(10.0)
    assert cluster.known_left(dict(stats, done=0)) is None


def test_a_node_runner_gives_up_its_jobs_running_or_queued():
    # Jobs of minutes each (6x6, 25 empty cells, one thread): only giving
    # them up brings them back in time. The node has two CPUs, so the third
    # job waits in the runner's queue and is given up before it starts.
    position = random_position(random.Random(3), 6, 25)
    grid = (position.values, position.cells, position.to_move)
    driver = stakeraid._core.SplitSolve(grid, None, split=1, speculate=True)
    jobs = driver.take_jobs(3)
    assert len(jobs) == 3
    runners = cluster._NodeRunners(ray, stakeraid.run_job)
    ids = [json.loads(job)["id"] for job in jobs]
    refs = [runners.submit(job, job_id, 0, 0) for job, job_id in zip(jobs, ids)]
    ray.wait(refs, num_returns=1, timeout=2.0)
    for ref, job_id in zip(reversed(refs), reversed(ids)):
        assert runners.give_up(ref, job_id)
    done, _ = ray.wait(refs, num_returns=3, timeout=60)
    assert len(done) == 3, "a job given up ran on"
    for ref in refs:
        assert json.loads(ray.get(ref))["value"] is None
        runners.release(ref)
    assert runners.room(4) == [4]


def test_jobs_given_up_leave_the_answer_unchanged(monkeypatch):
    # Speculation and tests asked ahead make jobs unneeded as results come
    # back: the per-node runner gives them up mid-search.
    given_up = []
    give_up = cluster._NodeRunners.give_up

    def counted(self, ref, job_id):
        given_up.append(job_id)
        return give_up(self, ref, job_id)

    monkeypatch.setattr(cluster._NodeRunners, "give_up", counted)
    for seed in range(3):
        position = random_position(random.Random(70 + seed), 5, 15)
        direct = stakeraid.analyse(position, depth=15, threads=1)
        answer = cluster.solve(position, 15, split=2, inline_plies=4, speculate=True,
                               ahead=True, in_flight=8)
        assert (answer["best"], answer["value"]) == (str(direct.best), direct.value), seed
    assert given_up, "no job was given up"


@pytest.mark.parametrize("per_node", [False, True], ids=["tasks", "per-node"])
def test_a_worker_killed_mid_job_is_replaced(tmp_path, per_node):
    position = random_position(random.Random(9), 5, 13)
    direct = stakeraid.analyse(position, depth=13, threads=1)
    marks = str(tmp_path)

    def dies_once(job, threads):
        # The first attempt of every third of the first twelve jobs kills
        # its worker process outright (a runner, with the jobs it held);
        # the job runs again in a new one. Four deaths are enough to show
        # it; each more only costs a worker's start.
        import json
        import os

        job_id = json.loads(job)["id"]
        mark = os.path.join(marks, f"job{job_id}")
        if job_id % 3 == 0 and job_id < 12 and not os.path.exists(mark):
            open(mark, "w").close()
            os._exit(1)
        return stakeraid.run_job(job, threads)

    answer = cluster.solve(position, 13, split=2, inline_plies=4, order_plies=4,
                           job_function=dies_once, per_node=per_node)
    killed = len(os.listdir(marks))
    assert killed > 0, "no worker was killed"
    assert (answer["best"], answer["value"]) == (str(direct.best), direct.value)


class _Cluster:
    """What ``_NodeRunners.release`` asks of Ray: the nodes alive."""

    def __init__(self, alive):
        self.alive = set(alive)

    def nodes(self):
        return [{"NodeID": node, "Alive": True} for node in self.alive]


def test_a_runner_lost_again_and_again_has_its_node_dropped():
    # Ray lists a node whose raylet died as alive for a while, and each
    # runner started there dies before its first call: after a few such
    # losses in a row the node's share goes to the others. A result in
    # between starts the count again; the last runner is never dropped
    # while its node is alive.
    runners = cluster._NodeRunners.__new__(cluster._NodeRunners)
    runners._ray = _Cluster({"a", "b"})
    runners._runners = [cluster._Runner("a", 1), cluster._Runner("b", 1)]
    runners._runner_of = {}
    runners._start = lambda runner: setattr(runner, "actor", object())
    for runner in runners._runners:
        runners._start(runner)

    def call(node, lost):
        runner = next(r for r in runners._runners if r.node == node)
        ref = object()
        runners._runner_of[ref] = (runner, runner.actor)
        runner.in_flight += 1
        runners.release(ref, lost=lost)

    for _ in range(2):
        call("a", True)
        call("a", True)
        call("a", False)
    assert [r.node for r in runners._runners] == ["a", "b"]
    for _ in range(cluster._NodeRunners.LOSSES_TO_DROP):
        call("a", True)
    assert [r.node for r in runners._runners] == ["b"]
    for _ in range(2 * cluster._NodeRunners.LOSSES_TO_DROP):
        call("b", True)
    assert [r.node for r in runners._runners] == ["b"]
    runners._ray.alive = {"a"}
    with pytest.raises(RuntimeError, match="every node the solve ran on was lost"):
        call("b", True)


def test_a_killed_driver_resumes_from_its_store(tmp_path):
    rng = random.Random(21)
    position = random_position(rng, 5, 15)
    direct = stakeraid.analyse(position, depth=15, threads=1)
    store = str(tmp_path / "resume.db")
    # The first driver runs as its own process and is killed after a few
    # results have reached the store.
    run_killed_driver(position, 15, store, split=3, inline_plies=4, order_plies=4, num_cpus=2)
    answer = cluster.solve(position, 15, split=3, inline_plies=4, order_plies=4, store=store)
    assert answer["stats"]["store_loaded"] > 0
    assert (answer["best"], answer["value"]) == (str(direct.best), direct.value)


def test_a_foreign_store_is_refused(tmp_path):
    store = str(tmp_path / "other.db")
    a = random_position(random.Random(1), 4, 8)
    b = random_position(random.Random(2), 4, 8)
    cluster.solve(a, 8, split=1, store=store)
    before = open(store, "rb").read()
    with pytest.raises(ValueError, match="other cell values"):
        cluster.solve(b, 8, split=1, store=store)
    assert open(store, "rb").read() == before


def test_the_command_line(tmp_path):
    position = random_position(random.Random(4), 5, 12)
    direct = stakeraid.analyse(position, depth=12, threads=1)
    path = tmp_path / "input.txt"
    path.write_text(position.to_input(depth=12))
    run = subprocess.run(
        [sys.executable, "-m", "stakeraid.cluster", "solve", str(path), "--store",
         str(tmp_path / "cli.db"), "--num-cpus", "2", "--split", "2", "--quiet",
         "--hint", f"{direct.best}={direct.value}"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines()[0] == f"{direct.best}  value {direct.value}"
    run = subprocess.run(
        [sys.executable, "-m", "stakeraid.cluster", "solve", str(path), "--hint", "C3 Stake"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert run.returncode == 2 and "MOVE=VALUE" in run.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("5\nCOMPETITION\nX\n10\n")
    run = subprocess.run([sys.executable, "-m", "stakeraid.cluster", "solve", str(bad)],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().startswith("stakeraid.cluster: line")


def test_the_command_line_writes_output_txt_and_no_returns_in_a_log(tmp_path):
    # As `stakeraid solve`: output.txt by default (or -o), and no progress
    # line rewritten with carriage returns where standard error is a file.
    position = random_position(random.Random(5), 4, 10)
    text = position.to_input(depth=10)
    expected = stakeraid.solve_text(text)
    (tmp_path / "input.txt").write_text(text)
    command = [sys.executable, "-m", "stakeraid.cluster", "solve", "input.txt", "--num-cpus", "2"]
    # As a user's shell starts it: no RAY_AUTH_MODE (this process's ray.init
    # left one behind), and Ray's note on it is not printed either.
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    with open(tmp_path / "log.txt", "w") as log:
        run = subprocess.run(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=log,
                             text=True, timeout=300, env=env)
    err = (tmp_path / "log.txt").read_text()
    assert run.returncode == 0, err[-2000:]
    assert "\r" not in err, err[:200]
    assert "Token authentication" not in err, err[-2000:]
    assert (tmp_path / "output.txt").read_text() == expected
    assert run.stdout.splitlines()[0].startswith(expected.splitlines()[0] + "  value ")
    run = subprocess.run(command + ["-o", "-"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == expected
    # A device is written in place, not replaced by a plain file.
    run = subprocess.run(command + ["-o", os.devnull], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    run = subprocess.run(command + ["-o", str(tmp_path / "missing" / "out.txt")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert run.stderr.startswith("stakeraid.cluster: writing "), run.stderr
    assert run.stderr.count("\n") == 1, run.stderr


def test_an_output_through_dev_stdout_reaches_a_pipe():
    # /dev/stdout links to /proc/self/fd/1, whose target names no path when
    # standard output is a pipe: the answer is written in place all the same.
    code = (
        "from stakeraid.cluster import _check_writable, _write_output\n"
        "_check_writable('/dev/stdout')\n"
        "_write_output('/dev/stdout', 'B3 Stake\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "B3 Stake\n"


def test_the_command_line_passes_speculate_on_and_off(tmp_path, monkeypatch):
    position = random_position(random.Random(6), 4, 6)
    path = tmp_path / "input.txt"
    path.write_text(position.to_input(depth=6))
    direct = stakeraid.analyse(position, depth=6, threads=1)
    asked = []

    def solved(position, depth, **options):
        asked.append(options["speculate"])
        return {"best": str(direct.best), "value": direct.value,
                "stats": {"done": 0, "nodes": 0, "from_store": 0, "seconds": 0.0}}

    monkeypatch.setattr(cluster, "solve", solved)
    for flag, expected in (([], None), (["--speculate"], True), (["--no-speculate"], False)):
        out = tmp_path / "output.txt"
        assert cluster.main(["solve", str(path), "-o", str(out), "--quiet", *flag]) == 0
        assert asked[-1] is expected


def test_a_batch_on_ray_answers_each_position_once_though_a_worker_dies(tmp_path):
    # Two chunks' first runs die half-way through, their worker process
    # with them; Ray runs them again, and every answer still comes back
    # once, in order, equal to the local batch's.
    rng = random.Random(75)
    positions = [random_position(rng, 4 + i % 3, 6 + i % 5) for i in range(48)]
    positions[13] = stakeraid.Position([[1, 2], [3, 4]], ["XO", "OX"])
    deaths = str(tmp_path)

    def dies_twice(chunk, **options):
        import os

        answers = stakeraid.analyse_many(chunk[:len(chunk) // 2], threads=1, errors="return",
                                         **options)
        for death in ("first", "second"):
            try:
                os.close(os.open(os.path.join(deaths, death), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                continue
            os._exit(1)
        return answers + stakeraid.analyse_many(chunk[len(chunk) // 2:], threads=1,
                                                errors="return", **options)

    answers = cluster.analyse_many(positions, depth=4, chunk_size=6, errors="return",
                                   chunk_function=dies_twice)
    assert sorted(os.listdir(deaths)) == ["first", "second"]
    local = stakeraid.analyse_many(positions, depth=4, threads=1, errors="return")
    assert len(answers) == len(positions)
    for i, (answer, alone) in enumerate(zip(answers, local)):
        if i == 13:
            assert type(answer) is ValueError and str(answer) == str(alone)
            continue
        assert type(answer) is stakeraid.Analysis, i
        got, expected = json.loads(answer.to_json()), json.loads(alone.to_json())
        del got["time_us"], expected["time_us"]
        assert got == expected, i
    with pytest.raises(stakeraid.BatchError, match="position 3: the board is full") as raised:
        cluster.analyse_many(positions[10:20], depth=2)
    assert raised.value.failed == [3]
    assert cluster.analyse_many([], depth=2) == []
    with pytest.raises(ValueError, match="chunk_size"):
        cluster.analyse_many(positions, depth=2, chunk_size=0)
