"""The PettingZoo environment: PettingZoo's own API test, and rewards that
are the final scores of the game the Rust board played."""

import pytest

pytest.importorskip("pettingzoo", reason='the environment needs pip install "stakeraid[env]"')

import numpy as np
import stakeraid
from pettingzoo.test import api_test
from stakeraid.env import env, raw_env

# api_test's advice, turned into errors: the agents are named as it
# recommends, and the observation is an array in a Box.
@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("size", [1, 3, 6])
def test_pettingzoo_api_without_a_warning(size):
    api_test(env(size=size), num_cycles=200)


@pytest.mark.filterwarnings("error")
def test_raw_env_passes_too():
    api_test(raw_env(size=4, normalize_rewards=True), num_cycles=50)


# The classic games' dict: api_test exempts only PettingZoo's own games
# from its advice on it, by name.
@pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
)
def test_the_classic_games_dict_passes():
    api_test(env(size=3, dict_observations=True), num_cycles=50)


def play_random(e, seed):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(e.infos[agent]["action_mask"])
            action = int(rng.choice(legal))
            steps += 1
        e.step(action)
    return totals, steps


def test_rewards_are_the_final_score():
    e = env(size=5)
    totals, steps = play_random(e, seed=3)
    final = e.unwrapped.position
    assert steps == 25 and final.is_over
    assert totals == {"player_0": final.score_for("X"), "player_1": final.score_for("O")}
    assert totals["player_0"] == -totals["player_1"]


def test_observation_planes():
    values = [[1, 2, 4], [8, 16, 32], [64, 128, 256]]
    e = raw_env(values=values, cells=["X..", ".O.", "..."], first="O")
    e.reset()
    assert e.agent_selection == "player_1"
    planes = e.observe("player_1")
    mask = e.infos["player_1"]["action_mask"]
    assert planes.shape == (3, 3, 4) and planes.dtype == np.float32
    assert e.observation_space("player_1").contains(planes)
    assert np.allclose(planes[:, :, 0] * 256, values)
    assert planes[1, 1, 1] == 1 and planes[0, 0, 2] == 1 and planes[:, :, 1:].sum() == 9
    assert planes[:, :, 3].sum() == 7
    legal = [m.index(3) for m in e.position.legal_moves()]
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
    assert not e.infos["player_0"]["action_mask"].any()
    # player_0 (X) sees the same board with own and enemy swapped.
    x = e.observe("player_0")
    assert (x[:, :, 1] == planes[:, :, 2]).all() and (x[:, :, 2] == planes[:, :, 1]).all()
    e.step(stakeraid.Move.parse("B1 Raid").index(3))
    assert e.position.cells == ["OO.", ".O.", "..."]
    assert e.agent_selection == "player_0"
    assert e.infos["player_0"]["action_mask"].any()
    assert not e.infos["player_1"]["action_mask"].any()


def test_the_pieces_names_are_aliases():
    e = raw_env(size=3, first="player_1")
    e.reset(seed=2)
    assert e.agent_selection == "player_1" and e.position.to_move == "O"
    assert (e.observe("O") == e.observe("player_1")).all()
    assert e.observation_space("X") is e.observation_space("player_0")
    assert e.action_space("O") is e.action_space("player_1")


def test_dict_observations_hold_the_mask():
    e = raw_env(values=[[1, 2], [3, 4]], dict_observations=True)
    e.reset()
    obs = e.observe("player_0")
    assert e.observation_space("player_0").contains(obs)
    assert (obs["action_mask"] == e.infos["player_0"]["action_mask"]).all()
    plain = raw_env(values=[[1, 2], [3, 4]])
    plain.reset()
    assert (obs["observation"] == plain.observe("player_0")).all()


def test_seeded_boards_repeat():
    e = raw_env(size=4)
    e.reset(seed=5)
    first = e.position
    e.reset(seed=5)
    assert e.position == first
    e.reset(seed=6)
    assert e.position != first


def test_start_from_a_position():
    p = stakeraid.Position([[3, 1], [1, 3]], ["X.", ".."], "O")
    e = raw_env(size=2)
    e.reset(options={"position": p})
    assert e.position == p and e.agent_selection == "player_1"
    with pytest.raises(ValueError):
        e.reset(options={"position": stakeraid.Position([[1]])})


def test_an_illegal_action_ends_the_game():
    e = raw_env(values=[[1, 2], [3, 4]])
    e.reset()
    e.step(4 + 3)  # D2 Raid: X has no piece yet
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -10.0, "player_1": 0.0}
    assert "illegal_move" in e.infos["player_0"]


@pytest.mark.parametrize("size", [0, -1, 27, 2.5])
def test_a_bad_size_is_named(size):
    with pytest.raises(ValueError, match=r"^size must be a whole number from 1 to 26"):
        raw_env(size=size)


def test_render():
    e = raw_env(size=2, render_mode="ansi")
    e.reset(seed=0)
    assert e.render() == str(e.position)
