"""The fixed, seeded benchmark suite: positions from small to full, in all three ace modes.

Size classes (table cards / hand cards):

- ``small``  table ~10, hand 5-20
- ``medium`` table ~30, hand 5-20
- ``large``  table ~60, hand 5-20
- ``full``   table 90-100, hand 5 .. what the packs leave (at most 14)

``suite()`` is deterministic: the same positions on every machine and every run.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solver import Position
from solver.generate import random_position

SIZES = {"small": 10, "medium": 30, "large": 60, "full": 96}
ACES = ("low", "high", "both")
PER_CLASS = 20  # positions per (size, ace)
SEED = 20261129


@cache
def suite(per_class: int = PER_CLASS) -> tuple[tuple[str, str, Position], ...]:
    """``(size, ace, position)`` for every benchmark position."""
    rng = np.random.default_rng(SEED)
    positions = []
    for size, table in SIZES.items():
        for ace in ACES:
            made = 0
            while made < per_class:
                if size == "full":
                    target = int(rng.integers(90, 101))
                    hand = int(rng.integers(5, 15))
                else:
                    target = table
                    hand = int(rng.integers(5, 21))
                position = random_position(rng, f"machiavelli:ace={ace}", target, hand)
                if size == "full" and len(position.table_cards) < 90:
                    continue
                positions.append((size, ace, position))
                made += 1
    return tuple(positions)


def table_size(position: Position) -> int:
    return len(position.table_cards)
