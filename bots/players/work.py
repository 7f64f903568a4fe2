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

from solver import api, counts
from solver.counts import LaidOutPlay
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
CPSAT_SEARCH_UNITS = 100
"""Units such a search counts when CP-SAT answers it (tahiti with two free jokers that the
kernel cannot certify within its cap): building the model costs about a hundred times more."""

_WORK = [0]  # work done by bots in this process so far (bots move one at a time per process)


def work_done() -> int:
    """Work done by bots in this process so far, in units: one per solver search, plus one
    per ``NODES_PER_UNIT`` kernel nodes a simulator search expands. Read it before and after
    a move for the move's work."""
    return _WORK[0]


def solve(position: Position, objective: str = "cards", limit: Limit | None = None
          ) -> api.Solution:
    """``solver.api.solve_position``, counted as one search."""
    _WORK[0] += 1
    return api.solve_position(position, objective, limit=limit)


def solve_counts(table: np.ndarray, hand: np.ndarray, **options: Any) -> Partition:
    """``solver.api.solve_counts`` (the simulator's entry point), counted as one unit plus
    one per ``NODES_PER_UNIT`` nodes the kernel expanded (a deterministic count)."""
    answer = api.solve_counts(table, hand, **options)
    _WORK[0] += 1 + int(answer.stats.get("nodes", 0)) // NODES_PER_UNIT
    return answer


def solve_jokers(position: Position, limit: Limit) -> api.Solution:
    """``solver.api.solve_position`` for the simulator's joker positions, counted as
    ``JOKER_SEARCH_UNITS``, or ``CPSAT_SEARCH_UNITS`` when CP-SAT answered (the backend is a
    deterministic choice). ``limit`` caps the search: the kernel's work, the certifying
    search's, or CP-SAT's deterministic time."""
    answer = api.solve_position(position, limit=limit)
    _WORK[0] += CPSAT_SEARCH_UNITS if answer.backend == "cpsat" else JOKER_SEARCH_UNITS
    return answer


def best_play(*args: Any) -> LaidOutPlay | None:
    """``solver.counts.best_play`` (the greedy bots' joker-free entry point), counted as one
    search."""
    _WORK[0] += 1
    return counts.best_play(*args)


class Meter:
    """The work of one move: units since it started, and the safety cap on its clock."""

    def __init__(self, seconds: float | None = SAFETY_SECONDS) -> None:
        self.start = work_done()
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def spent(self) -> int:
        """Work units done since the move started."""
        return work_done() - self.start

    def capped(self) -> bool:
        """Whether the safety cap has been reached (never on a normal move)."""
        return self.deadline is not None and time.perf_counter() >= self.deadline


__all__ = ["CPSAT_SEARCH_UNITS", "JOKER_SEARCH_UNITS", "NODES_PER_UNIT", "SAFETY_SECONDS",
           "Meter", "best_play", "solve", "solve_counts", "solve_jokers", "work_done"]
