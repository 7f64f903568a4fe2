"""The environments' action space: a fixed-size, deterministic list of candidate moves.

Every decision offers ``NUM_ACTIONS`` slots (docs/environments.md, "Actions"):

- ``0`` draw, ``1`` pass, ``2`` give up (docs/rules.md §3, §3.1), each where the turn allows it;
- ``3 .. 3 + PLAY_SLOTS - 1``: candidate plays, one generator per slot (``PLAY_GENERATORS``);
- ``3 + PLAY_SLOTS ..``: the same plays followed by a knock (carousel, docs/rules.md §4.3).

The candidate plays come from the solver on the player's own view only (the observation's
playable hand and the table, never a hidden card), each search capped by a fixed amount of
work (``SOLVE_LIMIT``), so the same view always gives the same list on any machine. A slot
whose generator finds nothing, finds an illegal play, or repeats an earlier slot's play is
masked off; the mask marks exactly the legal slots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from bots.players.base import knock_allowed
from bots.players.options import SOLVE_LIMIT
from bots.referee.actions import Action, Draw, GiveUp, Pass, Play, play_from_solution
from bots.referee.observation import Observation
from solver.api import solve_position
from solver.cards import Card
from solver.position import Position
from solver.validate import physical, play_problems

DRAW, PASS, GIVE_UP = 0, 1, 2
FIRST_PLAY = 3
SINGLE_SLOTS = 9
"""Slots for single hand cards placed alone (the first that fit, in card order)."""


class _View:
    """One position and the searches several generators share, each done once."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self._biggest: tuple[Play | None] | None = None  # searched once, even when empty
        self._singles: list[Play] | None = None

    def biggest(self) -> Play | None:
        """The most cards the solver plays (slot 3), searched once."""
        if self._biggest is None:
            self._biggest = (_solved(self.position),)
        return self._biggest[0]

    def singles(self) -> list[Play]:
        """Single hand cards the solver can place alone, the first ``SINGLE_SLOTS`` in card
        order."""
        if self._singles is None:
            self._singles = []
            position = self.position
            for card in sorted(set(position.hand), key=Card.sort_key):
                if not _may_fit(card, position):
                    continue
                alone = _solved(Position(position.table, (card,), position.variant,
                                         position.opened))
                if alone is not None:
                    self._singles.append(alone)
                    if len(self._singles) == SINGLE_SLOTS:
                        break
        return self._singles


def _may_fit(card: Card, position: Position) -> bool:
    """A quick necessary condition for placing ``card`` alone (docs/rules.md §2): a group
    holding it needs two more cards of its rank, or two of its suit within two ranks of it,
    unless jokers are about. It only skips searches that would find nothing."""
    if card.joker or any(c.joker for group in position.table for c in group):
        return True
    if not position.opened and (position.variant.opening_points or position.variant.opening_run):
        return False  # one card never makes an opening play (docs/rules.md §6)
    cards = [c for group in position.table for c in group]
    same_rank = sum(1 for c in cards if c.rank == card.rank)
    near = {c.rank for c in cards if c.suit == card.suit and _distance(c.rank, card.rank) <= 2}
    return same_rank >= 2 or len(near - {card.rank}) >= 2


def _distance(a: int, b: int) -> int:
    """Rank distance, an ace counting as 1 or 14 (whichever is nearer)."""
    return min(abs(a - b), abs((14 if a == 1 else a) - (14 if b == 1 else b)))


def _most_cards(view: _View) -> Play | None:
    return view.biggest()


def _most_points(view: _View) -> Play | None:
    return _solved(view.position, "points")


def _hand_only(view: _View) -> Play | None:
    """The biggest play from the hand alone, laid beside the table: it disturbs no group."""
    position = view.position
    alone = _solved(Position((), position.hand, position.variant, position.opened))
    if alone is None:
        return None
    play = Play(alone.played, tuple(position.table) + alone.table)
    return None if play_problems(position, play.played, play.table) else play


def _short(drop: int, count: int = 1) -> Callable[[_View], Play | None]:
    """The biggest play without the biggest play's ``drop``-th most valuable card (and the
    ``count - 1`` after it): a card or two short, keeping those cards in hand."""

    def generate(view: _View) -> Play | None:
        biggest = view.biggest()
        if biggest is None:
            return None
        ranked = sorted(biggest.played, key=lambda c: (-c.points, c.sort_key()))
        if len(ranked) < drop + count:
            return None
        position = view.position
        hand = list(position.hand)
        for card in ranked[drop:drop + count]:
            hand.remove(physical(card))
        return _solved(Position(position.table, tuple(hand), position.variant, position.opened))

    return generate


