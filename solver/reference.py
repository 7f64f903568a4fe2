"""A brute-force reference solver in plain Python, for tests on small positions.

It shares nothing with the backends but the group validator: it enumerates every sub-multiset
of the hand, best first, and asks whether the table plus those cards can be cut into valid
groups by trying, for the smallest remaining card, every valid group that contains it.
Exponential, so only for small positions (hand up to ~7 cards, table up to ~15).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, product

from solver.cards import SUITS, Card
from solver.groups import is_valid_group
from solver.position import Position
from solver.validate import has_hand_run


def all_groups(ace: str) -> list[tuple[Card, ...]]:
    """Every valid set and run of real cards under ``ace``, found by asking the validator."""
    groups: list[tuple[Card, ...]] = []
    for rank in range(1, 14):
        for size in (3, 4):
            for suits in combinations(SUITS, size):
                group = tuple(Card(rank, suit) for suit in suits)
                if is_valid_group(group, ace):
                    groups.append(group)
    ring = list(range(1, 14)) + [1]  # A 2 .. K A: the validator decides which windows are runs
    seen = set()
    for suit in SUITS:
        for start in range(len(ring)):
            for length in range(3, 14):
                if start + length > len(ring):
                    break
                group = tuple(Card(rank, suit) for rank in ring[start:start + length])
                key = frozenset(group)
                if len(key) == len(group) and key not in seen and is_valid_group(group, ace):
                    seen.add(key)
                    groups.append(group)
    return groups


def best_value(position: Position, objective: str = "cards") -> int:
    """The optimal objective value for ``position`` (0 when nothing can be played)."""
    variant = position.variant
    groups = all_groups(variant.ace)
    containing: dict[Card, list[tuple[Card, ...]]] = {}
    for group in groups:
        for card in group:
            containing.setdefault(card, []).append(group)
    singles = Counter(position.singles)
    opening = not position.opened

    @cache
    def splits(cards: tuple[Card, ...], spare_singles: tuple[Card, ...]) -> bool:
        if not cards:
            return True
        rest = Counter(cards)
        first = min(rest, key=Card.sort_key)
        if first in spare_singles:  # an original single may stay alone
            left = rest.copy()
            left[first] -= 1
            spare = list(spare_singles)
            spare.remove(first)
            if splits(_key(left), tuple(sorted(spare, key=Card.sort_key))):
                return True
        for group in containing.get(first, ()):
            need = Counter(group)
            if all(rest[c] >= n for c, n in need.items()):
                if splits(_key(rest - need), spare_singles):
                    return True
        return False

    table = Counter(card for group in position.table for card in group)
    hand = Counter(position.hand)
    kinds = sorted(hand, key=Card.sort_key)
    choices = []
    for counts in product(*(range(hand[card] + 1) for card in kinds)):
        played = Counter({card: n for card, n in zip(kinds, counts, strict=True) if n})
        choices.append((_value(played, objective), played))
    choices.sort(key=lambda item: -item[0])
    spare = tuple(sorted(singles.elements(), key=Card.sort_key))
    for value, played in choices:
        if value == 0:
            return 0
        if opening and variant.opening_points:
            points = sum(card.points * n for card, n in played.items())
            if points >= variant.opening_points and splits(_key(played), ()):
                return value
            continue
        if opening and variant.opening_run and not has_hand_run(list(played.elements()),
                                                                variant.ace):
            continue
        if splits(_key(table + played), spare):
            return value
    return 0


def _key(counter: Counter) -> tuple[Card, ...]:
    return tuple(sorted(counter.elements(), key=Card.sort_key))


def _value(played: Counter, objective: str) -> int:
    if objective == "cards":
        return sum(played.values())
    return sum(card.points * n for card, n in played.items())


def best_cards_with_jokers(position: Position, limit: int = 200_000) -> int:
    """The most hand cards (jokers included) that can be played, by brute force.

    Every table the cards can form is enumerated (jokers filling any slot, named by it) and
    judged by ``solver.validate.play_problems``, so every joker rule applies exactly as the
    referee applies it. Raises RuntimeError past ``limit`` tables: for small positions only.
    """
    from solver.validate import JOKER, play_problems

    ace = position.variant.ace
    shapes = all_groups(ace)
    holding: dict[Card, list[tuple[Card, ...]]] = {}
    for shape in shapes:
        for card in shape:
            holding.setdefault(card, []).append(shape)
    table_real = Counter(c for g in position.table for c in g if not c.joker)
    table_jokers = sum(c.joker for g in position.table for c in g)
    hand_real = Counter(c for c in position.hand if not c.joker)
    hand_jokers = sum(c.joker for c in position.hand)
    singles = Counter(position.singles)
    budget = [limit]

    def tables(rest: Counter, jokers: int, spare: Counter):
        """Yield every way to cut ``rest`` + ``jokers`` into groups (singles may stay)."""
        budget[0] -= 1
        if budget[0] < 0:
            raise RuntimeError("brute force limit reached")
        if not rest:
            if jokers == 0:
                yield []
            return
        first = min(rest, key=Card.sort_key)
        if spare[first] > 0:
            for tail in tables(rest - Counter([first]), jokers, spare - Counter([first])):
                yield [(first,)] + tail
        for shape in holding.get(first, ()):
            others = [c for c in shape if c != first]
            for mask in product((False, True), repeat=len(others)):
                use_jokers = sum(mask)
                if use_jokers > jokers:
                    continue
                real = Counter([first] + [c for c, j in zip(others, mask, strict=True) if not j])
                if real - rest:
                    continue
                group = tuple(Card.named_joker(c) if (c != first and mask[others.index(c)])
                              else c for c in shape)
                for tail in tables(rest - real, jokers - use_jokers, spare):
                    yield [group] + tail

    kinds = sorted(hand_real, key=Card.sort_key)
    choices = []
    for counts in product(*(range(hand_real[card] + 1) for card in kinds)):
        for jokers in range(hand_jokers + 1):
            played = [card for card, n in zip(kinds, counts, strict=True) for _ in range(n)]
            played += [JOKER] * jokers
            choices.append(played)
    choices.sort(key=len, reverse=True)
    for played in choices:
        if not played:
            return 0
        real = table_real + Counter(c for c in played if not c.joker)
        jokers = table_jokers + sum(c.joker for c in played)
        for table in tables(real, jokers, singles):
            if not play_problems(position, played, table):
                return len(played)
    return 0
