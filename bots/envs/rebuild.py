"""A full referee game consistent with one player's view: what an outside searcher starts from.

A bot sees only its ``Observation`` (docs/architecture.md), but OpenSpiel's search needs a
whole state. ``rebuild`` deals the hand again so that it agrees with everything the player has
seen: its own hand and draws as they were, every card an opponent played in that opponent's
hand (or among its draws) before the play, the unseen cards at random for the rest, and then
replays the hand's public history through the referee, so the turn state (draws, passes, the
carousel's last turns) is the referee's own. Docs: docs/environments.md, "IS-MCTS".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from bots.envs.episode import apply_insisting
from bots.referee.actions import Action, Draw, GiveUp, Pass, Play
from bots.referee.game import Game, build_deck
from bots.referee.observation import Observation
from solver.cards import Card
from solver.validate import physical


class _Seat:
    """One seat's cards as the rebuilt deal needs them: known cards per slot, in order."""

    def __init__(self, dealt: int) -> None:
        self.slots: list[Card | None] = [None] * dealt  # dealt cards, then drawn ones
        self.held: list[int] = list(range(dealt))  # slots still in hand

    def draw(self, cards: list[Card | None]) -> list[int]:
        start = len(self.slots)
        self.slots.extend(cards)
        self.held.extend(range(start, start + len(cards)))
        return list(range(start, start + len(cards)))

    def spend(self, card: Card) -> None:
        """Play ``card``: a held slot known to be it, else an unknown held slot becomes it."""
        for slot in self.held:
            if self.slots[slot] == card:
                self.held.remove(slot)
                return
        for slot in self.held:
            if self.slots[slot] is None:
                self.slots[slot] = card
                self.held.remove(slot)
                return
        raise ValueError(f"the history plays {card} from a hand that cannot hold it")


def rebuild(observation: Observation, rng: np.random.Generator) -> Game:
    """A referee game at the point ``observation`` shows, hidden cards dealt by ``rng``."""
    variant, n, me = observation.variant, len(observation.players), observation.player
    seats = [_Seat(variant.deal) for _ in range(n)]
    draws: list[tuple[int, list[int]]] = []  # (seat, its slots) per draw, in stock order
    for event in observation.history:
        seat = seats[event["player"]]
        if "count" in event:
            known: list[Card | None] = [Card.parse(c) for c in event.get("drawn", [])]
            known = known or [None] * event["count"]
            draws.append((event["player"], seat.draw(known)))
        for text in event.get("played", ()):
            seat.spend(physical(Card.parse(text)))
    mine = seats[me]
    for slot, card in zip(mine.held, _own_held(observation, mine), strict=True):
        mine.slots[slot] = card
    table = _initial_table(observation)
    unseen = _unseen(observation, seats, table, n)
    order = rng.permutation(len(unseen))
    fill = iter([unseen[i] for i in order])
    for seat in seats:
        seat.slots = [card if card is not None else next(fill) for card in seat.slots]
    stock = [seats[who].slots[slot] for who, slots in draws for slot in slots]
    stock += list(fill)
    deal = {"dealer": observation.dealer,
            "hands": [[str(c) for c in seat.slots[:variant.deal]] for seat in seats],
            "table": [[str(c)] for c in table], "stock": [str(c) for c in stock]}
    game = Game(variant, list(observation.players), 0, deals=[deal])
    for entry in _moves(observation.history):
        apply_insisting(game, entry)
    return game


def _own_held(observation: Observation, mine: _Seat) -> list[Card]:
    """The observer's held slots in order: known ones first matched, the rest from its hand."""
    left = Counter(physical(c) for c in observation.hand)
    for slot in mine.held:
        card = mine.slots[slot]
        if card is not None:
            left[card] -= 1
    unknown = sorted(left.elements(), key=Card.sort_key)
    return [mine.slots[slot] or unknown.pop(0) for slot in mine.held]


def _initial_table(observation: Observation) -> list[Card]:
    """The face-up singles the hand began with (docs/rules.md §5): the table before the
    first play, as single cards."""
    if not observation.variant.singles:
        return []
    first = next((e for e in observation.history if e["type"] == "play"), None)
    if first is None:
        return [group[0] for group in observation.table]
    after = Counter(physical(Card.parse(c)) for group in first["table"] for c in group)
    after -= Counter(physical(Card.parse(c)) for c in first["played"])
    return sorted(after.elements(), key=Card.sort_key)


def _unseen(observation: Observation, seats: list[_Seat], table: list[Card], n: int
            ) -> list[Card]:
    """The pack less every card placed: what the random part of the deal is made of."""
    pack = Counter(build_deck(observation.variant, n))
    pack -= Counter(table)
    for seat in seats:
        pack -= Counter(card for card in seat.slots if card is not None)
    return sorted(pack.elements(), key=Card.sort_key)


def _moves(history: Any) -> list[Action]:
    """The hand's moves as the referee takes them (a draw's ``count`` is the referee's)."""
    moves: list[Action] = []
    for at, event in enumerate(history):
        kind = event["type"]
        if kind == "play":
            following = history[at + 1] if at + 1 < len(history) else None
            knock = bool(following and following["type"] == "knock")
            moves.append(Play.make(event["played"], event["table"], knock))
        elif kind == "draw" and not _follows_play(history, at):
            moves.append(Draw())
        elif kind == "pass":
            moves.append(Pass())
        elif kind == "penalty":
            moves.append(GiveUp())
    return moves


def _follows_play(history: Any, at: int) -> bool:
    """Guadalupe's draw after a play is part of the play, not a move of its own."""
    return at > 0 and history[at - 1]["type"] == "play" and \
        history[at - 1]["player"] == history[at]["player"]
