"""Deep solves and batches on a Ray cluster. A deep solve (``solve``) is
cut into jobs (null-window tests of positions a few plies below the root),
Ray runs them on every CPU of the cluster, and the driver here takes their
results back in any order. A batch of positions (``analyse_many``) is cut
into chunks, a Ray task each, answered in order.

    python -m stakeraid.cluster solve INPUT --store FILE [-o OUTPUT] [--address ADDR]

With no address a local Ray instance is started, so the same command runs
on a laptop and on a cluster (``--address auto`` joins the one this
machine belongs to). A local instance started here uses Ray's token
authentication, its default, chosen explicitly (``RAY_AUTH_MODE=token``,
the token in ``~/.ray/auth_token``) so that Ray does not warn of it on
every run: set ``RAY_AUTH_MODE`` to choose otherwise. Each node runs its
jobs in one process, a thread per CPU, sharing one table (``--per-task``
for a Ray task per job instead).
Every proven bound goes into the store file as it arrives: the driver can
be killed and started again with the same command, and it resumes; a job
whose process or node is lost runs again on the others.
Ctrl-C seals the store and says, in one line, what it keeps.

Needs the ``ray`` extra: ``pip install "stakeraid[ray]"``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import os
import secrets
import signal
import stat
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _core
from . import analyse_many as _local_analyse_many
from ._core import Position

__all__ = ["Interrupted", "analyse_chunk", "analyse_many", "default_split", "solve", "main"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``solve``, after its store was sealed (its log folded
    into the file, none left beside it): a ``KeyboardInterrupt`` that says
    what the store keeps. ``store`` is its path (None without one),
    ``positions`` how many positions it keeps, or None where it could not
    be sealed (``error`` says why; the next solve replays its log)."""

    def __init__(self, store: Optional[str], positions: Optional[int],
                 error: Optional[str] = None) -> None:
        super().__init__(store, positions, error)
        self.store = store
        self.positions = positions
        self.error = error

    def kept(self) -> str:
        """What the store keeps and how to resume, in words."""
        if self.store is None:
            return "nothing is kept (no --store)"
        if self.positions is None:
            return (f"the store {self.store} could not be closed cleanly ({self.error});"
                    " the next run replays its log")
        proved = "1 position" if self.positions == 1 else f"{self.positions} positions"
        return (f"the store {self.store} keeps {proved} proved so far,"
                " and the same command resumes from there")


def _choose_token_auth() -> None:
    """Chooses token authentication for the local Ray instance about to
    start, unless ``RAY_AUTH_MODE`` says otherwise. It is Ray's default for
    a new local instance (the token in ``~/.ray/auth_token``, made if
    missing), and Ray warns on every start where the mode is left unset;
    set, it warns never (https://docs.ray.io/en/latest/ray-security/token-auth.html).
    Ray reads the mode once, when it is imported: so this runs before."""
    os.environ.setdefault("RAY_AUTH_MODE", "token")


def default_split(cpus: int) -> int:
    """Plies below the root where the tree is cut into jobs: the shallowest
    cut that keeps every CPU busy. One ply gives one job per root move at a
    time (about twenty on a 5x5 board), each deeper ply about as many again
    per node; deeper cuts cost more speculative work, so none is deeper
    than needed."""
    if cpus <= 16:
        return 1
    if cpus <= 128:
        return 2
    return 3


#: Jobs kept in flight per CPU of the cluster: enough that no CPU waits
#: for the driver, few enough that few jobs are handed out that a result
#: then makes unneeded.
IN_FLIGHT_PER_CPU = 2

#: Times a job is run again after its process or node was lost, before the
#: solve gives up: as Ray's own retries of a task (``max_retries``).
RUNS_AFTER_A_LOSS = 5


def _job_task(ray: Any, job_function: Callable[[str, int], str]) -> Any:
    # One search thread per reserved CPU. Ray runs a task again when its
    # worker dies (max_retries); the driver ignores a result given twice.
    # Spread over the nodes: Ray's default fills the driver's node first,
    # and jobs of a few milliseconds then rarely reach the others.
    @ray.remote(num_cpus=1, max_retries=5, scheduling_strategy="SPREAD")
    def run(job: str) -> str:
        return job_function(job, 1)

    return run


