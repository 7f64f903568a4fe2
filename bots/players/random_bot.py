"""``random``: a uniformly random legal action.

It first draws the kind of action uniformly among those open now (play, draw, pass, give up),
then, for a play, one play uniformly among its candidates: every group the hand alone can lay
and every single hand card added to a table group (the solver's play too, for an opening play,
which simple melds rarely satisfy), with a knock as its own option where it is open. Plays the
rules reject (an opening rule, a locked group...) are filtered out with the referee's own
validator.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np

from bots.players.base import best_play, knock_allowed
from bots.referee.actions import Action, Draw, GiveUp, Pass, Play
from bots.referee.observation import Observation
from solver import arguments
from solver.cards import Card
from solver.groups import arrange_group, is_valid_group
from solver.validate import play_problems


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(arguments.seed("seed", seed))

    def choose(self, observation: Observation) -> Action:
        options = candidates(observation)
        kinds: dict[type, list[Action]] = {}
        for option in options:
            kinds.setdefault(type(option), []).append(option)
        pool = list(kinds.values())[int(self.rng.integers(len(kinds)))]
        return pool[int(self.rng.integers(len(pool)))]


def candidates(observation: Observation) -> list[Action]:
    """Every action the random bot may pick (never empty while the game runs)."""
    options: list[Action] = []
    if "draw" in observation.legal:
        options.append(Draw())
    if "pass" in observation.legal:
        options.append(Pass())
    if "give_up" in observation.legal:
        options.append(GiveUp())
    if "play" in observation.legal:
        for play in _plays(observation):
            options.append(play)
            if knock_allowed(observation, play):
                options.append(replace(play, knock=True))
    return options or [Pass()]


def hand_melds(cards: list[Card], ace: str) -> list[tuple[Card, ...]]:
    """Every set of 3-4 suits and every run of 3 the distinct ``cards`` hold, in reading order."""
    melds: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, set[int]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, set()).add(card.rank)
    for same in by_rank.values():
        for size in (3, 4):
            melds.extend(tuple(sorted(group)) for group in combinations(same, size))
    order = {"low": range(1, 14), "high": range(2, 15), "both": range(1, 15)}[ace]
    for suit, ranks in by_suit.items():
        line = [r for r in order if (1 if r == 14 else r) in ranks]
        for r in line:
            window = [r, r + 1, r + 2]
            if all(w in line for w in window):
                melds.append(tuple(Card(1 if w == 14 else w, suit) for w in window))
    return melds


def _plays(observation: Observation) -> list[Play]:
    position = observation.position()
    ace = observation.variant.ace
    hand = [card for card in position.hand if not card.joker]
    table = list(position.table)
    seen: set[tuple] = set()
    plays: list[Play] = []

    def offer(played: tuple[Card, ...], new_table: list[tuple[Card, ...]]) -> None:
        key = (tuple(sorted(played)), tuple(sorted(tuple(sorted(g)) for g in new_table)))
        if key in seen:
            return
        seen.add(key)
        if not play_problems(position, played, new_table):
            plays.append(Play(played, tuple(new_table)))

    if not position.opened:
        best = best_play(observation)
        if best is not None:
            offer(best.played, list(best.table))
    distinct = sorted(set(hand))
    for group in hand_melds(distinct, ace):
        offer(group, table + [group])
    for card in distinct:
        for i, group in enumerate(table):
            grown = list(group) + [card]
            if len(grown) >= 3 and is_valid_group(grown, ace):
                offer((card,), table[:i] + [tuple(arrange_group(grown, ace))] + table[i + 1:])
    return plays
