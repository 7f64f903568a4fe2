"""One-time set-up kept out of every solve's ``elapsed_ms``.

A fresh process must load the numba kernels (from numba's on-disk cache, or compile them on
a fresh install, which takes a minute), build the kernel's automaton tables for a number of
copies, and import OR-Tools before CP-SAT's first model. None of that is the work of the solve
that happens to come first, so:

- ``load_kernels()`` runs a few tiny positions through every numba kernel the solve paths call
  (the play and no-play paths, an opening from the hand, vatican's run opening, a hand joker,
  the points objective), once per process. ``solve()`` calls it before starting its clock.
  Every array reaching the kernels is read-only (``solver.problem.read_only``), so each kernel
  has one compiled version and these positions load them all.
- ``one_time`` marks a cached builder whose first call per argument is set-up: its duration is
  added to ``setup_seconds()``, which ``solve()`` subtracts from its time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

Builder = TypeVar("Builder", bound=Callable[..., Any])

# (table, hand, variant, opened, objective): one per path into the numba kernels
WARM_POSITIONS = (
    ("5C 6C 7C 8C", "8D 8H", "machiavelli", True, "cards"),  # a play: search, lay out, check
    ("6C 7C 8C", "8D 8H", "machiavelli", True, "cards"),  # nothing fits: the table as it lies
    ("5C 6C 7C 8C", "8D 8H KS", "machiavelli", True, "points"),
    ("-", "KS KH KD QS QH QD", "machiavelli:opening=36", False, "cards"),  # hand only
    ("-", "4C 5C 6C 9H", "vatican", False, "cards"),  # a forced 3-card run
    ("5H 6H 7H", "* 2C", "carousel", True, "cards"),  # a wild joker from the hand
)

_setup = [0.0]  # seconds spent in one-time builders so far (a list: mutable module state)
_depth = [0]  # one-time builders running now
_loaded: set[str] = set()


def setup_seconds() -> float:
    """Seconds this process has spent in one-time builders (``one_time``) so far."""
    return _setup[0]


def elapsed_ms(started: float, setup: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()``) less the one-time set-up done
    since ``setup`` (a ``setup_seconds()`` read at the same moment)."""
    return (time.perf_counter() - started - (setup_seconds() - setup)) * 1000


def one_time(build: Builder) -> Builder:
    """``functools.cache`` for a builder of per-process tables, counting the time of each first
    call in ``setup_seconds()`` (a call nested in another first call is counted once)."""
    results: dict[tuple, Any] = {}

    @wraps(build)
    def cached(*args: Any) -> Any:
        if args in results:
            return results[args]
        started = time.perf_counter()
        _depth[0] += 1
        try:
            results[args] = build(*args)
        finally:
            _depth[0] -= 1
        if _depth[0] == 0:
            _setup[0] += time.perf_counter() - started
        return results[args]

    return cached  # type: ignore[return-value]


def load_kernels() -> None:
    """Load (or, on a fresh install, compile) every numba kernel a solve may call, once per
    process: about 0.5 s from numba's cache, then nothing."""
    if "kernels" in _loaded:
        return
    _loaded.add("kernels")
    from solver.api import solve_position
    from solver.position import Position

    for table, hand, variant, opened, objective in WARM_POSITIONS:
        solve_position(Position.make(table, hand, variant, opened), objective, "kernel")


@one_time
def load_cpsat() -> Any:
    """The ``solver.cpsat`` module, importing OR-Tools the first time (about 0.5 s)."""
    from solver import cpsat

    return cpsat


__all__ = ["WARM_POSITIONS", "elapsed_ms", "load_cpsat", "load_kernels", "one_time",
           "setup_seconds"]
