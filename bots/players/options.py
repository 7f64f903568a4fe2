"""The moves worth weighing: the biggest play and its close alternatives, and drawing instead.

Shared by the planner (which scores them) and the expert (which plays them out).
"""

from __future__ import annotations

import time

from bots.players.work import Meter, solve
from bots.referee.actions import Action, Draw, play_from_solution
from bots.referee.observation import Observation
from solver.limit import KERNEL_WORK_PER_SECOND, Limit
from solver.position import Position

MAX_OPTIONS = 8  # plays listed (the biggest first), plus drawing where that is allowed
DRAW_INSTEAD = ("play_or_draw", "guadalupe")  # turns where drawing instead of playing ends
# the turn (docs/rules.md §4): drawing is then an option to weigh against the plays
# Each search while listing options is capped at a fixed amount of work (what 0.02 s was as a
# kernel work budget): the same options on any machine.
SOLVE_LIMIT = Limit(work=int(0.02 * KERNEL_WORK_PER_SECOND))


def search_options(observation: Observation, limit: int = MAX_OPTIONS,
                   deadline: float | None = None, meter: Meter | None = None
                   ) -> list[Action]:
    """The biggest play first, then the other biggest plays and those a card short (each
    found without one of the biggest play's cards), single cards that fit alone (none while an
    opening needs groups from the hand), and drawing instead where the turn allows it. Each
    search is capped (and by ``meter``'s work left); past ``deadline``, or once ``meter``'s
    work is spent, no further plays are looked for."""
    meter = meter or Meter(None)
    position = observation.position()
    biggest = solve(position, limit=meter.limit(SOLVE_LIMIT, position))
    if not biggest.played:
        return []
    options: list[Action] = [play_from_solution(biggest)]
    seen = {_key(biggest.played)}

    def more() -> bool:
        return len(options) < limit and not meter.out() and (
            deadline is None or time.perf_counter() < deadline)

    for card in sorted(set(biggest.played)):
        if not more():
            break
        hand = list(position.hand)
        hand.remove(card)
        without = Position(position.table, tuple(hand), position.variant, position.opened)
        other = solve(without, limit=meter.limit(SOLVE_LIMIT, without))
        if other.played and _key(other.played) not in seen:
            seen.add(_key(other.played))
            options.append(play_from_solution(other))
    # an opening that must hold a run from the hand, or points in groups of three or more
    # from the hand, never lies in one card (docs/rules.md §6): no single card to try
    variant = position.variant
    opening = not position.opened and (variant.opening_run or variant.opening_points > 0)
    for card in [] if opening else sorted(set(position.hand)):
        if not more():
            break
        if _key([card]) in seen:
            continue
        single = Position(position.table, (card,), position.variant, position.opened)
        alone = solve(single, limit=meter.limit(SOLVE_LIMIT, single))
        if alone.played:
            seen.add(_key([card]))
            options.append(play_from_solution(alone))
    if "draw" in observation.legal and observation.variant.turn in DRAW_INSTEAD:
        options.append(Draw())
    return options


def _key(cards) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in cards))
