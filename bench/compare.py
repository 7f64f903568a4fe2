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

    python -m bench.compare            # the README table
    python -m bench.compare --repeat 5 --json bench/results.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from bench.suite import SIZES, suite
from solver import Position, solve, solve_position

FROM_TEXT = "kernel from text"
BACKENDS = ("kernel", FROM_TEXT, "cpsat", "rummikub")
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
            if backend == "rummikub":
                if rummikub is None or ace != "low":
                    continue
                state = rummikub.state(position)
                rummikub.solve(state)  # its first call per state builds cvxpy data
                ms, score = time_best(lambda s=state: rummikub.solve(s), repeat)
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


def as_user_call(position: Position):
    """``solve()`` on ``position`` given as users give it: lists of card texts."""
    table = [[str(card) for card in group] for group in position.table]
    hand = [str(card) for card in position.hand]
    variant = str(position.variant)
    return lambda: solve(table, hand, variant=variant, opened=position.opened)


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
            ratio = f"{median / kernel_median:.0f}x" if kernel_median else ""
            lines.append(f"| {name} | {backend} | {len(values)} | {median:.3f} | {p99:.3f} | "
                         f"{top:.3f} | {ratio} |")
    return "\n".join(lines + [""] + versus_rummikub(rows))


def big_low(row: dict) -> bool:
    return row["table"] >= 40 and row["ace"] == "low"


def versus_rummikub(rows: list[dict]) -> list[str]:
    """rummikub-solver's median over the kernel's, pre-built and from text, on BIG_LOW."""
    medians = {backend: np.median([r["ms"] for r in rows if r["backend"] == backend
                                   and big_low(r)] or [np.nan]) for backend in BACKENDS}
    if np.isnan(medians["rummikub"]):
        return []
    return [f"{BIG_LOW}: rummikub-solver's median {medians['rummikub']:.3f} ms is "
            f"{medians['rummikub'] / medians[FROM_TEXT]:.0f}x the kernel's from card texts "
            f"({medians[FROM_TEXT]:.3f} ms, solve() as users call it) and "
            f"{medians['rummikub'] / medians['kernel']:.0f}x the kernel's on a pre-built "
            f"Position ({medians['kernel']:.3f} ms)"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (best kept)")
    parser.add_argument("--json", metavar="FILE", help="also write every timing to FILE")
    args = parser.parse_args(argv)
    rows = measure(args.repeat, progress=sys.stderr.isatty())
    print(summarize(rows))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
