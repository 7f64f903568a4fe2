"""Gymnasium environment ``machiavelli/Machiavelli-v0``: one learning seat against ladder bots.

``gymnasium.make("machiavelli/Machiavelli-v0", variant="machiavelli", opponents=["greedy"])``
seats the agent at ``seat`` (default 0) and a ladder bot (``bots.players`` level names) in each
other seat, in order; the bots move inside ``step`` until the agent is to move again or the
game is over. Observations are the tensor of ``bots.envs.encoding``; the action is a slot of
``bots.envs.actions`` and the legal ones are ``action_masks()`` (the method sb3-contrib's
``MaskablePPO`` calls) and ``info["action_mask"]``. The reward is +1 when the agent wins the
match (a shared win too), -1 when it loses, 0 before the end. An action outside the mask is
replaced by the lowest legal slot (drawing or passing where the turn allows it) and the step's
info says ``illegal_action``: a learner without masks still plays whole, legal games.
``reset(seed=S)`` deals the referee's game ``S`` and seeds the bots from it, so the same seed
and actions give the same record (``env.unwrapped.record()``) byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bots.envs.actions import NUM_ACTIONS
from bots.envs.encoding import tensor_size
from bots.envs.episode import Episode
from bots.envs.options import (
    MAX_SEED,
    OBSERVATION_HIGH,
    check_render_mode,
    env_variant,
    render_text,
)
from bots.players import Bot, make_bot
from solver import arguments

ENV_ID = "machiavelli/Machiavelli-v0"


class MachiavelliEnv(gymnasium.Env):
    """The agent's seat in a game of ``variant`` against ``opponents`` (ladder level names)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: str = "machiavelli", opponents: Sequence[str] = ("random",),
                 seat: int = 0, render_mode: str | None = None) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents = [make_bot(name).name for name in opponents]  # checks the names
        self.players = len(self.opponents) + 1
        self.variant = env_variant(variant, self.players)
        self.seat = arguments.integer("seat", seat, 0, self.players - 1)
        self.render_mode = check_render_mode(render_mode, ("ansi",))
        self.observation_space = spaces.Box(0.0, OBSERVATION_HIGH, (tensor_size(),), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.episode: Episode | None = None
        self.bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal game ``seed``; without one, a game drawn from the generator an earlier seed
        set (seed 0 if none ever was)."""
        if seed is None and self._np_random is None:
            seed = 0
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(MAX_SEED))
        names = [f"{name}-{i}" for i, name in enumerate(self._lineup())]
        self.episode = Episode(str(self.variant), self.players, game_seed, names)
        streams = np.random.SeedSequence(game_seed).spawn(self.players)
        self.bots = {seat: make_bot(name, int(streams[seat].generate_state(1)[0]))
                     for seat, name in enumerate(self._lineup()) if seat != self.seat}
        self._let_bots_move()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        episode = self._running()
        legal = episode.candidates().legal()
        slot = int(action)
        illegal = slot not in legal
        episode.step(legal[0] if illegal else slot)
        self._let_bots_move()
        reward = episode.rewards()[self.seat] if episode.over else 0.0
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return self._observe(), reward, episode.over, episode.truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal slots now (sb3-contrib's ``MaskablePPO`` asks for them by this name)."""
        return self._running().mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self._running().game)

    def record(self) -> dict[str, Any]:
        """The referee's record of the current game (``bots.referee.record``)."""
        return self._running().record()

    def _lineup(self) -> list[str]:
        bots = iter(self.opponents)
        return ["agent" if seat == self.seat else next(bots) for seat in range(self.players)]

    def _let_bots_move(self) -> None:
        episode = self._running()
        while not episode.over and not episode.truncated and episode.current != self.seat:
            episode.play_bot(self.bots[episode.current])

    def _observe(self) -> np.ndarray:
        return self._running().tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._running().mask(self.seat)}

    def _running(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode
