"""Side-by-side timing of the kernel, CP-SAT and rummikub-solver on the benchmark suite.

Every position is solved by every backend in one run (best of ``--repeat`` per position, after
a warm-up), the answers are checked to agree, and a Markdown table of median / p99 / max per
backend and size class is printed, with the ratio of medians against the kernel.
rummikub-solver only knows low aces, so it runs on the ace-``low`` third of the suite.

The kernel is timed twice: ``kernel`` is ``solve_position`` on a ``Position`` built beforehand
(the search, the layout and the re-check), ``kernel from text`` is ``solve()`` as users call
it, from card texts (``solve([["5C", "6C", "7C"]], ["8D", "8H"], variant=...)``: parsing and
validating the position and building the problem included). The last lines give
rummikub-solver's median over both on the positions with 40+ table cards (ace low).

rummikub-solver is timed two ways too: ``rummikub`` is its repeat solve of a game state it has
solved before (warm: its model data built), ``rummikub as called`` builds a fresh state from
the tiles and solves it, as a user calls it for a new position. The last lines give the
median ratio of each against the kernel from card texts and on a pre-built position.

``--worst`` times instead ``solve()`` from card texts on every suite position in every ace
mode under which its table is valid (a ``low`` table is valid under ``both``; a ``Q K A`` run
is not under ``low``), with both objectives, and prints the 20 slowest calls with the nodes
the kernel's search expanded for each (a count that does not depend on the machine's
load).

    python -m bench.compare            # the README table
    python -m bench.compare --repeat 5 --json bench/results.json
    python -m bench.compare --worst    # every position, ace mode and objective, from text
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from bench.suite import ACES, SIZES, suite
from solver import Position, PositionError, kernel_backend, solve, solve_position
from solver.problem import OBJECTIVES, Problem

FROM_TEXT = "kernel from text"
RUMMIKUB_FRESH = "rummikub as called"
BACKENDS = ("kernel", FROM_TEXT, "cpsat", "rummikub", RUMMIKUB_FRESH)
WORST_LIMIT_MS = 5.0  # issue 12: no call from card texts over this
BIG_LOW = "40+ table cards, ace low"


def time_best(call, repeat: int) -> tuple[float, object]:
    """Best wall time of ``repeat`` calls, in milliseconds, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - started)
    return best * 1000, result


def measure(repeat: int = 3, progress: bool = False) -> list[dict]:
    """One row per (position, backend): size, ace, table cards, ms, score."""
    try:
        from bench.rummikub import RummikubSolver
        rummikub = RummikubSolver()
    except ImportError:
        print("rummikub-solver is not installed (pip install -e '.[bench]'); skipping it",
              file=sys.stderr)
        rummikub = None
    positions = suite()
    warm = positions[0][2]
    solve_position(warm, "cards", "kernel")
    solve_position(warm, "cards", "cpsat")
    rows = []
    for n, (size, ace, position) in enumerate(positions, start=1):
        scores = {}
        for backend in BACKENDS:
            if backend in ("rummikub", RUMMIKUB_FRESH):
                if rummikub is None or ace != "low":
                    continue
                ms, score = time_rummikub(rummikub, position, backend == RUMMIKUB_FRESH,
                                          repeat)
            elif backend == FROM_TEXT:
                ms, solution = time_best(as_user_call(position), repeat)
                score = solution.score
            else:
                ms, solution = time_best(
                    lambda b=backend, p=position: solve_position(p, "cards", b), repeat)
                score = solution.score
            scores[backend] = score
            rows.append({"size": size, "ace": ace, "table": len(position.table_cards),
                         "hand": len(position.hand), "backend": backend, "ms": ms,
                         "score": score})
        if len(set(scores.values())) != 1:
            raise SystemExit(f"backends disagree on {position}: {scores}")
        if progress and (n % 20 == 0 or n == len(positions)):
            end = "\n" if n == len(positions) else ""
            print(f"\r{n}/{len(positions)} positions", end=end, file=sys.stderr, flush=True)
    return rows


def time_rummikub(rummikub, position: Position, fresh: bool, repeat: int) -> tuple[float, int]:
    """rummikub-solver's best time on ``position``: building a fresh state from the tiles
    and solving it (``fresh``), or re-solving a state it has solved once already."""
    if fresh:
        return time_best(lambda: rummikub.solve(rummikub.state(position)), repeat)
    state = rummikub.state(position)
    rummikub.solve(state)  # its first call per state builds cvxpy data
    return time_best(lambda: rummikub.solve(state), repeat)


def as_user_call(position: Position, objective: str = "cards"):
    """``solve()`` on ``position`` given as users give it: lists of card texts."""
    table = [[str(card) for card in group] for group in position.table]
    hand = [str(card) for card in position.hand]
    variant = str(position.variant)
    return lambda: solve(table, hand, variant=variant, objective=objective,
                         opened=position.opened)


