"""SplitSolve driven by hand, one job at a time, without Ray: a hint from an
earlier solve changes no answer, a right one leaves the least to prove,
and a move that cannot be played is refused."""

import json
import random

import pytest
import stakeraid

from conftest import random_position


def solve_by_hand(position, depth, **settings):
    grid = (position.values, position.cells, position.to_move)
    driver = stakeraid.SplitSolve(grid, depth, **settings)
    while driver.answer is None:
        jobs = driver.take_jobs(1)
        if driver.answer is not None:
            break
        assert jobs, "the driver has no answer and no job to run"
        driver.finish(stakeraid.run_job(jobs[0]))
    return driver


@pytest.mark.parametrize("seed", range(6))
def test_a_hint_changes_no_answer_and_a_right_one_leaves_the_least(seed):
    rng = random.Random(seed)
    position = random_position(rng, 4, 8 + seed % 3)
    depth = 8 + seed % 3
    direct = stakeraid.analyse(position, depth=depth, threads=1)
    best, value = str(direct.best), direct.value
    edge = sum(map(sum, position.values))
    other = str(rng.choice(position.legal_moves()))
    hints = [(best, value), (other, rng.randint(-edge, edge)), (best, value + 7)]
    for k, hint in enumerate(hints):
        driver = solve_by_hand(position, depth, split=1, inline_plies=0, order_plies=0,
                               hint=hint)
        assert (driver.answer["best"], driver.answer["value"]) == (best, value), hint
        if k == 0:
            # The hinted move's value needs a test on each side of it (one
            # where it is the edge of the range), every other move one.
            stats = driver.stats
            first = 1 if abs(value) == edge else 2
            assert stats["done"] == stats["root_moves"] - 1 + first


def test_a_move_that_cannot_be_played_is_refused():
    position = stakeraid.Position([[1, 2], [3, 4]], ["X.", ".."], "X")
    grid = (position.values, position.cells, position.to_move)
    with pytest.raises(ValueError, match="A1 is taken"):
        stakeraid.SplitSolve(grid, 3, split=1, hint=("A1 Stake", 5))
    with pytest.raises(ValueError, match="hint: "):
        stakeraid.SplitSolve(grid, 3, split=1, hint=("Z9 Jump", 5))


def test_an_unknown_setting_is_refused_by_name():
    grid = ([[1, 2], [3, 4]], ["X.", ".."], "O")
    with pytest.raises(TypeError, match="unexpected keyword argument 'inline'"):
        stakeraid.SplitSolve(grid, 2, split=1, inline=3)


def test_home_plies_sets_which_jobs_share_a_home():
    # One ply down, every job below a root move goes to that move's home;
    # three plies down (the split), the jobs below one move spread over
    # many. Homes never change the answer.
    position = random_position(random.Random(7), 5, 11)
    direct = stakeraid.analyse(position, depth=9, threads=1)
    grid = (position.values, position.cells, position.to_move)
    homes = {}
    for plies in (1, 3):
        driver = stakeraid.SplitSolve(grid, 9, split=3, inline_plies=3, home_plies=plies)
        seen = set()
        while driver.answer is None:
            jobs = driver.take_jobs(1)
            if driver.answer is not None:
                break
            seen.add(json.loads(jobs[0])["home"])
            driver.finish(stakeraid.run_job(jobs[0]))
        assert (driver.answer["best"], driver.answer["value"]) == (str(direct.best), direct.value)
        homes[plies] = seen
    assert len(homes[1]) <= driver.stats["root_moves"]
    assert len(homes[3]) > 2 * len(homes[1]), homes


def test_home_plies_for_a_cluster_grow_with_its_machines():
    plies = [stakeraid.home_plies_for(machines) for machines in range(1, 65)]
    assert plies == sorted(plies) and set(plies) == {2, 3}
