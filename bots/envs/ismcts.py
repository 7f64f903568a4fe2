"""``ismcts``: OpenSpiel's information-set MCTS over the ``python_machiavelli`` game.

An outside opponent for the ladder (issue 13): its moves come from OpenSpiel's own search
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout evaluator), not from ours.
For each decision it rebuilds a full state consistent with its own view (``bots.envs.rebuild``),
and the search deals the unseen cards again for every simulation
(``MachiavelliState.resample_from_infostate``). Its choices are the slots of
``bots.envs.actions``, so it plays the same candidate moves a learning agent sees. Needs the
``rl`` extra (``pip install 'machiavelli-engine[rl]'``).
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from bots.envs import spiel
from bots.envs.rebuild import rebuild
from bots.referee.actions import Action
from bots.referee.observation import Observation
from solver import arguments

SIMULATIONS = 16
"""Simulations per decision by default, read when a bot is made (``machiavelli tournament
--budget`` does not change it: the budget is a number of simulations,
``IsmctsBot(simulations=...)``; ``bench.ladder anchor`` sets it to match the expert's move
time before it seats the level)."""
UCT_C = 2.0
ROLLOUTS = 1
PLAYS = 7
"""Play generators the search's game keeps (``bots.envs.actions.PLAY_GENERATORS``: the
biggest plays and those a card or two short, not the single cards): each rollout move then
costs a third of the full list's searches."""


class IsmctsBot:
    """IS-MCTS with ``simulations`` random-rollout simulations per decision, seeded."""

    name = "ismcts"

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        self.seed = arguments.seed("seed", seed)
        self.simulations = arguments.integer(
            "simulations", SIMULATIONS if simulations is None else simulations, 1, 100_000)
        self.rng = np.random.default_rng(self.seed)
        self._games: dict[tuple[str, int], pyspiel.Game] = {}

    def choose(self, observation: Observation) -> Action:
        game = self._game(observation)
        state = game.new_initial_state()
        state.attach(rebuild(observation, self.rng))
        legal = state.legal_actions()
        if len(legal) == 1:
            return state.candidates().action(legal[0])
        stream = np.random.RandomState(int(self.rng.integers(2**31)))
        evaluator = mcts.RandomRolloutEvaluator(ROLLOUTS, stream)
        searcher = ismcts.ISMCTSBot(game, evaluator, UCT_C, self.simulations,
                                    random_state=stream,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        return state.candidates().action(int(searcher.step(state)))

    def _game(self, observation: Observation) -> pyspiel.Game:
        key = (str(observation.variant), len(observation.players))
        if key not in self._games:
            spiel.register()
            self._games[key] = pyspiel.load_game(
                spiel.SHORT_NAME, {"variant": key[0], "players": key[1], "plays": PLAYS})
        return self._games[key]

