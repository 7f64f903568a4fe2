"""Hint speed per position on the suite's tables of 60 cards or more (issue: median <= 100 ms).

    python -m bench.hint            # median, p90 and max hint time, beside the plain solve

The hint solves once with the kernel, then once more with CP-SAT (the objective fixed, the
fewest table groups changed); the plain solve is the kernel alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.suite import suite, table_size
from solver import Position, solve_position
from solver.hint import hint_position

MIN_TABLE = 60


def big_positions() -> list[Position]:
    """The suite's positions with at least ``MIN_TABLE`` table cards."""
    return [p for _, _, p in suite() if table_size(p) >= MIN_TABLE]


def timings(positions: list[Position]) -> tuple[list[float], list[float], list[int]]:
    """Per position: hint ms, plain solve ms, table groups the hint changes."""
    hint_position(positions[0])  # load OR-Tools and the compiled kernel
    hints, solves, changed = [], [], []
    for position in positions:
        started = time.perf_counter()
        result = hint_position(position)
        hints.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        solve_position(position)
        solves.append((time.perf_counter() - started) * 1000)
        changed.append(len(result.changed_groups))
    return hints, solves, changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    positions = big_positions()
    hints, solves, changed = timings(positions)
    p90 = statistics.quantiles(hints, n=10)[-1]
    print(f"{len(positions)} positions with {MIN_TABLE}+ table cards")
    print(f"hint  ms: median {statistics.median(hints):.1f}  p90 {p90:.1f}  max {max(hints):.1f}")
    print(f"solve ms: median {statistics.median(solves):.2f}  max {max(solves):.2f}")
    print(f"table groups changed: mean {statistics.mean(changed):.2f}  max {max(changed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