def summarize(rows: list[dict]) -> str:
    """The Markdown table: per size class and backend, median / p99 / max ms."""

    def stats(values):
        return np.median(values), np.percentile(values, 99), max(values)

    lines = ["| positions | backend | n | median ms | p99 ms | max ms | median vs kernel |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    classes = [(size, lambda r, s=size: r["size"] == s) for size in SIZES]
    classes.append((BIG_LOW, big_low))
    classes.append(("all", lambda r: True))
    for name, keep in classes:
        kernel_median = None
        for backend in BACKENDS:
            values = [r["ms"] for r in rows if r["backend"] == backend and keep(r)]
            if not values:
                continue
            median, p99, top = stats(values)
            if backend == "kernel":
                kernel_median = median
            ratio = _times(median / kernel_median) if kernel_median else ""
            lines.append(f"| {name} | {backend} | {len(values)} | {median:.3f} | {p99:.3f} | "
                         f"{top:.3f} | {ratio} |")
    return "\n".join(lines + [""] + versus_rummikub(rows))


def _times(ratio: float) -> str:
    """A ratio as ``26x``, or ``0.35x`` below 10 (a faster backend than the kernel's row)."""
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2g}x"


def big_low(row: dict) -> bool:
    return row["table"] >= 40 and row["ace"] == "low"


def versus_rummikub(rows: list[dict]) -> list[str]:
    """rummikub-solver's median (warm, and as called) over the kernel's from card texts and
    on a pre-built position, on BIG_LOW."""
    medians = {backend: np.median([r["ms"] for r in rows if r["backend"] == backend
                                   and big_low(r)] or [np.nan]) for backend in BACKENDS}
    lines = []
    for backend, label in (("rummikub", "warm: re-solving a state it has solved"),
                           (RUMMIKUB_FRESH, "as called: a fresh state built and solved")):
        if np.isnan(medians[backend]):
            continue
        lines.append(
            f"{BIG_LOW}: rummikub-solver's median ({label}) {medians[backend]:.3f} ms is "
            f"{medians[backend] / medians[FROM_TEXT]:.0f}x the kernel's from card texts "
            f"({medians[FROM_TEXT]:.3f} ms, solve() as users call it) and "
            f"{medians[backend] / medians['kernel']:.0f}x the kernel's on a pre-built "
            f"Position ({medians['kernel']:.3f} ms)")
    return lines


def measure_worst(repeat: int = 3, progress: bool = False) -> list[dict]:
    """``solve()`` from card texts on every suite position in every ace mode its table is
    valid under, both objectives: one row each, best of ``repeat``."""
    positions = suite()
    solve_position(positions[0][2])
    rows = []
    for n, (size, _, position) in enumerate(positions, start=1):
        for ace in ACES:
            try:
                moved = Position.make(position.table, position.hand, f"machiavelli:ace={ace}")
            except PositionError:
                continue  # e.g. a run A 2 3 under ace=high
            for objective in OBJECTIVES:
                ms, solution = time_best(as_user_call(moved, objective), repeat)
                rows.append({"size": size, "ace": ace, "objective": objective, "ms": ms,
                             "table": len(moved.table_cards), "hand": len(moved.hand),
                             "backend": solution.backend, "position": str(moved),
                             "nodes": search_nodes(moved, objective)})
        if progress and (n % 20 == 0 or n == len(positions)):
            end = "\n" if n == len(positions) else ""
            print(f"\r{n}/{len(positions)} positions", end=end, file=sys.stderr, flush=True)
    return rows


def search_nodes(position: Position, objective: str) -> int:
    """Nodes the kernel's search expands on ``position`` (every branch's, summed)."""
    return int(kernel_backend.solve(Problem.from_position(position, objective))
               .stats.get("nodes", 0))


def summarize_worst(rows: list[dict], shown: int = 20) -> str:
    """Median, p99 and worst of the ``--worst`` timings, per ace mode and objective, and the
    slowest calls."""
    lines = ["| ace | objective | calls | median ms | p99 ms | max ms |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for ace in ACES:
        for objective in OBJECTIVES:
            values = [r["ms"] for r in rows if r["ace"] == ace and r["objective"] == objective]
            if values:
                lines.append(f"| {ace} | {objective} | {len(values)} | {np.median(values):.3f} "
                             f"| {np.percentile(values, 99):.3f} | {max(values):.3f} |")
    over = sum(r["ms"] > WORST_LIMIT_MS for r in rows)
    nodes = [r["nodes"] for r in rows]
    lines += ["", f"{len(rows)} calls from card texts; {over} over {WORST_LIMIT_MS:g} ms; "
              f"search nodes: {sum(nodes):,} in all, {max(nodes):,} at most; the slowest:"]
    for row in sorted(rows, key=lambda r: -r["ms"])[:shown]:
        lines.append(f"  {row['ms']:.3f} ms  {row['nodes']:>5} nodes  {row['size']}, ace "
                     f"{row['ace']}, {row['objective']}: {row['position']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (best kept)")
    parser.add_argument("--json", metavar="FILE", help="also write every timing to FILE")
    parser.add_argument("--worst", action="store_true",
                        help="every position in every ace mode and objective, from card texts")
    args = parser.parse_args(argv)
    if args.worst:
        rows = measure_worst(args.repeat, progress=sys.stderr.isatty())
        print(summarize_worst(rows))
    else:
        rows = measure(args.repeat, progress=sys.stderr.isatty())
        print(summarize(rows))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
