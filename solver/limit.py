"""``Limit``: how long a search may run, in seconds and/or in work units.

Modelled on python-chess's ``chess.engine.Limit``: one small value type that every verb
(``solve``, ``hint``, ``analyze``) and every bot accepts. Either field may be given; with
both, the search stops at whichever is reached first; with neither, it runs to the end.

- ``time``: seconds on the clock. CP-SAT stops at it (``max_time_in_seconds``); the kernel
  does not watch the clock, so for it the seconds become work at ``KERNEL_WORK_PER_SECOND``.
- ``work``: kernel work units, the nodes the kernel expands plus the moves it generates
  (what its ``node_limit`` counts). The same work gives the same answer on any machine. CP-SAT
  gets it as a *deterministic* limit, ``max_deterministic_time = work /
  KERNEL_WORK_PER_SECOND``: CP-SAT's own machine-independent measure of effort (roughly
  seconds on a typical machine), chosen over ``max_number_of_conflicts`` because it counts all
  of CP-SAT's work (presolve, propagation, LP), not only the conflicts of one worker, and so
  sits on the same scale as ``time``. With one worker (the default) it is reproducible.

A limited search returns the best answer found so far, with ``optimal`` False when it stopped
before proving it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver import arguments
from solver.errors import InvalidArgumentError

KERNEL_WORK_PER_SECOND = 3_000_000  # turns a time limit into the kernel's work budget
# (nodes plus the moves they generate; measured at 4.5-7.5 million a second here)
MAX_WORK = arguments.MAX_SECONDS * KERNEL_WORK_PER_SECOND  # a day's work at that rate


@dataclass(frozen=True)
class Limit:
    """A cap on one search: ``time`` in seconds, ``work`` in kernel work units (see the
    module docstring). Both are checked on construction: positive and finite, ``time`` at
    most a day, ``work`` an ``int`` (an ``InvalidArgumentError`` otherwise)."""

    time: float | None = None
    """Seconds on the clock (None: no clock cap)."""
    work: int | None = None
    """Kernel work units: nodes plus generated moves (None: no work cap)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "time", arguments.seconds("time limit", self.time))
        if self.work is not None:
            arguments.integer("work limit", self.work, 1, int(MAX_WORK))

    def __repr__(self) -> str:
        fields = [f"{name}={value!r}" for name, value in (("time", self.time),
                                                          ("work", self.work))
                  if value is not None]
        return f"Limit({', '.join(fields)})"

    def kernel_work(self) -> int:
        """The kernel's work budget: ``work``, or ``time`` at ``KERNEL_WORK_PER_SECOND``,
        whichever is smaller (at least 1); 0 means no cap (the kernel's convention)."""
        budgets = [] if self.work is None else [self.work]
        if self.time is not None:
            budgets.append(max(1, int(self.time * KERNEL_WORK_PER_SECOND)))
        return min(budgets, default=0)

    def cpsat_seconds(self) -> float | None:
        """CP-SAT's clock limit (``max_time_in_seconds``): ``time``."""
        return self.time

    def cpsat_deterministic_seconds(self) -> float | None:
        """CP-SAT's deterministic limit (``max_deterministic_time``): ``work`` over
        ``KERNEL_WORK_PER_SECOND``, or None without ``work``."""
        return None if self.work is None else self.work / KERNEL_WORK_PER_SECOND


def resolve_limit(limit: Any, time_limit: Any) -> Limit | None:
    """The one ``Limit`` of a call that accepts both ``limit=`` and the older
    ``time_limit=`` (seconds: ``Limit(time=time_limit)``); giving both is an
    ``InvalidArgumentError``, as is a ``limit`` that is not a ``Limit``."""
    if limit is not None and time_limit is not None:
        raise InvalidArgumentError("give either limit or time_limit, not both "
                                   "(time_limit=S means limit=Limit(time=S))")
    if time_limit is not None:
        return Limit(time=time_limit)
    if limit is not None:
        arguments.instance("limit", limit, Limit)
    return limit


__all__ = ["KERNEL_WORK_PER_SECOND", "Limit", "resolve_limit"]
