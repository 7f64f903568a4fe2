"""Computer players and their registry: ``make_bot(name, seed)``.

Every bot sees only an ``Observation`` and proposes an action; the referee judges it. Each
takes an explicit seed, so the same seed gives the same moves.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.players.base import Bot
from bots.players.beginner import BeginnerBot
from bots.players.expert import ExpertBot
from bots.players.greedy import GreedyBot
from bots.players.planner import PlannerBot
from bots.players.random_bot import RandomBot

#: The graded levels, weakest first.
REGISTRY: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "expert": ExpertBot,
}


def make_bot(name: str, seed: int = 0, budget: float | None = None) -> Bot:
    """The bot called ``name`` (see ``REGISTRY``), seeded; ``budget`` (seconds per move) is
    for the bots that search."""
    key = name.strip().lower()
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {name!r} (choose one of {', '.join(REGISTRY)})")
    factory = REGISTRY[key]
    if budget is not None and key in SEARCHERS:
        return factory(seed, budget=budget)
    return factory(seed)


#: Bots that take a time budget per move.
SEARCHERS: set[str] = {"expert"}


__all__ = ["REGISTRY", "Bot", "make_bot"]
