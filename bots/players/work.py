"""A bot's work: the solver searches it makes, counted, and the clock kept only as a safety cap.

A bot whose thinking stops at a time limit is a different player on a busy machine than on an
idle one (issue 14). So the searching bots bound their thinking by work instead: each solver
search is capped by a fixed ``Limit(work=...)`` (kernel work units, the same answer on any
machine), and a move does a fixed amount of work at most (options, evaluations and
rollouts). Every search a bot makes goes through ``solve`` or ``solve_counts`` here, which
count its work (a unit a search, and for the simulator's searches a unit per
``NODES_PER_UNIT`` kernel nodes too: a deterministic count that follows the time taken), so a
move's work is known (the tournament reports it beside the move's time) and a bot can stop
after a given amount of it.

The clock remains only as a safety cap (``SAFETY_SECONDS``) that a normal move never reaches
on the 2-core machine the defaults were set on; a user who wants a clock instead gives a time
budget, and the bot then thinks until it, as before.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from solver import api, counts, kernel_backend
from solver.counts import LaidOutPlay
from solver.groups import held_runs
from solver.limit import Limit
from solver.position import Position
from solver.problem import Partition

SAFETY_SECONDS = 10.0
"""Wall-clock seconds after which a work-bounded move stops thinking whatever work is left:
far above what any move takes here (the expert's worst is well under a second)."""

NODES_PER_UNIT = 100
"""Kernel nodes that count as one more unit of work: what a simulator search costs is about one
unit for the search itself plus one per hundred nodes it expands (a fit over rollout moves)."""

JOKER_SEARCH_UNITS = 8
"""Units a simulator search through ``solver.api`` counts (a joker in the hand or on the table):
the whole call (a ``Problem``, the kernel's joker branches, the re-check) costs about as much as
a counts-level search that expands seven hundred nodes."""
JOKER_NODES_PER_UNIT = 25
"""Kernel nodes of a search with jokers that count one more unit: a node with jokers (an
automaton of up to 175 states, joker branches) costs tens of times what a node without does
(6-20 µs a node here against a fraction of one), so a big joker search counts what it costs."""
OPENING_RUN_UNITS = 12
"""Units a simulator search through ``solver.api`` counts, on top of the rest, for each
3-card run an unopened vatican hand holds (docs/rules.md §6.2): the kernel searches once per
run the opening may hold, and each search pays its set-up however few nodes it expands (a
hoarded hand of 45-60 cards holds about 21 runs and took 37 ms a search, counted 31 units
without this: a rollout of such a hand ran four times longer than its count)."""
CPSAT_SEARCH_UNITS = 250
"""Units a search counts when CP-SAT answers it (tahiti with two free jokers that the kernel
cannot certify within its cap): the model, built whatever the limit, costs 15-45 ms of CPU
here, about what 250 units of other searches take."""

_WORK = [0]  # work done by bots in this process so far (bots move one at a time per process)


def work_done() -> int:
    """Work done by bots in this process so far, in units: one per solver search, plus one
    per ``NODES_PER_UNIT`` kernel nodes a simulator search expands. Read it before and after
    a move for the move's work."""
    return _WORK[0]


def solve(position: Position, objective: str = "cards", limit: Limit | None = None
          ) -> api.Solution:
    """``solver.api.solve_position``, counted as one unit without jokers; with jokers as one
    plus one per ``JOKER_NODES_PER_UNIT`` kernel nodes, and ``CPSAT_SEARCH_UNITS`` when CP-SAT
    answered (deterministic counts: a big joker search costs what it takes)."""
    before = kernel_backend.nodes_expanded()
    answer = api.solve_position(position, objective, limit=limit)
    _WORK[0] += _units(position, answer, kernel_backend.nodes_expanded() - before, 1)
    return answer


def _units(position: Position, answer: api.Solution, nodes: int, base: int) -> int:
    """What a search through ``solver.api`` counts: ``base`` units without jokers; with
    jokers ``base`` plus one per ``JOKER_NODES_PER_UNIT`` nodes; ``CPSAT_SEARCH_UNITS`` for
    CP-SAT (its model, built whatever its limit, is the cost)."""
    if answer.backend == "cpsat":
        return CPSAT_SEARCH_UNITS
    if not position.has_jokers:
        return base
    return base + nodes // JOKER_NODES_PER_UNIT


def solve_counts(table: np.ndarray, hand: np.ndarray, **options: Any) -> Partition:
    """``solver.api.solve_counts`` (the simulator's entry point), counted as one unit plus
    one per ``NODES_PER_UNIT`` nodes the kernel expanded (a deterministic count)."""
    answer = api.solve_counts(table, hand, **options)
    _WORK[0] += 1 + int(answer.stats.get("nodes", 0)) // NODES_PER_UNIT
    return answer


def solve_jokers(position: Position, limit: Limit) -> api.Solution:
    """``solver.api.solve_position`` for the simulator's joker positions, counted as
    ``JOKER_SEARCH_UNITS`` plus one per ``JOKER_NODES_PER_UNIT`` nodes, or
    ``CPSAT_SEARCH_UNITS`` when CP-SAT answered (the backend is a deterministic choice).
    ``limit`` caps the search: the kernel's work, the certifying search's, or CP-SAT's
    deterministic time."""
    before = kernel_backend.nodes_expanded()
    answer = api.solve_position(position, limit=limit)
    _WORK[0] += _units(position, answer, kernel_backend.nodes_expanded() - before,
                       JOKER_SEARCH_UNITS) + OPENING_RUN_UNITS * opening_runs(position)
    return answer


def opening_runs(position: Position) -> int:
    """The 3-card suited runs of real cards in ``position``'s hand when it is an unopened
    hand whose opening must hold one (vatican, docs/rules.md §6.2): the kernel's searches
    for it (``solver.kernel_backend.solve``); 0 otherwise."""
    if position.opened or not position.variant.opening_run:
        return 0
    return len(held_runs(position.variant.ace,
                         {card.index for card in position.hand if not card.joker}))


def best_play(*args: Any) -> LaidOutPlay | None:
    """``solver.counts.best_play`` (the greedy bots' joker-free entry point), counted as one
    search."""
    _WORK[0] += 1
    return counts.best_play(*args)


class Meter:
    """The work of one move (or of one part of it): units since it started, the work it may
    do (``work``, None: unbounded) and the safety cap on its clock."""

    def __init__(self, seconds: float | None = SAFETY_SECONDS, work: int | None = None
                 ) -> None:
        self.start = work_done()
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.work = work

    def spent(self) -> int:
        """Work units done since the move started."""
        return work_done() - self.start

    def capped(self) -> bool:
        """Whether the safety cap has been reached (never on a normal move)."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def out(self) -> bool:
        """Whether its work is spent (or the safety cap reached): no further search."""
        return (self.work is not None and self.spent() >= self.work) or self.capped()

    def limit(self, cap: Limit, position: Position) -> Limit:
        """``cap`` for a search of ``position``, tightened to the kernel work the units left
        can buy (``NODES_PER_UNIT`` nodes a unit, ``JOKER_NODES_PER_UNIT`` with jokers), so
        that no single search carries a move far past its work."""
        if self.work is None or cap.work is None:
            return cap
        per_unit = JOKER_NODES_PER_UNIT if position.has_jokers else NODES_PER_UNIT
        room = max(1, self.work - self.spent()) * per_unit
        return cap if room >= cap.work else Limit(time=cap.time, work=room)


__all__ = ["CPSAT_SEARCH_UNITS", "JOKER_NODES_PER_UNIT", "JOKER_SEARCH_UNITS", "NODES_PER_UNIT",
           "OPENING_RUN_UNITS", "SAFETY_SECONDS", "Meter", "best_play", "opening_runs", "solve",
           "solve_counts", "solve_jokers", "work_done"]
