"""Computer players and their registry: ``make_bot(name, seed)``.

Every bot sees only an ``Observation`` and proposes an action; the referee judges it. Each
takes an explicit seed, so the same seed gives the same moves.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.players.base import Bot
from bots.players.greedy import GreedyBot
from bots.players.random_bot import RandomBot

REGISTRY: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name`` (see ``REGISTRY``), seeded."""
    key = name.strip().lower()
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {name!r} (choose one of {', '.join(REGISTRY)})")
    return REGISTRY[key](seed)


__all__ = ["REGISTRY", "Bot", "make_bot"]
