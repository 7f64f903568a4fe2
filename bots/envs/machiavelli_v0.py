"""PettingZoo AEC environment ``machiavelli_v0``: every variant, 2-5 players (docs/environments.md).

``bots.envs.machiavelli_v0.env(variant="machiavelli", players=2, render_mode=None)`` returns
the environment wrapped as PettingZoo's classic games are (order enforcing, action bounds);
``raw_env`` is the bare one. Agents are ``player_0 .. player_{n-1}`` (seats of the referee's
game); each observation is ``{"observation": tensor, "action_mask": mask}`` with the tensor of
``bots.envs.encoding`` and the mask of ``bots.envs.actions`` (all zeros for an agent not to
move). Rewards come at the end: +1 for each winner of the match, -1 for the others.
``reset(seed=S)`` deals the referee's game ``S``: the same seed and the same actions give the
same record (``env.unwrapped.record()``), which ``bots.referee.record.replay`` accepts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bots.envs.actions import NUM_ACTIONS
from bots.envs.encoding import tensor_size
from bots.envs.episode import Episode
from bots.envs.options import OBSERVATION_HIGH, check_render_mode, env_variant, seed_from

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic environments are."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """Machiavelli (any variant) for ``players`` agents taking turns."""

    RENDER_MODES = ("ansi",)
    metadata = {"render_modes": list(RENDER_MODES), "name": "machiavelli_v0",
                "is_parallelizable": False}

    def __init__(self, variant: str = "machiavelli", players: int = 2,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.variant = env_variant(variant, players)
        self.players = players
        self.render_mode = check_render_mode(render_mode, self.RENDER_MODES)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        size = tensor_size()
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS)
                              for agent in self.possible_agents}
        self.episode: Episode | None = None
        self._seed = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal game ``seed`` (without one: the next seed after the last game's)."""
        self._seed = seed_from(seed, self._seed, self.episode is not None)
        self.episode = Episode(str(self.variant), self.players, self._seed, self.possible_agents)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.episode.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        episode = self._running()
        seat = self.possible_agents.index(agent)
        return {"observation": episode.tensor(seat), "action_mask": episode.mask(seat)}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        episode = self._running()
        self._cumulative_rewards[self.agent_selection] = 0.0
        episode.step(int(action))  # type: ignore[arg-type]
        if episode.over or episode.truncated:
            finished = episode.rewards()
            self.rewards = {agent: finished[i] for i, agent in enumerate(self.agents)}
            flags = self.terminations if episode.over else self.truncations
            for agent in self.agents:
                flags[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self._deads_step_first()
            return
        self._clear_rewards()
        self.agent_selection = self.possible_agents[episode.current]

    def render(self) -> str | None:
        """``ansi``: the table, every hand and the last actions, as text."""
        if self.render_mode is None:
            return None
        from bots.envs.options import render_text

        return render_text(self._running().game)

    def close(self) -> None:
        self.episode = None

    def record(self) -> dict[str, Any]:
        """The referee's record of the current game (``bots.referee.record``)."""
        return self._running().record()

    def _running(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode
