"""``expert``: searches. It deals the unseen cards at random many times over (consistent with
what it has seen: its hand, the table, everyone's hand size, the stock size) and, in each
imagined world, tries each plan: a first move (the biggest play, the other biggest plays and
those a card short, single cards, or drawing instead) and how it goes on (greedy, or hoarding:
drawing until its whole hand can go out at once). The game runs on for a few turns
(``bots.sim``), with opponents modelled from what they have shown (a player whose hand keeps
growing without playing is a hoarder), and is judged by how far each player is from going
out. It keeps the biggest play unless a plan beats it clearly over the same worlds, within a
time budget per move. Where rollouts cannot model the variant (jokers, carousel's turns) it
plays as the planner does.
"""

from __future__ import annotations

import time

import numpy as np

from bots.actions import Action, Draw, Play
from bots.game import build_deck
from bots.observation import Observation
from bots.players.base import fallback
from bots.players.options import search_options
from bots.players.planner import PlannerBot
from bots.sim import GREEDY, HOARD, SimState, supported
from solver.cards import N_CARD_TYPES

DEFAULT_BUDGET = 0.5
ROLLOUT_TURNS = 12  # turns played out after the candidate move before judging the position
MIN_SAMPLES = 8  # rollouts a plan needs before it can replace the default
SIGNIFICANCE = 1.0  # standard errors by which a plan must beat the default (biggest, greedy)
HOARD_GROWTH = 4  # cards past the deal (with that many draws) that mark a hoarder
OPTIONS_SHARE = 0.3  # share of the budget the options may take before the rollouts


class ExpertBot:
    name = "expert"

    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET) -> None:
        self.rng = np.random.default_rng(seed)
        self.budget = budget
        self.planner = PlannerBot(seed)

    def choose(self, observation: Observation) -> Action:
        started = time.perf_counter()
        if "play" not in observation.legal or not supported(observation.variant):
            return self.planner.choose(observation)
        options = search_options(observation, deadline=started + OPTIONS_SHARE * self.budget)
        if not options:
            return fallback(observation)
        if len(options) == 1 or (isinstance(options[0], Play)
                                 and len(options[0].played) == len(observation.playable_hand)):
            return options[0]  # a single option, or going out
        plans = self._plans(observation, options)
        rivals = opponent_policies(observation)
        deadline = started + 0.9 * self.budget
        gains: list[list[float]] = [[] for _ in plans]
        spent = 0.0  # the longest rollout so far: no new one starts unless it fits
        while time.perf_counter() + spent < deadline:
            world = self._deal(observation)
            base = self._rollout(observation, world, plans[0], rivals)
            for i in range(1, len(plans)):
                begun = time.perf_counter()
                if begun + spent >= deadline:
                    break
                gains[i].append(self._rollout(observation, world, plans[i], rivals) - base)
                spent = max(spent, time.perf_counter() - begun)
        best, best_score = 0, 0.0
        for i in range(1, len(plans)):
            samples = np.array(gains[i])
            if len(samples) < MIN_SAMPLES:
                continue
            error = samples.std(ddof=1) / np.sqrt(len(samples))
            score = samples.mean() - SIGNIFICANCE * error  # better than the default, surely
            if score > best_score:
                best, best_score = i, score
        return plans[best][0]

    @staticmethod
    def _plans(observation: Observation, options: list[Action]) -> list[tuple[Action, int]]:
        """(first move, how this player goes on): every play then greedy; and, where the
        turn lets a player draw instead of playing, hoarding (draw now, go out at once later)
        and the biggest play then hoarding."""
        plans = [(option, GREEDY) for option in options if isinstance(option, Play)]
        if any(isinstance(option, Draw) for option in options):
            plans += [(Draw(), HOARD), (options[0], HOARD)]
        return plans

    def _deal(self, observation: Observation) -> tuple[list[np.ndarray], list[int]]:
        """One guess at the unseen cards: the opponents' hands and the stock order."""
        seen = np.zeros(N_CARD_TYPES, dtype=np.int64)
        for card in observation.hand:
            seen[card.index] += 1
        for group in observation.table:
            for card in group:
                seen[card.index] += 1
        unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
        for card in build_deck(observation.variant, len(observation.players)):
            unseen[card.index] += 1
        unseen = np.clip(unseen - seen, 0, None)
        pool = np.repeat(np.arange(N_CARD_TYPES), unseen)
        self.rng.shuffle(pool)
        hands, at = [], 0
        for player, size in enumerate(observation.hand_sizes):
            hand = np.zeros(N_CARD_TYPES, dtype=np.int64)
            if player == observation.player:
                for card in observation.hand:
                    hand[card.index] += 1
            else:
                np.add.at(hand, pool[at:at + size], 1)
                at += size
            hands.append(hand)
        return hands, [int(c) for c in pool[at:]]

    def _rollout(self, observation: Observation, world, plan: tuple[Action, int],
                 rivals: list[int]) -> float:
        hands, stock = world
        me = observation.player
        option, policy = plan
        policies = list(rivals)
        policies[me] = policy
        state = SimState(observation.variant, [h.copy() for h in hands],
                         [tuple(c.index for c in group) for group in observation.table],
                         list(stock), me, list(observation.opened), policies)
        if isinstance(option, Play):
            played = np.zeros(N_CARD_TYPES, dtype=np.int64)
            for card in option.played:
                played[card.index] += 1
            state.play(me, played, [tuple(c.index for c in group) for group in option.table])
            if not state.over and observation.variant.turn == "guadalupe":
                state.draw(me)
        else:
            state.draw(me, 2 if observation.variant.turn == "guadalupe" else 1)
        state.current = (me + 1) % len(hands)
        for _ in range(ROLLOUT_TURNS * len(hands)):
            if state.over:
                break
            state.step()
        return state.outcome(me)


def opponent_policies(observation: Observation) -> list[int]:
    """How the expert expects each player to go on: a player whose hand has grown well past
    the deal while it drew and hardly ever played is taken for a hoarder, the rest for greedy."""
    plays = [0] * len(observation.players)
    draws = [0] * len(observation.players)
    for event in observation.history:
        if event["type"] == "play":
            plays[event["player"]] += 1
        elif event["type"] == "draw":
            draws[event["player"]] += 1
    deal = observation.variant.deal
    return [HOARD if (observation.hand_sizes[i] >= deal + HOARD_GROWTH and plays[i] <= 1
                      and draws[i] >= HOARD_GROWTH) else GREEDY
            for i in range(len(observation.players))]
