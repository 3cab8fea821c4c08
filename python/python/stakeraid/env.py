"""A PettingZoo AEC environment of Stake & Raid (``pip install "stakeraid[env]"``).

>>> from stakeraid.env import env
>>> e = env(size=4)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated else e.action_space(agent).sample(info["action_mask"])
...     e.step(action)

Agents are ``"player_0"``, who plays ``X``, and ``"player_1"``, who plays
``O`` (``PIECES``; PettingZoo's names for the two sides of a board game).
The one to move first is ``first`` (``"X"`` by default; ``"player_0"`` and
``"player_1"`` are taken too). The pieces' names ``"X"`` and ``"O"`` stay
aliases of the agents in ``observe``, ``observation_space`` and
``action_space``. Rules, moves and scores are those of the Rust library:
each step plays one move through ``stakeraid.Position.play``.

Observation, for the observing agent: a float32 array of shape
``(N, N, 4)`` (a ``Box``) whose last axis holds four planes: the cell
values divided by the largest value on the board, the agent's own pieces,
the opponent's pieces, the empty cells.

Action mask: ``info["action_mask"]``, an int8 array of ``2 * N * N``
entries, 1 for each legal action of the agent to move (all 0 for the
other agent and at the end), as PettingZoo's ``api_test`` and its
``action_space(agent).sample(mask)`` take it. With
``dict_observations=True`` the observation is instead the dict of
PettingZoo's classic board games, ``{"observation": planes,
"action_mask": mask}`` (the layout of this environment's first version);
``api_test`` then warns that it is no array in a ``Box``, as it does for
any game not on its list of PettingZoo's own.

Action: ``Discrete(2 * N * N)``, index ``kind * N * N + row * N + col`` with
kind 0 for Stake and 1 for Raid (``stakeraid.Move.from_index``).

Reward: 0 until the board is full; then each agent gets the final game
score from its side (its values minus the opponent's), divided by the
board's total value if ``normalize_rewards``. An illegal action ends the
game with ``illegal_reward`` for the agent that made it (by default minus
the board's total value, the worst possible score) and 0 for the other, as
PettingZoo's ``TerminateIllegalWrapper`` and its classic environments do
(an illegal move is the offender's loss, not the opponent's win).

Boards: ``values`` fixes the cell values; otherwise each ``reset`` draws
them uniformly from ``1..max_value``. ``cells`` fixes a starting layout;
``reset(options={"position": p})`` starts one episode from a
``stakeraid.Position`` of the same size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        'stakeraid.env needs pettingzoo, gymnasium and numpy: pip install "stakeraid[env]"'
    ) from e

from ._core import Move, Position

__all__ = ["AGENTS", "PIECES", "env", "raw_env"]

#: The agents, as PettingZoo names the sides of its board games.
AGENTS = ["player_0", "player_1"]

#: The piece each agent plays.
PIECES = {"player_0": "X", "player_1": "O"}

#: Each piece's agent: the names agents had before, still taken as aliases.
_AGENT_OF = {piece: agent for agent, piece in PIECES.items()}

_X, _O, _EMPTY = ord("X"), ord("O"), ord(".")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks around it (action
    bounds, call order); keyword arguments go to ``raw_env``."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """Stake & Raid as a two-agent, turn-based PettingZoo environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "stakeraid_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        size: int = 6,
        values: Sequence[Sequence[int]] | None = None,
        cells: Sequence[str] | None = None,
        first: str = "X",
        max_value: int = 99,
        illegal_reward: float | None = None,
        normalize_rewards: bool = False,
        render_mode: str | None = None,
        dict_observations: bool = False,
    ) -> None:
        EzPickle.__init__(
            self,
            size=size,
            values=values,
            cells=cells,
            first=first,
            max_value=max_value,
            illegal_reward=illegal_reward,
            normalize_rewards=normalize_rewards,
            render_mode=render_mode,
            dict_observations=dict_observations,
        )
        super().__init__()
        if values is not None:
            size = len(values)
        elif not isinstance(size, int) or not 1 <= size <= 26:
            raise ValueError(f"size must be a whole number from 1 to 26, got {size!r}")
        first = PIECES.get(first, first)
        if first not in _AGENT_OF:
            raise ValueError(f"first must be 'X', 'O', 'player_0' or 'player_1', got {first!r}")
        if max_value < 1:
            raise ValueError(f"max_value must be at least 1, got {max_value}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        # Checks the layout now rather than at the first reset.
        probe = Position(
            values if values is not None else [[1] * size for _ in range(size)],
            cells,
            first,
        )
        if probe.is_over:
            raise ValueError("the starting board is full: there is no move to play")

        self.size = size
        self._values = None if values is None else [list(row) for row in values]
        self._cells = None if cells is None else list(cells)
        self._first = first
        self.max_value = max_value
        self.illegal_reward = illegal_reward
        self.normalize_rewards = normalize_rewards
        self.render_mode = render_mode
        self.dict_observations = dict_observations

        self.possible_agents = AGENTS[:]
        self.agents = AGENTS[:]
        n_actions = 2 * size * size

        def space() -> spaces.Space[Any]:
            planes = spaces.Box(low=0.0, high=1.0, shape=(size, size, 4), dtype=np.float32)
            if not dict_observations:
                return planes
            mask = spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8)
            return spaces.Dict({"observation": planes, "action_mask": mask})

        self.observation_spaces = {a: space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in AGENTS}
        self.np_random, _ = seeding.np_random(None)
        self.position: Position = probe
        self._planes: np.ndarray | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[_AGENT_OF.get(agent, agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[_AGENT_OF.get(agent, agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        start = (options or {}).get("position")
        if start is not None:
            if not isinstance(start, Position):
                raise TypeError("options['position'] must be a stakeraid.Position")
            if start.size != self.size or start.is_over:
                raise ValueError(
                    f"options['position'] must be a {self.size}x{self.size} board "
                    "with an empty cell"
                )
            self.position = start
        else:
            values = self._values
            if values is None:
                shape = (self.size, self.size)
                drawn = self.np_random.integers(1, self.max_value, size=shape, endpoint=True)
                values = drawn.tolist()
            self.position = Position(values, self._cells, self._first)
        self._value_plane = np.asarray(self.position.values, dtype=np.float32)
        self._total_value = float(self._value_plane.sum())
        self._value_plane /= self._value_plane.max()
        self._planes = None

        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = _AGENT_OF[self.position.to_move]
        self._mask_infos()

    def _pieces(self) -> np.ndarray:
        """The cells as bytes (``X``, ``O``, ``.``), shape (N, N), cached per move."""
        if self._planes is None:
            text = "".join(self.position.cells).encode("ascii")
            self._planes = np.frombuffer(text, dtype=np.uint8).reshape(self.size, self.size)
        return self._planes

    def _mask(self, agent: str) -> np.ndarray:
        """The action mask of ``agent``: its legal actions if it is to move."""
        if agent == self.agent_selection and not self.terminations[agent]:
            return np.frombuffer(self.position.action_mask(), dtype=np.int8).copy()
        return np.zeros(2 * self.size * self.size, dtype=np.int8)

    def _mask_infos(self) -> None:
        """Puts each agent's action mask in its info, after every change of
        the agent to move."""
        for a in self.agents:
            self.infos[a]["action_mask"] = self._mask(a)

    def observe(self, agent: str) -> Any:
        agent = _AGENT_OF.get(agent, agent)
        pieces = self._pieces()
        own, enemy = (_X, _O) if PIECES[agent] == "X" else (_O, _X)
        planes = np.empty((self.size, self.size, 4), dtype=np.float32)
        planes[:, :, 0] = self._value_plane
        planes[:, :, 1] = pieces == own
        planes[:, :, 2] = pieces == enemy
        planes[:, :, 3] = pieces == _EMPTY
        if self.dict_observations:
            return {"observation": planes, "action_mask": self._mask(agent)}
        return planes

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        move = Move.from_index(int(action), self.size)  # type: ignore[arg-type]
        if not self.position.is_legal(move):
            penalty = self.illegal_reward
            if penalty is None:
                penalty = -1.0 if self.normalize_rewards else -self._total_value
            self.rewards[agent] = float(penalty)
            self.infos[agent]["illegal_move"] = str(move)
            self.terminations = dict.fromkeys(self.agents, True)
            self._mask_infos()
            self._accumulate_rewards()
            return
        self.position = self.position.play(move)
        self._planes = None
        if self.position.is_over:
            scale = self._total_value if self.normalize_rewards else 1.0
            for a in self.agents:
                self.rewards[a] = self.position.score_for(PIECES[a]) / scale
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = _AGENT_OF[self.position.to_move]
        self._mask_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = str(self.position)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
