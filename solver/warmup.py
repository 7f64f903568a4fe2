"""One-time set-up kept out of every solve's ``elapsed_ms``.

A fresh process must load the numba kernels (from numba's on-disk cache, or compile them on
a fresh install, which takes a minute), build the kernel's automaton tables for a number of
copies, and import OR-Tools before CP-SAT's first model. None of that is the work of the solve
that happens to come first, so:

- ``load_kernels()`` runs a few tiny positions through every numba kernel the solve paths call
  (the play and no-play paths, vatican's run opening, a hand joker, the points objective,
  tahiti's flagged search),
  once per process. ``solve()`` calls it before starting its clock. The opening from the
  hand alone has a kernel of its own, loaded by ``load_opening()`` only when a solve needs it
  (its time counted as set-up): a fresh ``machiavelli solve`` need not load it.
  Every array reaching the kernels is read-only (``solver.problem.read_only``; a kernel
  handing its own arrays to the search passes them ``solver.frozen.frozen``), so each kernel
  has one compiled version and these positions load them all. A process that only solves
  positions through ``solver.api`` (a one-shot ``machiavelli solve``) says so with
  ``solves_only()``: ``load_kernels()`` then runs the first position alone, which reaches
  every kernel of a solve, and leaves out the bots' counts-level entry point; anything else
  loads when first called.
  ``solve()`` from card texts answers the usual request with a kernel of its own
  (``solver.one_call``), which it loads when first needed, its time counted as set-up, and
  calls ``load_kernels()`` only for the other requests.
- ``one_time`` marks a cached builder whose first call per argument is set-up: its duration is
  added to ``setup_seconds()``, which ``solve()`` subtracts from its time.
- Loading a kernel from numba's cache does work that only a later compilation reads: when
  this module is imported (so before any kernel), ``solver.cached_code`` leaves it out.
- Numba's array functions (``numba.np.arraymath``, loaded with the first kernel: a cached
  kernel's environment names it) import SciPy's BLAS only to learn whether it is there, for
  float inner products no kernel here computes; where SciPy is installed that import was a
  quarter of a fresh ``machiavelli solve``. ``load_numba_arrays()`` (run when this module is
  imported, so before any kernel) loads those functions with ``scipy.linalg`` out of sight,
  once; SciPy stays importable as ever, and numba still finds its BLAS when it compiles
  ``np.dot``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from solver.cached_code import load_cached_code_lightly
from solver.numba_import import hidden

Builder = TypeVar("Builder", bound=Callable[..., Any])

# (table, hand, variant, opened, objective): one per path into the numba kernels
WARM_POSITIONS = (
    ("5C 6C 7C 8C", "8D 8H", "machiavelli", True, "cards"),  # a play: search, lay out, check
    ("6C 7C 8C", "8D 8H", "machiavelli", True, "cards"),  # nothing fits: the table as it lies
    ("5C 6C 7C 8C", "8D 8H KS", "machiavelli", True, "points"),
    ("-", "4C 5C 6C 9H", "vatican", False, "cards"),  # a forced 3-card run
    ("5H 6H 7H", "* 2C", "carousel", True, "cards"),  # a wild joker from the hand
    ("5H 6H 7H", "* *", "tahiti", True, "cards"),  # two free jokers: the flagged search
)

OPENING_POSITION = ("-", "KS KH KD QS QH QD", "machiavelli:opening=36", False, "cards")
"""The opening from the hand alone (``load_opening``)."""

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


def solves_only() -> None:
    """Declare that this process solves positions through ``solver.api`` and nothing else: a
    later ``load_kernels()`` loads only the kernels of one position's solve (see the module
    docstring). Call it before the first solve."""
    _loaded.add(SOLVES_ONLY)


SOLVES_ONLY = "solves only"


def load_kernels() -> None:
    """Load (or, on a fresh install, compile) every numba kernel a solve may call, once per
    process: about 0.2 s from numba's cache, then nothing."""
    if "kernels" in _loaded:
        return
    _loaded.add("kernels")
    from solver import kernel_backend
    from solver.api import solve_position
    from solver.position import Position

    solves_only = SOLVES_ONLY in _loaded
    counted = kernel_backend.nodes_expanded()
    for table, hand, variant, opened, objective in WARM_POSITIONS[:1 if solves_only else None]:
        solve_position(Position.make(table, hand, variant, opened), objective, "kernel")
    # the warm-up's nodes are nobody's work: a bot reads the count around its first solve
    kernel_backend.count_nodes(counted - kernel_backend.nodes_expanded())
    if not solves_only:
        _warm_counts()


def _warm_counts() -> None:
    """The counts-level entry point the bots use (``solver.counts.best_play``): the same
    search kernels, and the layout without the re-check (``solver.tidy.lay_out``)."""
    import numpy as np

    from solver.cards import N_CARD_TYPES
    from solver.counts import best_play
    from solver.position import Position

    table, hand, variant, opened, objective = WARM_POSITIONS[0]
    position = Position.make(table, hand, variant, opened)
    hand_counts = np.bincount([card.index for card in position.hand], minlength=N_CARD_TYPES)
    best_play(*position.group_array, hand_counts, position.variant, opened, objective)


def load_opening() -> None:
    """Load the kernel of the opening from the hand alone (``solver.opening``), once per
    process, its time counted in ``setup_seconds()``."""
    if "opening" not in _loaded:
        _loaded.add("opening")
        _solve_opening_position()


@one_time
def _solve_opening_position() -> None:
    from solver.api import solve_position
    from solver.position import Position

    table, hand, variant, opened, objective = OPENING_POSITION
    solve_position(Position.make(table, hand, variant, opened), objective, "kernel")


def load_numba_arrays() -> None:
    """Import ``numba.np.arraymath`` without its probe of SciPy's BLAS (see the module
    docstring), unless it or ``scipy.linalg`` is already loaded."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    with hidden(["scipy", "scipy.linalg"]):  # SciPy itself is imported first
        import numba.np.arraymath  # noqa: F401  (loaded for its side effect)


load_numba_arrays()
load_cached_code_lightly()


@one_time
def load_cpsat() -> Any:
    """The ``solver.cpsat`` module, importing OR-Tools the first time (about 0.5 s)."""
    from solver import cpsat

    return cpsat


__all__ = ["OPENING_POSITION", "WARM_POSITIONS", "elapsed_ms", "load_cpsat", "load_kernels",
           "load_numba_arrays", "load_opening", "one_time", "setup_seconds", "solves_only"]