def _lost(ray: Any) -> Tuple[type, ...]:
    """The errors of a job whose process or node was lost, not of the job
    itself: such a job is run again (jobs are idempotent, and the driver
    ignores a result given twice). An error the job raised (``RayTaskError``)
    is none of these and ends the solve."""
    errors = ray.exceptions
    return (errors.RayActorError, errors.WorkerCrashedError, errors.NodeDiedError,
            errors.ObjectLostError)


class _Tasks:
    """A Ray task per job: each on a worker process of its own, with a
    table of its own."""

    def __init__(self, ray: Any, job_function: Callable[[str, int], str]) -> None:
        self._run = _job_task(ray, job_function)

    def submit(self, job: str, job_id: int, home: int, at: Optional[int] = None) -> Any:
        return self._run.remote(job)

    def release(self, ref: Any, lost: bool = False) -> None:
        pass

    def give_up(self, ref: Any, job_id: int) -> bool:
        """A task is not told to give up (cancelling one races its result,
        see ``_drive``): it runs to its end, its result not asked for."""
        return False


@dataclass
class _Runner:
    """One node's runner and what the driver knows of it."""

    node: str
    threads: int
    actor: Any = None
    # Calls handed to it and not yet released.
    in_flight: int = 0
    # How many of the proofs the driver hands on this process has been told.
    told: int = 0
    # Times it was lost and started again with no result back in between.
    losses: int = 0


def _nodes_with_cpus(ray: Any) -> List[Tuple[str, int]]:
    """The id and CPUs of each live node with a CPU: a runner each."""
    return [(node["NodeID"], int(node["Resources"]["CPU"]))
            for node in ray.nodes()
            if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) >= 1]


