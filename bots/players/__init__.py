"""Computer players and their registry: ``make_bot(name, seed, budget, *, limit)``.

Every bot sees only an ``Observation`` and proposes an action; the referee judges it. Each
takes an explicit seed, so the same seed gives the same moves. The levels, weakest first
(measured strengths in README.md, "The bot ladder"):

1. ``random`` draws the kind of action uniformly (play, draw, pass...), then a play uniformly
   among simple ones: groups from its hand and single cards added to a group.
2. ``beginner`` lays the biggest groups its hand holds and adds single cards to the table's
   groups, never rearranging; it draws when that finds nothing.
3. ``greedy`` plays the most cards the solver finds, else draws: what every public
   Machiavelli/Rummikub solver implies, and the baseline to beat.
4. ``planner`` weighs the biggest play against its close alternatives and against drawing
   instead, by what each leaves: cards and points in hand, kept cards that still fit, outs
   among the unseen cards, and what the table left behind offers an opponent's hand. Its
   weights make it hold back: it often plays a card or two a turn and keeps the rest, and
   draws rather than feed the table; when an opponent is about to go out it plays all it can.
5. ``expert`` weighs its options as the planner does but holds back harder (more weight on
   kept cards that still fit), then, near the end of a hand (someone holds six cards or
   fewer), searches: it deals the unseen cards many times over consistently with what it has
   seen, plays each plan (a first move and a way to go on: greedy or hoarding) forward with
   the kernel, opponents modelled from what they have shown, and replaces the evaluation's
   choice only by a plan that beats it clearly over the same deals.

The searching levels (planner, expert) bound each move by work, not seconds
(``bots.players.work``): the same seed gives the same moves on an idle or a busy machine.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.players.base import Bot, move_seconds
from bots.players.beginner import BeginnerBot
from bots.players.expert import ExpertBot
from bots.players.greedy import GreedyBot
from bots.players.planner import PlannerBot
from bots.players.random_bot import RandomBot
from solver.errors import InvalidArgumentError, clip
from solver.limit import Limit

#: The graded levels, weakest first.
REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "expert": ExpertBot,
}


def make_bot(name: str, seed: int = 0, budget: float | None = None, *,
             limit: Limit | None = None) -> Bot:
    """The bot called ``name`` (see ``REGISTRY``), seeded. The bots that search
    (``SEARCHERS``) think within a fixed amount of work by default; ``limit`` (a ``Limit``:
    its ``time`` in seconds per move) or ``budget`` (seconds: ``Limit(time=budget)``) puts
    them on the clock instead. The others play at once and ignore it."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in REGISTRY:
        raise InvalidArgumentError(f"unknown bot {clip(repr(name))} "
                                   f"(choose one of {', '.join(REGISTRY)})")
    seconds = move_seconds(budget, limit)
    factory = REGISTRY[key]
    if seconds is not None and key in SEARCHERS:
        return factory(seed, limit=Limit(time=seconds))
    return factory(seed)


#: Bots that search within a work budget per move, or a time limit when given one.
SEARCHERS: set[str] = {"planner", "expert"}


__all__ = ["REGISTRY", "Bot", "make_bot"]
