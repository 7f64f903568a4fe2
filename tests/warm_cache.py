"""Every kind of work the tests ask of the numba kernels, once.

``python tests/warm_cache.py`` fills numba's on-disk cache: ``conftest.py`` runs it before
``pytest -n``'s workers start, so that on a fresh checkout they load the compiled kernels
instead of each compiling all of them (four to five minutes of one core each).
``tests/test_warmup.py`` runs ``exercise()`` after the solver's warm-up and checks that it
loads no kernel version the warm-up left out.
"""

from __future__ import annotations

import numpy as np

VARIANTS = ("machiavelli", "machiavelli:ace=low", "machiavelli:ace=high", "bga", "shanghai",
            "guadalupe", "carousel", "vatican", "tahiti", "machiavelli:opening=36")
LEVELS = ("expert", "planner", "greedy", "beginner", "random")


def exercise() -> None:
    """Solves of every kind (each variant, 0-2 jokers, both objectives, with and without a
    time limit), hints, an analysis, openings, and two short games of every level."""
    from bots.arena.tournament import play_one
    from solver import Position, analyze, hint, solve_position
    from solver.generate import random_position

    rng = np.random.default_rng(9)
    for variant in VARIANTS:
        for jokers in (0, 1, 2):
            position = random_position(rng, variant, int(rng.integers(0, 50)),
                                       int(rng.integers(1, 12)), singles=1, jokers=jokers)
            for objective in ("cards", "points"):
                solve_position(position, objective)
                solve_position(position, objective, time_limit=0.01)
            hint(position)
        analyze(position, max_plays=3)
    for variant in ("machiavelli:opening=36", "vatican"):  # openings: from the hand, a run
        for _ in range(4):
            dealt = random_position(rng, variant, 20, 12, jokers=1)
            solve_position(Position(dealt.table, dealt.hand, dealt.variant, False))
    for game in range(2):
        play_one("machiavelli", list(LEVELS[game:game + 3]), 2, 5, game, 0.05)


def games_of_every_variant() -> None:
    """A short game of the expert, the planner and greedy in each variant (the bots' kernels
    for jokers and each turn structure)."""
    from bots.arena.tournament import play_one
    from solver.variants import VARIANT_NAMES

    for variant in VARIANT_NAMES:
        play_one(variant, ["expert", "planner", "greedy"], 3, 5, 1, 0.05)


if __name__ == "__main__":
    from solver.warmup import load_kernels

    load_kernels()
    exercise()
    games_of_every_variant()
