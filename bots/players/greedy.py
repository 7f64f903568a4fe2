"""``greedy``: plays the most cards the solver finds, else draws.

What every public Machiavelli/Rummikub solver implies, and the baseline to beat. It knocks in
carousel whenever it may.
"""

from __future__ import annotations

from dataclasses import replace

from bots.players.base import best_play, fallback, knock_allowed
from bots.referee.actions import Action
from bots.referee.observation import Observation
from solver import arguments


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        # deterministic: the seed is kept (checked) for the registry's uniformity
        self.seed = arguments.seed("seed", seed)

    def choose(self, observation: Observation) -> Action:
        if "play" in observation.legal:
            play = best_play(observation)
            if play is not None:
                if knock_allowed(observation, play):
                    play = replace(play, knock=True)
                return play
        return fallback(observation)