class _NodeRunners:
    """An actor per node running that node's jobs in threads of one
    process, so that they share its table (the Rust search keeps one per
    process) and each finds what the node's other jobs proved. With
    ``hand_on`` (the driver's ``hand_on``), each job takes to its runner
    what the other nodes proved that the runner has not been told yet.
    ``nodes``, as ``_nodes_with_cpus`` lists them, spares asking Ray
    again for what the caller just asked."""

    # A runner lost this many times in a row, with no result back in
    # between, has its node's share dropped: Ray lists a node whose raylet
    # died as alive for several seconds more, and each runner started on it
    # meanwhile dies before its first call.
    LOSSES_TO_DROP = 3

    def __init__(self, ray: Any, job_function: Callable[[str, int], str],
                 hand_on: Optional[Callable[[str, int], Tuple[str, int]]] = None,
                 nodes: Optional[List[Tuple[str, int]]] = None) -> None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        # Not restarted by Ray, nor its calls retried there: a runner that
        # dies (its process or its node) fails its calls at once, and the
        # driver runs those jobs again (``release``, ``_drive``). A restart
        # by Ray would hold the calls until it came back, wherever it came.
        # Unlike a task, an actor needs the GCS to reach the driver: one
        # whose authentication mode is not the cluster's sees each runner
        # destroyed before its first call ("out of scope", "never ran").
        # It reserves no CPU, so that it never waits behind a task for one;
        # max_concurrency keeps it to its node's.
        # ``give_up`` has a thread of its own: it must reach the runner
        # while every thread of ``run`` is busy.
        stops = _takes_stop(job_function)

        @ray.remote(num_cpus=0, max_restarts=0, max_task_retries=0,
                    concurrency_groups={"give_up": 1})
        class Runner:
            def __init__(self) -> None:
                self._lock = threading.Lock()
                # A stop token per job running; the jobs given up before
                # they started (their call still queued).
                self._running: Dict[int, Any] = {}
                self._given_up: set = set()

            def run(self, job: str, job_id: int) -> str:
                if not stops:
                    return job_function(job, 1)
                token = _core.StopToken()
                with self._lock:
                    if job_id in self._given_up:
                        self._given_up.discard(job_id)
                        token.stop()
                    self._running[job_id] = token
                try:
                    return job_function(job, 1, stop=token)
                finally:
                    with self._lock:
                        self._running.pop(job_id, None)

            @ray.method(concurrency_group="give_up")
            def give_up(self, job_id: int) -> None:
                with self._lock:
                    token = self._running.get(job_id)
                    if token is None:
                        self._given_up.add(job_id)
                    else:
                        token.stop()

        self._ray = ray
        self._hand_on = hand_on
        self._runner_class = Runner
        self._affinity = NodeAffinitySchedulingStrategy
        if nodes is None:
            nodes = _nodes_with_cpus(ray)
        self._runners = [_Runner(node, cpus) for node, cpus in nodes]
        if not self._runners:
            raise RuntimeError("the Ray cluster has no node with a CPU")
        for runner in self._runners:
            self._start(runner)
        self._runner_of: Dict[Any, Tuple[_Runner, Any]] = {}

    def _start(self, runner: _Runner) -> None:
        # Hard: with a soft affinity, Ray placed runners on other nodes than
        # theirs (on a cluster of three nodes on one machine, most of them
        # right after a node was replaced), two on one node and none on
        # another, and some on a node that had died, where they died too.
        # A runner on a node gone fails instead, and ``release`` drops it.
        strategy = self._affinity(runner.node, soft=False)
        runner.actor = self._runner_class.options(max_concurrency=runner.threads,
                                                  scheduling_strategy=strategy).remote()
        # A new process has been told nothing.
        runner.told = 0

    def room(self, limit: int) -> List[int]:
        """Calls each runner may take now, of ``limit`` in flight in all,
        shared by their threads: what ``take_jobs_for`` fills, each job on
        its home node's runner where that has room, so that the same
        position at another window, or a stopped job's children, find there
        what the searches before them left in its table."""
        threads = sum(r.threads for r in self._runners)
        # Each runner's share of ``limit`` by its threads, the remainder to
        # the first ones, so that the shares add up to ``limit``.
        shares = [limit * r.threads // threads for r in self._runners]
        for k in range(limit - sum(shares)):
            shares[k % len(shares)] += 1
        return [max(0, share - r.in_flight) for share, r in zip(shares, self._runners)]

    def submit(self, job: str, job_id: int, home: int, at: Optional[int] = None) -> Any:
        # On runner ``at`` when the driver chose it; else (a job run again)
        # the home node's while it has an idle thread, or the runner with
        # the most idle threads, counting its queued calls.
        if at is not None and at < len(self._runners):
            runner = self._runners[at]
        else:
            runner = self._runners[home % len(self._runners)]
            if runner.threads <= runner.in_flight:
                runner = max(self._runners, key=lambda r: r.threads - r.in_flight)
        runner.in_flight += 1
        if self._hand_on is not None:
            job, runner.told = self._hand_on(job, runner.told)
        ref = runner.actor.run.remote(job, job_id)
        self._runner_of[ref] = (runner, runner.actor)
        return ref

    def give_up(self, ref: Any, job_id: int) -> bool:
        """Tells the runner of ``ref`` to give its job up; the call stays
        counted in flight until it returns, as its thread is busy until
        then."""
        runner, actor = self._runner_of.get(ref, (None, None))
        if runner is None:
            return False
        actor.give_up.remote(job_id)
        return True

    def release(self, ref: Any, lost: bool = False) -> None:
        runner, actor = self._runner_of.pop(ref, (None, None))
        if runner is None:
            return
        runner.in_flight -= 1
        if not lost:
            if runner.actor is actor:
                runner.losses = 0
            return
        # A call that failed for its runner: the runner is replaced once
        # (its other calls fail too, and find it replaced), on its node if
        # that is still in the cluster and has not lost it too often; else
        # its node's share is dropped (once: its other calls find it gone).
        # The last runner is started again however often it was lost, while
        # its node is in the cluster: the driver's limit on the runs of one
        # job ends a solve whose jobs kill their process.
        kept = any(r is runner for r in self._runners)
        if runner.actor is not actor or not kept:
            return
        runner.losses += 1
        alive = {node["NodeID"] for node in self._ray.nodes() if node.get("Alive")}
        last = len(self._runners) == 1
        if runner.node in alive and (last or runner.losses < self.LOSSES_TO_DROP):
            self._start(runner)
        elif not last:
            self._runners = [r for r in self._runners if r is not runner]
        else:
            raise RuntimeError("every node the solve ran on was lost")


def _started_ray(address: Optional[str], num_cpus: Optional[int]) -> Any:
    """Ray, started with ``address`` and ``num_cpus`` unless it already is."""
    if address is None and not os.environ.get("RAY_ADDRESS") and "ray" not in sys.modules:
        _choose_token_auth()
    import ray

    if not ray.is_initialized():
        # Warnings only: Ray's note that it started would be the one line
        # of a run's standard error that is not the solve's.
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.WARNING)
    return ray


#: Chunks a batch is cut into per CPU of the cluster by default: enough
#: that a CPU done early finds another, few enough that each chunk's task
#: (a few milliseconds to start and to send back) is small beside its
#: searches.
CHUNKS_PER_CPU = 4


def analyse_chunk(positions: List[Any], **options: Any) -> List[Any]:
    """One chunk of ``analyse_many``, on one thread: the answer to each
    position, an ``Analysis`` or that position's ``ValueError``. It depends
    on nothing but its arguments, so a chunk run again after its worker
    died answers the same."""
    return _local_analyse_many(positions, threads=1, errors="return", **options)


def analyse_many(
    positions: Any,
    mode: str = "ALPHABETA",
    depth: Optional[int] = None,
    time: Optional[float] = None,
    *,
    errors: str = "raise",
    table_budget: Optional[int] = None,
    chunk_size: Optional[int] = None,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    chunk_function: Callable[..., List[Any]] = analyse_chunk,
) -> List[Any]:
    """``stakeraid.analyse_many`` on Ray: the positions (``Position``s or
    ``input.txt`` texts) are cut into chunks of ``chunk_size`` (default:
    ``CHUNKS_PER_CPU`` chunks per CPU of the cluster), each a Ray task of
    one CPU that answers its positions one after another on one thread,
    and the answers come back in the order of the positions, one each.
    ``mode``, ``depth``, ``time``, ``errors`` and ``table_budget`` (each
    task's) mean what they mean for ``stakeraid.analyse_many``.

    A chunk whose worker process or node dies is run again by Ray
    (``max_retries``); a chunk answers the same whenever it runs, and each
    chunk's answers are taken once, so every position is answered once.
    Ray is started with ``address`` and ``num_cpus`` unless it already is.
    ``chunk_function(positions, **options)`` answers one chunk (default
    ``analyse_chunk``). Ctrl-C cancels the chunks not yet answered."""
    positions = list(positions)
    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    options = dict(mode=mode, depth=depth, time=time, table_budget=table_budget)
    # The arguments checked here, once, rather than in every task.
    _local_analyse_many([], errors=errors, **options)
    if not positions:
        return []
    ray = _started_ray(address, num_cpus)
    if chunk_size is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunk_size = -(-len(positions) // (CHUNKS_PER_CPU * cpus))
    run = ray.remote(num_cpus=1, max_retries=RUNS_AFTER_A_LOSS)(chunk_function)
    refs = [run.remote(positions[i:i + chunk_size], **options)
            for i in range(0, len(positions), chunk_size)]
    try:
        chunks = ray.get(refs)
    except KeyboardInterrupt:
        for ref in refs:
            ray.cancel(ref)
        raise
    results = [answer for chunk in chunks for answer in chunk]
    if len(results) != len(positions):
        raise RuntimeError(f"{len(results)} answers came back for {len(positions)} positions")
    failed = [i for i, answer in enumerate(results) if isinstance(answer, Exception)]
    if errors == "raise" and failed:
        error = _core.BatchError(
            f"{len(failed)} of {len(results)} positions failed; the first, "
            f"position {failed[0]}: {results[failed[0]]}")
        error.results = results
        error.failed = failed
        raise error
    return results


def solve(
    position: Position,
    depth: Optional[int] = None,
    *,
    store: Optional[str] = None,
    split: Optional[int] = None,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    in_flight: Optional[int] = None,
    inline_plies: Optional[int] = None,
    order_plies: Optional[int] = None,
    speculate: Optional[bool] = None,
    hint: Optional[Tuple[str, int]] = None,
    job_nodes: Optional[int] = None,
    ahead: bool = False,
    spare: bool = False,
    share_nodes: Optional[int] = None,
    home_plies: Optional[int] = None,
    job_function: Callable[[str, int], str] = _core.run_job,
    progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    per_node: bool = True,
) -> Dict[str, Any]:
    """Solves ``position`` to ``depth`` plies (default: the end of the game)
    on Ray, and returns the answer: ``best`` (as in ``output.txt``),
    ``value``, ``moves`` (every legal root move with its value and bound),
    and ``stats`` (jobs, nodes, store counts, seconds).

    The answer is the one ``analyse`` gives at that depth: the first move
    in canonical order with the maximal value. ``split`` is how many plies
    below the root the tree is cut into jobs (default: by the cluster's
    CPUs, ``default_split``). ``store`` names the file of
    proven bounds (created if missing; resumed if not). Ray is started
    with ``address`` and ``num_cpus`` unless it already is.
    ``speculate`` tests the root's moves against the first's predicted value
    while that is still being proved (default: on more than 8 CPUs).
    ``hint``, ``(move, value)`` from an earlier solve (``("D4 Stake",
    176)``), has that move tested first at that value; the answer is the
    same whatever the hint, and a right one leaves the least to prove.
    ``job_nodes`` stops a job past that many nodes and tests its children
    as jobs instead, so that no job runs far longer than the rest (about
    50 M nodes a second per CPU; the answer is the same whatever it is).
    ``ahead`` asks each test of a root move's exact value together with
    the two that would follow it, either way it comes out.
    ``spare`` starts a node's younger brothers before its eldest is back
    where the ordering search predicts all of them must be tested and the
    runner has room for more jobs than are queued (it keeps
    ``IN_FLIGHT_PER_CPU`` calls a CPU), and, where no brother waits
    either, asks root moves' tests that their values may need later, up
    to 8 results ahead.
    ``share_nodes`` (with ``per_node``) hands on between the nodes each
    proof of a position of 12 plies or more that took at least that many
    nodes: a job brings back what its node proved, and takes to its node
    what the others did; the answer is the same whatever it is.
    ``job_function(job, threads)`` answers one job (default
    ``stakeraid.run_job``); ``progress(stats)`` is called after each
    result. ``per_node`` (the default) runs each node's jobs in one
    process (an actor per node, a thread per CPU) whose jobs share one
    table; ``per_node=False`` makes each job a Ray task on a process with
    a table of its own, which starts with none of what the node's other
    jobs proved (on a local instance of 2 CPUs, 21 empty cells cut 2 plies
    down: 19.5 s against 25.6 s, 1.2 G nodes against 1.6 G). The driver
    picks each node's jobs: the first whose home (``home`` in its JSON)
    is that node; the others wait for room at their home while any job
    runs, and go to another node only when none does. ``home_plies`` is
    the depth of the node whose position is the home of the jobs below it
    (default ``home_plies_for`` the nodes: 2 on up to four, 3 on more; no
    deeper than ``split``). A runner that dies,
    or whose node is lost, is replaced (or its node's share dropped) and
    the jobs it held run again on the others; the answer is the same.
    """
    ray = _started_ray(address, num_cpus)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    grid = (position.values, position.cells, position.to_move)
    if speculate is None:
        # The root's moves tested side by side against a prediction: more
        # work in all, worth it only where many CPUs would otherwise wait.
        speculate = cpus > 8
    if not split:
        # No deeper than the solve allows (a job searches at least a ply).
        plies = sum(row.count(".") for row in position.cells)
        if depth is not None:
            plies = min(plies, depth)
        split = min(default_split(cpus), max(1, plies - 1))
    nodes = _nodes_with_cpus(ray) if per_node else None
    if home_plies is None:
        # Each task has a table of its own, where the home does not matter.
        home_plies = _core.home_plies_for(len(nodes) if nodes is not None else 1)
    # The library's own defaults where none is given.
    cut = {name: value for name, value in
           (("inline_plies", inline_plies), ("order_plies", order_plies))
           if value is not None}
    driver = _core.SplitSolve(grid, depth, split=split, store=store,
                              speculate=speculate, hint=hint, job_nodes=job_nodes,
                              ahead=ahead, spare=spare, share_nodes=share_nodes,
                              home_plies=home_plies, **cut)
    if per_node:
        runner = _NodeRunners(ray, job_function,
                              driver.hand_on if share_nodes is not None else None, nodes)
    else:
        runner = _Tasks(ray, job_function)
    limit = in_flight or IN_FLIGHT_PER_CPU * cpus
    start = time.monotonic()
    try:
        _drive(ray, driver, runner, limit, start, progress)
    except KeyboardInterrupt as interrupt:
        try:
            kept = Interrupted(store, driver.seal())
        except OSError as e:
            kept = Interrupted(store, None, str(e))
        raise kept from interrupt
    answer = dict(driver.answer)
    answer["stats"] = dict(driver.stats, seconds=time.monotonic() - start)
    return answer


def _drive(ray: Any, driver: Any, runner: Any, limit: int, start: float,
           progress: Optional[Callable[[Dict[str, Any]], None]]) -> None:
    """Hands out up to ``limit`` jobs at a time and takes their results
    until the driver answers."""
    lost = _lost(ray)
    # Each job in flight: its id, its text and its home, to run it again.
    running: Dict[Any, Tuple[int, str, int]] = {}
    # Calls of jobs given up, still holding their runner's thread.
    giving_up: set = set()
    tries: Dict[int, int] = {}
    while driver.answer is None:
        if hasattr(runner, "room"):
            placed = driver.take_jobs_for(runner.room(limit))
        else:
            placed = [(None, job) for job in driver.take_jobs(max(0, limit - len(running)))]
        for at, job in placed:
            fields = json.loads(job)
            job_id, home = int(fields["id"]), int(fields.get("home", 0))
            running[runner.submit(job, job_id, home, at)] = (job_id, job, home)
        if driver.answer is not None:
            break
        if not running and not giving_up:
            raise RuntimeError("the driver has no answer and no job to run")
        done, _ = ray.wait(list(running) + list(giving_up), num_returns=1)
        for ref in done:
            if ref in giving_up:
                # Its result is not asked for: only its thread is free again.
                giving_up.discard(ref)
                runner.release(ref)
                continue
            job_id, job, home = running.pop(ref)
            try:
                result = ray.get(ref)
            except lost:
                # Its process or node was lost: the job runs again, a few
                # times at most, so that a cluster that loses every runner
                # ends the solve rather than spinning.
                runner.release(ref, lost=True)
                tries[job_id] = tries.get(job_id, 0) + 1
                if tries[job_id] > RUNS_AFTER_A_LOSS:
                    raise
                running[runner.submit(job, job_id, home)] = (job_id, job, home)
                continue
            runner.release(ref)
            driver.finish(result)
        # Jobs a result made unneeded are given up, not cancelled: cancelling
        # a Ray task as its result comes back aborts the driver inside Ray
        # ("Tried to complete task that was not pending",
        # ray-project/ray#54798), and checking first leaves the race open.
        # A node's runner stops such a job at its next poll and its call
        # keeps its place until then; a task runs to its end. Either way
        # its result is not asked for.
        unneeded = set(driver.unneeded())
        for ref, (job_id, _, _) in list(running.items()):
            if job_id in unneeded:
                running.pop(ref)
                if runner.give_up(ref, job_id):
                    giving_up.add(ref)
                else:
                    runner.release(ref)
        if progress is not None:
            progress(dict(driver.stats, seconds=time.monotonic() - start))


def _takes_stop(job_function: Callable[..., str]) -> bool:
    """Whether ``job_function`` takes ``stop=`` (a ``StopToken``), as
    ``run_job`` does: only then can a runner give a job up."""
    try:
        return "stop" in inspect.signature(job_function).parameters
    except (TypeError, ValueError):
        return False


def _hint(text: str) -> Tuple[str, int]:
    move, sep, value = text.rpartition("=")
    if not sep:
        raise argparse.ArgumentTypeError('expected MOVE=VALUE, as in "D4 Stake=176"')
    try:
        return move.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"the value {value.strip()!r} is not a whole number") from None


def known_left(stats: Dict[str, Any]) -> Optional[float]:
    """Seconds the jobs known now (running and queued) would take at the
    pace the jobs have come back so far. Not a forecast of the solve: a tree
    search makes its jobs as it learns, and the root's later moves bring
    jobs of their own. None before the first job is back."""
    done, seconds = stats["done"], stats["seconds"]
    if done == 0 or seconds <= 0:
        return None
    return (stats["running"] + stats["queued"]) * seconds / done


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _progress_line(stats: Dict[str, Any]) -> None:
    """The progress line, rewritten in place: only on a terminal (see
    ``main``), where a carriage return goes back over it."""
    rate = stats["nodes"] / stats["seconds"] if stats["seconds"] > 0 else 0.0
    left = known_left(stats)
    known = stats["running"] + stats["queued"]
    eta = "" if left is None else f" · ~{left:.0f} s for the {known} jobs known"
    sys.stderr.write(
        f"\r\x1b[2Kjobs {stats['done']} done, {stats['running']} running,"
        f" {stats['queued']} queued · root {stats['root_done']}/{stats['root_moves']}"
        f" · {stats['nodes'] / 1e6:.1f} M nodes, {rate / 1e6:.1f} M/s"
        f" · {stats['from_store']} from the store · {stats['seconds']:.0f} s{eta}"
    )
    sys.stderr.flush()


