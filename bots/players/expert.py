"""``expert``: searches. It deals the unseen cards at random many times over (consistent with
what it has seen: its hand, the table, everyone's hand size, the stock size), plays each
candidate move in each imagined world and lets the game run on with greedy players for a few
turns (``bots.sim``), and picks the candidate that wins most often. Its candidates are the
planner's (the biggest play and the single cards that fit alone); it stays within a time
budget per move. Where rollouts cannot model the variant (jokers, carousel's turns) it plays
as the planner does.
"""

from __future__ import annotations

import time

import numpy as np

from bots.actions import Action, Draw, Play, play_from_solution
from bots.game import build_deck
from bots.observation import Observation
from bots.players.base import fallback
from bots.players.planner import PlannerBot
from bots.sim import SimState, supported
from solver.api import solve_position
from solver.cards import N_CARD_TYPES
from solver.position import Position

DEFAULT_BUDGET = 0.5
ROLLOUT_TURNS = 12  # turns played out after the candidate move before judging the position
MAX_OPTIONS = 8  # plays searched (the biggest first), plus drawing where that is allowed
MIN_SAMPLES = 8  # rollouts an option needs before it can replace the biggest play
SIGNIFICANCE = 1.0  # standard errors by which an option must beat the biggest play


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
        options = search_options(observation)
        if not options:
            return fallback(observation)
        if len(options) == 1 or (isinstance(options[0], Play)
                                 and len(options[0].played) == len(observation.playable_hand)):
            return options[0]  # a single option, or going out
        deadline = started + 0.9 * self.budget
        gains: list[list[float]] = [[] for _ in options]
        while time.perf_counter() < deadline:
            world = self._deal(observation)
            base = self._rollout(observation, world, options[0])
            for i in range(1, len(options)):
                if time.perf_counter() >= deadline:
                    break
                gains[i].append(self._rollout(observation, world, options[i]) - base)
        best, best_score = 0, 0.0
        for i in range(1, len(options)):
            samples = np.array(gains[i])
            if len(samples) < MIN_SAMPLES:
                continue
            mean = samples.mean()
            error = samples.std(ddof=1) / np.sqrt(len(samples)) if len(samples) > 1 else 1.0
            score = mean - SIGNIFICANCE * error  # better than the biggest play, for sure
            if score > best_score:
                best, best_score = i, score
        return options[best]

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

    def _rollout(self, observation: Observation, world, option: Action) -> float:
        hands, stock = world
        me = observation.player
        state = SimState(observation.variant, [h.copy() for h in hands],
                         [tuple(c.index for c in group) for group in observation.table],
                         list(stock), me, list(observation.opened))
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


def search_options(observation: Observation, limit: int = MAX_OPTIONS) -> list[Action]:
    """The biggest play first, then the other biggest plays and those a card short (each
    found without one of the biggest play's cards), single cards that fit alone, and drawing
    instead where the turn allows it."""
    position = observation.position()
    biggest = solve_position(position)
    if not biggest.played:
        return []
    options: list[Action] = [play_from_solution(biggest)]
    seen = {_key(biggest.played)}
    for card in sorted(set(biggest.played)):
        hand = list(position.hand)
        hand.remove(card)
        other = solve_position(Position(position.table, tuple(hand), position.variant,
                                        position.opened))
        if other.played and _key(other.played) not in seen:
            seen.add(_key(other.played))
            options.append(play_from_solution(other))
    for card in sorted(set(position.hand)):
        if _key([card]) in seen:
            continue
        alone = solve_position(Position(position.table, (card,), position.variant,
                                        position.opened))
        if alone.played:
            seen.add(_key([card]))
            options.append(play_from_solution(alone))
    options = options[:limit]
    if "draw" in observation.legal and observation.variant.turn == "play_or_draw":
        options.append(Draw())
    return options


def _key(cards) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in cards))
