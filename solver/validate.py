"""The independent check every answer passes before anyone sees it.

It knows nothing of the backends: given the position and a proposed new table and played
cards, it checks the rules of RULES.md §2-§6 directly. The referee uses it too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.cards import Card, format_cards
from solver.groups import group_kind, is_valid_group
from solver.position import Position


def play_problems(position: Position, played: Sequence[Card],
                  table: Sequence[Sequence[Card]]) -> list[str]:
    """Every reason the move ``played`` -> ``table`` is illegal in ``position`` (empty: legal).

    ``played`` may be empty (no play: the table must then be unchanged as a multiset).
    """
    problems: list[str] = []
    variant = position.variant
    hand = Counter(position.hand)
    spent = Counter(played)
    if spent - hand:
        extra = format_cards(sorted((spent - hand).elements()))
        problems.append(f"played cards not in the hand: {extra}")
    before = Counter(card for group in position.table for card in group)
    after = Counter(card for group in table for card in group)
    if after != before + spent:
        missing = (before + spent) - after
        extra = after - (before + spent)
        if missing:
            text = format_cards(sorted(missing.elements()))
            problems.append(f"cards missing from the new table: {text}")
        if extra:
            text = format_cards(sorted(extra.elements()))
            problems.append(f"cards on the new table from nowhere: {text}")
    singles = Counter(position.singles)
    for group in table:
        if len(group) == 1:
            card = group[0]
            if singles[card] > 0:
                singles[card] -= 1
                continue
            problems.append(f"lone card {card} is not an original single")
        elif not is_valid_group(group, variant.ace):
            problems.append(f"group {format_cards(group)!r} is not a set or a run")
    if not position.opened and played:
        if variant.opening_points:
            old = Counter(tuple(sorted(g)) for g in position.table)
            new = Counter(tuple(sorted(g)) for g in table)
            if old - new:
                problems.append("an opening play may not touch the table")
            points = sum(card.points for card in played)
            if points < variant.opening_points:
                problems.append(
                    f"an opening play needs {variant.opening_points} points, this one has {points}"
                )
        if variant.opening_run and not has_hand_run(played, variant.ace):
            problems.append("an opening play must include a 3-card run from the hand")
    return problems


def has_hand_run(cards: Sequence[Card], ace: str) -> bool:
    """True if three of ``cards`` (no joker) form a run."""
    real = sorted({card for card in cards if not card.joker})
    for i, a in enumerate(real):
        for j in range(i + 1, len(real)):
            for k in range(j + 1, len(real)):
                if group_kind([a, real[j], real[k]], ace) == "run":
                    return True
    return False
