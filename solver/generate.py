"""Seeded random positions for tests and benchmarks.

A table is built by laying random valid groups (sets and runs of 3..6 cards) from the packs
until it holds the requested number of cards, then optionally reshuffled into fresh groups by
merging runs; the hand is drawn from what is left, part of it near the table's cards so that
positions have plays worth finding.
"""

from __future__ import annotations

import numpy as np

from solver.cards import SUITS, Card
from solver.groups import slot_index, slot_window
from solver.position import Position
from solver.variants import Variant


def random_table(rng: np.random.Generator, variant: Variant, n_cards: int,
                 stock: np.ndarray) -> list[list[Card]]:
    """Lay random valid groups from ``stock`` (counts, updated in place) until ``n_cards``."""
    window = slot_window(variant.ace)
    groups: list[list[int]] = []
    placed = 0
    failures = 0
    while placed < n_cards and failures < 400:
        room = n_cards - placed
        if room < 3:
            break
        if rng.random() < 0.4:
            rank = int(rng.integers(13))
            suits = [s for s in range(4) if stock[s * 13 + rank] > 0]
            size = int(rng.integers(3, 5))
            if len(suits) < size or size > room:
                failures += 1
                continue
            chosen = sorted(int(s) for s in rng.choice(suits, size=size, replace=False))
            group = [s * 13 + rank for s in chosen]
        else:
            suit = int(rng.integers(4))
            length = min(int(rng.integers(3, 7)), room)
            start = int(rng.integers(window.start, window.stop - length + 1))
            group = [slot_index(suit, t) for t in range(start, start + length)]
            if any(stock[i] == 0 for i in group):
                failures += 1
                continue
        for i in group:
            stock[i] -= 1
        groups.append(group)
        placed += len(group)
    return [[Card.from_index(i) for i in group] for group in groups]


def random_hand(rng: np.random.Generator, stock: np.ndarray, table: list[list[Card]],
                n_cards: int, near: float = 0.5) -> list[Card]:
    """Draw ``n_cards`` from ``stock`` (updated in place); a share ``near`` of them are
    neighbours of table cards (same rank, or adjacent rank in the same suit)."""
    hand: list[int] = []
    table_idx = [card.index for group in table for card in group]
    for _ in range(n_cards):
        pick = -1
        if table_idx and rng.random() < near:
            base = table_idx[int(rng.integers(len(table_idx)))]
            suit, rank = divmod(base, 13)
            if rng.random() < 0.5:
                cand = [s * 13 + rank for s in range(4)]
            else:
                cand = [suit * 13 + (rank + d) % 13 for d in (-2, -1, 1, 2)]
            cand = [c for c in cand if stock[c] > 0]
            if cand:
                pick = int(cand[int(rng.integers(len(cand)))])
        if pick < 0:
            left = np.flatnonzero(stock)
            if len(left) == 0:
                break
            pick = int(rng.choice(np.repeat(left, stock[left])))
        stock[pick] -= 1
        hand.append(pick)
    return [Card.from_index(i) for i in hand]


def place_jokers(rng: np.random.Generator, table: list[list[Card]], stock: np.ndarray,
                 jokers: int, on_table: float, one_per_group: bool) -> int:
    """Swap up to ``jokers`` table cards for jokers naming them (the real card goes back to
    ``stock``), each with probability ``on_table``; returns the jokers left for the hand."""
    left = jokers
    for _ in range(jokers):
        groups = [g for g in table if len(g) >= 3
                  and not (one_per_group and any(card.joker for card in g))]
        if not groups or rng.random() >= on_table:
            continue
        group = groups[int(rng.integers(len(groups)))]
        slots = [i for i, card in enumerate(group) if not card.joker]
        at = slots[int(rng.integers(len(slots)))]
        stock[group[at].index] += 1
        group[at] = Card.named_joker(group[at])
        left -= 1
    return left


def random_position(rng: np.random.Generator | int, variant: Variant | str = "machiavelli",
                    table_cards: int = 30, hand_cards: int = 10, singles: int = 0,
                    near: float = 0.5, jokers: int = 0, jokers_on_table: float = 0.5) -> Position:
    """A valid random position: about ``table_cards`` on the table, ``hand_cards`` in hand,
    up to ``singles`` original singles and ``jokers`` jokers (only where the variant has them;
    each lies on the table with probability ``jokers_on_table``, else in the hand)."""
    rng = np.random.default_rng(rng)
    rules = Variant.parse(variant)
    stock = np.full(52, rules.decks, dtype=np.int64)
    table = random_table(rng, rules, table_cards, stock)
    in_hand = place_jokers(rng, table, stock, min(jokers, rules.jokers), jokers_on_table,
                           rules.joker_rule == "tahiti")
    for _ in range(min(singles, rules.singles)):
        left = np.flatnonzero(stock)
        pick = int(rng.choice(left))
        stock[pick] -= 1
        table.append([Card.from_index(pick)])
    hand = random_hand(rng, stock, table, hand_cards, near)
    hand += [Card.parse("*")] * in_hand
    return Position.make(table, hand, rules)


__all__ = ["random_position", "random_table", "random_hand", "SUITS"]