def _temp_beside(path: str) -> Tuple[str, str]:
    """The file ``path`` names (links followed) and a new file beside it,
    to be written and renamed into place: a random name, made exclusively
    (nothing else's file is reused), 0666 less the umask as the command
    line's."""
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    while True:
        temp = os.path.join(folder, f".stakeraid-output-{secrets.token_hex(6)}")
        try:
            os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return target, temp
        except FileExistsError:
            continue


def _in_place(target: str) -> bool:
    """Whether ``target`` is a device or a pipe (``/dev/null``, a FIFO): written
    in place, since renaming over it would replace it with a plain file. Asked
    of the path as given, the system following its links: some, as
    ``/dev/stdout``'s ``/proc/self/fd/1``, name no path."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode) and not os.path.isdir(target)
    except OSError:
        return False


def _check_writable(path: str) -> None:
    """Fails now, not after the solve, if ``path`` cannot be written."""
    if path == "-":
        return
    try:
        if _in_place(path):
            # A pipe is not opened now: its reader would see it end first.
            if not stat.S_ISFIFO(os.stat(path).st_mode):
                open(path, "a").close()
        else:
            _, temp = _temp_beside(path)
            os.remove(temp)
    except OSError as e:
        raise OSError(f"writing {path}: {e.strerror or e}") from None


def _write_output(path: str, text: str) -> None:
    """Writes ``text`` to ``path`` (standard output for ``-``) as ``stakeraid
    solve`` writes its output: through a file beside it renamed into place,
    so that no reader sees half of it and a failed run leaves an earlier
    one as it was."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if _in_place(path):
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as e:
            raise OSError(f"writing {path}: {e.strerror or e}") from None
        return
    try:
        target, temp = _temp_beside(path)
    except OSError as e:
        raise OSError(f"writing {path}: {e.strerror or e}") from None
    try:
        with open(temp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(temp, target)
    except OSError as e:
        try:
            os.remove(temp)
        except OSError:
            pass
        raise OSError(f"writing {path}: {e.strerror or e}") from None


def _end_by_sigint() -> None:
    """Ends the process as SIGINT would have, so that a shell sees status
    130 as it does from ``stakeraid solve``."""
    sys.stdout.flush()
    sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)


