"""The expert's estimate of the chances to win from a position, by rollouts.

The position gives the table and the hand; the opponents' hand sizes are given (the stock
holds the rest of the packs). Each rollout deals the unseen cards at random, lets the
``expert`` make its move, and plays the game out with the fast simulator (``bots.players.sim``)
until someone goes out (or ``MAX_ROUNDS`` rounds pass and the position is judged).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bots.players.expert import ExpertBot, opponent_policies
from bots.players.sim import GREEDY
from bots.referee.game import build_deck
from bots.referee.observation import Observation
from solver import arguments
from solver.errors import InvalidArgumentError, clip
from solver.position import Position

MAX_ROUNDS = 60
MAX_ROLLOUTS = 1_000_000


@dataclass(frozen=True)
class WinChance:
    rollouts: int
    chance: float
    ci95: tuple[float, float]

    def to_json(self) -> dict:
        """``{"chance", "ci95", "rollouts"}``, rounded to 4 places (the ``win_chance`` of
        ``machiavelli analyze --json`` and of the engine protocol's ``analyze``)."""
        return {"chance": round(self.chance, 4), "ci95": [round(x, 4) for x in self.ci95],
                "rollouts": self.rollouts}

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (f"winning chances {self.chance:.0%} (95% interval {lo:.0%}-{hi:.0%}, "
                f"{self.rollouts} rollouts)")


def observation_for(position: Position, opponents: list[int]) -> Observation:
    """Player 0's view of ``position`` with opponents holding ``opponents[i]`` cards each."""
    most = position.variant.max_players - 1
    if not isinstance(opponents, list) or not 1 <= len(opponents) <= most:
        raise InvalidArgumentError(f"opponents is a list of 1 to {most} hand sizes "
                                   f"({position.variant.name} seats {most + 1} at most)")
    for size in opponents:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidArgumentError(f"an opponent's hand size is a whole number of cards, "
                                       f"not {clip(repr(size))}")
        if size < 1:
            raise InvalidArgumentError(f"an opponent's hand size must be positive (at least 1 "
                                       f"card), not {size}")
    deck = len(build_deck(position.variant, 1 + len(opponents)))
    stock = deck - len(position.table_cards) - len(position.hand) - sum(opponents)
    if stock < 0:
        raise InvalidArgumentError(
            f"opponents' hands {clip(','.join(map(str, opponents)))} do not fit in the packs "
            f"({deck} cards, {len(position.table_cards) + len(position.hand)} seen)")
    names = ("you",) + tuple(f"opponent {i + 1}" for i in range(len(opponents)))
    return Observation(
        variant=position.variant, player=0, players=names, hand=tuple(position.hand),
        table=tuple(tuple(group) for group in position.table),
        hand_sizes=(len(position.hand), *opponents), stock_size=stock, history=(),
        legal=frozenset({"play", "draw"}), draws_this_turn=0, drawn_this_turn=(),
        playable_hand=tuple(position.hand), opened=(position.opened,) * (1 + len(opponents)),
        last_turn=False, can_knock_value=-1, totals=(0,) * (1 + len(opponents)),
        hand_number=0, dealer=len(opponents))


def win_chance(position: Position, opponents: list[int], rollouts: int = 200, seed: int = 0,
               progress: Callable[[int, int], None] | None = None) -> WinChance:
    """Share of ``rollouts`` games the expert wins from ``position`` (ties shared), the
    opponents holding ``opponents[i]`` cards each (``observation_for``)."""
    arguments.instance("position", position, Position)
    arguments.integer("rollouts", rollouts, 1, MAX_ROLLOUTS)
    arguments.seed("seed", seed)
    return _played_out(observation_for(position, opponents), rollouts, seed, progress)


def win_chance_seen(observation: Observation, rollouts: int = 200, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> WinChance:
    """``win_chance`` for what a player sees in a game (its ``Observation``: the opponents'
    hand sizes, the stock, who has opened, the turn's draws), as the engine protocol's
    ``analyze`` asks during a game."""
    arguments.instance("observation", observation, Observation)
    arguments.integer("rollouts", rollouts, 1, MAX_ROLLOUTS)
    arguments.seed("seed", seed)
    return _played_out(observation, rollouts, seed, progress)


def _played_out(observation: Observation, rollouts: int, seed: int,
                progress: Callable[[int, int], None] | None) -> WinChance:
    """The rollouts behind ``win_chance`` and ``win_chance_seen``, on checked arguments."""
    expert = ExpertBot(seed)
    move = expert.choose(observation)
    rivals = opponent_policies(observation)
    results = []
    for done in range(1, rollouts + 1):
        world = expert.deal(observation)
        results.append(expert.rollout(observation, world, (move, GREEDY), rivals, MAX_ROUNDS))
        if progress:
            progress(done, rollouts)
    chance = float(np.mean(results))
    half = 1.96 * math.sqrt(max(chance * (1 - chance), 1e-9) / len(results))
    return WinChance(len(results), chance, (max(0.0, chance - half), min(1.0, chance + half)))
