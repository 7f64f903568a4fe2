"""Tahiti's run automaton: runs that know whether they hold a joker (one joker per group).

In tahiti a group holds at most one joker (docs/rules.md §8.3). The plain run automaton
(``solver.automaton``) counts a suit's run cards per rank and lets jokers in as extra copies,
so two jokers may land in one run. This automaton reads, per rank, the symbol ``(r, j)``: ``r``
cards go to the suit's runs, ``j`` of them jokers. Its nondeterministic state
(``_step``) is the suit's open runs by length (one, two, three or more) and by whether they
hold a joker, the high aces waiting for runs through the king (real ones and jokers), and the
jokers the suit's runs took so far (at most ``wild``: without that count the minimal
automaton is several times larger). A joker goes only to a run without one, or starts a run.

Determinizing and minimizing it takes seconds to minutes in Python (584 states for four
copies and two jokers, 1,777 for five and three), so the tables are built once by
``python -m solver.automaton_flagged`` into ``solver/data/flagged_runs.npz``, shipped with the
package, and built on the spot only for sizes the file lacks. Tests rebuild the small ones
and compare.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from solver.automaton import _determinize, _minimize, _tables, dominator_rows
from solver.warmup import one_time

# (joker-free runs of 1, 2, 3+ cards, runs with a joker of 1, 2, 3+ cards, real high aces
# waiting, joker high aces waiting, jokers the suit's runs took so far)
State = tuple[int, int, int, int, int, int, int, int, int]
DATA = "flagged_runs.npz"
SHIPPED = ((2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 3))  # (copies, wild) in ``DATA``
MOST_WILD = 3  # the most free jokers the shipped tables hold (four copies and four jokers: too
# large to determinize here)


def _step(state: State, r: int, j: int, wild: int) -> set[State]:
    """States after a rank gives ``r`` cards to the suit's runs, ``j`` of them jokers: every
    open run of one or two cards goes on, ``ea``/``eb`` complete ones (without/with a joker)
    may, the rest close; each joker goes to a joker-free run going on or starts a run, and
    the other cards start runs."""
    a1, a2, a3, b1, b2, b3, p, pj, used = state
    if j > r or used + j > wild:
        return set()
    out: set[State] = set()
    for ea in range(a3 + 1):
        for eb in range(b3 + 1):
            x = r - a1 - a2 - b1 - b2 - ea - eb  # cards starting runs
            if x < 0:
                continue
            for c1 in range(min(a1, j) + 1):
                for c2 in range(min(a2, j - c1) + 1):
                    for c3 in range(min(ea, j - c1 - c2) + 1):
                        nj = j - c1 - c2 - c3  # jokers starting runs
                        if nj <= x:
                            out.add((x - nj, a1 - c1, a2 - c2 + ea - c3, nj, b1 + c1,
                                     b2 + c2 + eb + c3, p, pj, used + j))
    return out


def _accepts(state: State) -> bool:
    """After the king: no run of one card; the joker high aces go to joker-free runs of two
    or more, runs of two first; every run of two takes an ace (a run with a joker a real
    one); no run takes two."""
    a1, a2, a3, b1, b2, b3, p, pj, _ = state
    return a1 == b1 == 0 and pj <= a2 + a3 and p >= b2 + max(0, a2 - pj) and \
        p + pj <= a2 + a3 + b2 + b3


def start(r0: int, g: int, j0: int, jg: int) -> State:
    """The state after the ace: ``r0`` low aces start runs (``j0`` of them jokers), ``g`` high
    aces wait for runs through the king (``jg`` of them jokers)."""
    return (r0 - j0, 0, 0, j0, 0, 0, g - jg, jg, j0 + jg)


def init_index(copies: int, r0: int, g: int, j0: int, jg: int) -> tuple[int, int]:
    """Where ``init`` keeps the state after the ace: ``[r0 + (copies + 1) j0, g + (copies +
    1) jg]`` (with no jokers, where the plain automaton's ``init[r0, g]`` is)."""
    return r0 + (copies + 1) * j0, g + (copies + 1) * jg


def build(copies: int, wild: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(init, delta, accept)`` of the minimal automaton, by subset construction and Moore's
    refinement (``solver.automaton``): ``delta[q, r, j]`` (-1: impossible; ``j`` up to
    ``wild``), ``init`` as ``init_index`` packs it."""
    starts: dict[tuple[int, int, int, int], frozenset[State]] = {}
    for r0 in range(copies + 1):
        for g in range(copies + 1 - r0):
            for j0 in range(min(r0, wild) + 1):
                for jg in range(min(g, wild - j0) + 1):
                    starts[(r0, g, j0, jg)] = frozenset({start(r0, g, j0, jg)})
    symbols = [(r, j) for r in range(copies + 1) for j in range(min(r, wild) + 1)]

    def step(state: State, r: int, j: int) -> set[State]:
        return _step(state, r, j, wild)

    subsets, moves = _determinize(set(starts.values()), symbols, step)
    label, n_classes = _minimize(subsets, moves, symbols, _accepts)
    width = (copies + 1) * (wild + 1)
    init = np.full((width, width), -1, dtype=np.int64)
    for (r0, g, j0, jg), sub in starts.items():
        init[init_index(copies, r0, g, j0, jg)] = label[sub]
    delta, accept = _tables(subsets, moves, symbols, label, n_classes, _accepts,
                            (copies + 1, wild + 1))
    return init, delta, accept


@one_time
def flagged_run_automaton(copies: int, wild: int) -> tuple[np.ndarray, np.ndarray,
                                                           np.ndarray]:
    """``build(copies, wild)``, from the shipped tables when they hold it (read-only)."""
    shipped = _shipped()
    key = f"{copies}_{wild}"
    if key + "_delta" in shipped:
        tables = tuple(shipped[f"{key}_{part}"] for part in ("init", "delta", "accept"))
    else:
        tables = build(copies, wild)
    for table in tables:
        table.setflags(write=False)
    return tables  # type: ignore[return-value]


@one_time
def dominators(copies: int, wild: int) -> np.ndarray:
    """``solver.automaton.dominators`` for ``flagged_run_automaton(copies, wild)``."""
    _, delta, accept = flagged_run_automaton(copies, wild)
    rows = dominator_rows(delta, accept)
    rows.setflags(write=False)
    return rows


def available(copies: int, wild: int) -> bool:
    """Whether the flagged automaton for ``copies`` and ``wild`` jokers is shipped."""
    return (copies, wild) in SHIPPED


@cache
def _shipped() -> dict[str, np.ndarray]:
    """The tables in ``solver/data/flagged_runs.npz`` (empty when it is missing)."""
    path = resources.files("solver") / "data" / DATA
    if not path.is_file():
        return {}
    with resources.as_file(path) as real, np.load(real) as data:
        return {name: data[name].copy() for name in data.files}


def write(path: str) -> None:
    """Build every ``SHIPPED`` size and save them to ``path``."""
    arrays: dict[str, Any] = {}  # Any: numpy's stub types savez's keywords as allow_pickle's
    for copies, wild in SHIPPED:
        init, delta, accept = build(copies, wild)
        print(f"copies {copies}, {wild} jokers: {delta.shape[0]} states", flush=True)
        arrays.update({f"{copies}_{wild}_init": init, f"{copies}_{wild}_delta": delta,
                       f"{copies}_{wild}_accept": accept})
    np.savez_compressed(path, **arrays)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else
          str(resources.files("solver") / "data" / DATA))