def _shutdown_ray() -> None:
    # A local instance would outlive a process ended by a signal.
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m stakeraid.cluster",
        description="Deep Stake & Raid solves on a Ray cluster, resumable through a store file.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    cmd = commands.add_parser("solve", help="solve an input.txt and write its output.txt")
    cmd.add_argument("input", help="the input.txt (MINIMAX or ALPHABETA; its depth is the plies)")
    cmd.add_argument("-o", "--output", default="output.txt",
                     help="the output.txt to write, - for standard output (default: "
                          "output.txt, as stakeraid solve); written only on success")
    cmd.add_argument("--store", help="file of proven bounds: created, or resumed")
    cmd.add_argument("--address", help="Ray cluster to join (default: start a local one)")
    cmd.add_argument("--num-cpus", type=int, help="CPUs of a local Ray instance")
    cmd.add_argument("--split", type=int,
                     help="plies below the root cut into jobs (default: by the cluster's CPUs)")
    cmd.add_argument("--hint", metavar="MOVE=VALUE", type=_hint,
                     help='a move believed best and its value, as "D4 Stake=176": tested first')
    cmd.add_argument("--speculate", action=argparse.BooleanOptionalAction, default=None,
                     help="test the root's other moves against the first's predicted value "
                          "while that is proved (default: on more than 8 CPUs)")
    cmd.add_argument("--job-nodes", type=_positive, metavar="N",
                     help="stop a job past N nodes and hand out its children instead "
                          "(default: no limit)")
    cmd.add_argument("--ahead", action="store_true",
                     help="ask each test of a root move's value with the two that may follow it")
    cmd.add_argument("--spare", action="store_true",
                     help="start younger brothers early, and ask root tests ahead, "
                          "where the runner has room for them")
    cmd.add_argument("--share-nodes", type=_positive, metavar="N",
                     help="hand on between nodes the proofs that took N nodes or more "
                          "(default: none)")
    cmd.add_argument("--home-plies", type=_positive, metavar="N",
                     help="plies down of the node whose position sends the jobs below it "
                          "to one node (default: 2 on up to four nodes, 3 on more)")
    runners = cmd.add_mutually_exclusive_group()
    runners.add_argument("--per-node", dest="per_node", action="store_true", default=True,
                         help="each node's jobs in one process sharing its table (the default)")
    runners.add_argument("--per-task", dest="per_node", action="store_false",
                         help="each job a Ray task with a table of its own")
    cmd.add_argument("--quiet", action="store_true",
                     help="no progress line (there is none anyway unless standard error is a "
                          "terminal)")
    args = parser.parse_args(argv)
    # As `stakeraid solve`: a line rewritten in place on a terminal, and
    # nothing in a pipe or a log file, where the returns would pile up.
    shown = not args.quiet and sys.stderr.isatty()
    clear = "\r\x1b[2K" if shown else ""
    try:
        _check_writable(args.output)
        with open(args.input, encoding="utf-8") as f:
            text = f.read()
        position = Position.from_input(text)
        # from_input has checked the text: line 2 is the mode, line 4 the
        # depth of MINIMAX and ALPHABETA.
        lines = text.splitlines()
        if lines[1].strip().upper() == "COMPETITION":
            raise ValueError("line 2: COMPETITION has no exact answer to solve")
        depth = int(lines[3])
        answer = solve(
            position,
            depth,
            store=args.store,
            split=args.split,
            address=args.address,
            num_cpus=args.num_cpus,
            hint=args.hint,
            speculate=args.speculate,
            job_nodes=args.job_nodes,
            ahead=args.ahead,
            spare=args.spare,
            share_nodes=args.share_nodes,
            home_plies=args.home_plies,
            per_node=args.per_node,
            progress=_progress_line if shown else None,
        )
        after = position.play(answer["best"])
        _write_output(args.output, "\n".join([answer["best"], *after.cells]) + "\n")
    except KeyboardInterrupt as e:
        _shutdown_ray()
        kept = e.kept() if isinstance(e, Interrupted) else "the solve had not begun"
        sys.stderr.write(f"{clear}stakeraid.cluster: stopped by SIGINT, no output written: {kept}\n")
        _end_by_sigint()
        return 130
    except (OSError, ValueError) as e:
        sys.stderr.write(f"{clear}stakeraid.cluster: {e}\n")
        return 2
    sys.stderr.write(clear)
    stats = answer["stats"]
    # With -o -, standard output is the output.txt alone.
    summary = sys.stderr if args.output == "-" else sys.stdout
    summary.write(f"{answer['best']}  value {answer['value']}\n")
    summary.write(
        f"jobs {stats['done']}, nodes {stats['nodes']}, "
        f"from the store {stats['from_store']}, {stats['seconds']:.1f} s\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