def _single(index: int) -> Callable[[_View], Play | None]:
    """The ``index``-th distinct hand card (in card order) that the solver can place alone."""

    def generate(view: _View) -> Play | None:
        found = view.singles()
        return found[index] if index < len(found) else None

    return generate


#: One generator per play slot, in slot order (docs/environments.md lists them).
PLAY_GENERATORS: tuple[tuple[str, Callable[[_View], Play | None]], ...] = (
    ("most cards", _most_cards),
    ("most points", _most_points),
    ("hand only", _hand_only),
    ("one short (1st card)", _short(0)),
    ("one short (2nd card)", _short(1)),
    ("one short (3rd card)", _short(2)),
    ("two short", _short(0, 2)),
    *((f"single card {i + 1}", _single(i)) for i in range(SINGLE_SLOTS)),
)
PLAY_SLOTS = len(PLAY_GENERATORS)
FIRST_KNOCK = FIRST_PLAY + PLAY_SLOTS
NUM_ACTIONS = FIRST_KNOCK + PLAY_SLOTS


@dataclass(frozen=True)
class Candidates:
    """The slots of one decision: the action each legal slot stands for, and the mask."""

    actions: tuple[Action | None, ...]
    """``NUM_ACTIONS`` entries; None where the slot is masked off."""

    @property
    def mask(self) -> np.ndarray:
        """1 for each legal slot, 0 for the others (int8, as PettingZoo and sb3 expect)."""
        return np.array([a is not None for a in self.actions], dtype=np.int8)

    def legal(self) -> list[int]:
        """The legal slot ids, ascending."""
        return [i for i, action in enumerate(self.actions) if action is not None]

    def action(self, slot: int) -> Action:
        """The move slot ``slot`` stands for; ``ValueError`` if it is not legal now."""
        if not 0 <= slot < NUM_ACTIONS or self.actions[slot] is None:
            raise IllegalSlotError(f"action {slot} is not legal now (legal: {self.legal()})")
        action = self.actions[slot]
        assert action is not None
        return action


class IllegalSlotError(ValueError):
    """An action id outside the mask."""


def candidates(observation: Observation, plays: int = PLAY_SLOTS) -> Candidates:
    """Every slot's move for the player to move, from ``observation`` alone; only the first
    ``plays`` play generators run (the rest of the play slots stay masked: a cheaper game
    for searches that play many random rollouts)."""
    slots: list[Action | None] = [None] * NUM_ACTIONS
    legal = observation.legal
    slots[DRAW] = Draw() if "draw" in legal else None
    slots[PASS] = Pass() if "pass" in legal else None
    slots[GIVE_UP] = GiveUp() if "give_up" in legal else None
    if "play" in legal:
        position = observation.position()
        view = _View(position)
        seen: set[tuple] = set()
        for slot, (_, generate) in enumerate(PLAY_GENERATORS[:plays]):
            play = generate(view)
            if play is None or _key(play) in seen:
                continue  # the solver's plays are checked by the solver (solver.api)
            seen.add(_key(play))
            slots[FIRST_PLAY + slot] = play
            if knock_allowed(observation, play):
                slots[FIRST_KNOCK + slot] = replace(play, knock=True)
    return Candidates(tuple(slots))


def describe(slot: int) -> str:
    """What slot ``slot`` means, for people (``action_to_string``, docs)."""
    if slot < FIRST_PLAY:
        return ("draw", "pass", "give up")[slot]
    name = PLAY_GENERATORS[(slot - FIRST_PLAY) % PLAY_SLOTS][0]
    return f"play {name}" + (" and knock" if slot >= FIRST_KNOCK else "")


def play_sizes(found: Candidates) -> np.ndarray:
    """Cards and points each play slot adds (0 where masked): features for a learner."""
    sizes = np.zeros((PLAY_SLOTS, 2), dtype=np.float32)
    for slot in range(PLAY_SLOTS):
        play = found.actions[FIRST_PLAY + slot]
        if isinstance(play, Play):
            sizes[slot] = (len(play.played), sum(c.points for c in play.played if c.is_named))
    return sizes


def _solved(position: Position, objective: str = "cards") -> Play | None:
    solution = solve_position(position, objective, limit=SOLVE_LIMIT)
    return play_from_solution(solution) if solution.played else None


def _key(play: Play) -> tuple:
    return (tuple(sorted(str(c) for c in play.played)),
            tuple(sorted(tuple(sorted(str(c) for c in g)) for g in play.table)))

