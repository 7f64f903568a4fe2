"""Lay out a backend's partition for people: the table's surviving groups stay where they were.

Backends return *some* partition (CP-SAT cuts long runs into pieces of 3..5; the kernel may end
a run and start the next one at the following rank). This module keeps every table group that
survives intact (or is rebuilt exactly from run pieces) in its original place, then lists the
new and changed groups after them, with runs that abut merged into one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.cards import Card
from solver.groups import arrange_group, group_kind, run_slots

Group = tuple[Card, ...]


def tidy_table(groups: Sequence[Sequence[Card]], original: Sequence[Sequence[Card]],
               ace: str) -> tuple[list[Group], list[bool]]:
    """The new table in reading order and, per group, whether it is new or changed.

    ``groups`` must hold every card of the new table (original singles left alone included).
    """
    remaining = [tuple(arrange_group(g, ace)) if len(g) > 1 else tuple(g) for g in groups]
    kept: list[Group] = []
    for group in original:
        key = Counter(group)
        match = next((i for i, g in enumerate(remaining) if Counter(g) == key), None)
        if match is not None:
            kept.append(remaining.pop(match))
            continue
        pieces = _tiling(tuple(arrange_group(group, ace)), remaining, ace)
        if pieces is not None:
            for i in sorted(pieces, reverse=True):
                remaining.pop(i)
            kept.append(tuple(arrange_group(group, ace)))
    fresh = sorted(_merge_runs(remaining, ace), key=_reading_key)
    return kept + fresh, [False] * len(kept) + [True] * len(fresh)


def _tiling(run: Group, pool: list[Group], ace: str) -> list[int] | None:
    """Indices of runs in ``pool`` that tile ``run`` exactly, or None."""
    if len(run) < 3 or group_kind(run, ace) != "run":
        return None
    slots = run_slots(run, ace)
    suit = run[0].suit
    at, end, used = slots[0], slots[-1], []
    while at <= end:
        found = None
        for i, g in enumerate(pool):
            if i in used or len(g) < 3 or g[0].suit != suit or group_kind(g, ace) != "run":
                continue
            gs = run_slots(g, ace)
            if gs[0] == at and gs[-1] <= end and not any(c.joker for c in g):
                found = (i, gs[-1])
                break
        if found is None:
            return None
        used.append(found[0])
        at = found[1] + 1
    return used


def _merge_runs(groups: list[Group], ace: str) -> list[Group]:
    """Join runs of one suit that abut (3C 4C 5C + 6C 7C 8C -> 3C .. 8C)."""
    runs = [g for g in groups if len(g) >= 3 and group_kind(g, ace) == "run"]
    others = [g for g in groups if not (len(g) >= 3 and group_kind(g, ace) == "run")]
    spans = sorted(((run_slots(g, ace), g) for g in runs), key=lambda item: (item[1][0].suit,
                                                                            item[0][0]))
    merged: list[tuple[list[int], list[Card]]] = []
    for slots, group in spans:
        last = merged[-1] if merged else None
        if (last is not None and last[1][0].suit == group[0].suit
                and last[0][-1] + 1 == slots[0] and slots[-1] - last[0][0] + 1 <= 13):
            last[0].extend(slots)
            last[1].extend(group)
        else:
            merged.append((list(slots), list(group)))
    return others + [tuple(group) for _, group in merged]


def _reading_key(group: Group) -> tuple:
    """Sets by rank, then runs by suit and first rank."""
    if len({card.rank for card in group}) == 1:
        return (0, group[0].rank, "")
    return (1, group[0].suit, group[0].rank)
