"""pytest-benchmark suites: kernel, CP-SAT and rummikub-solver side by side in one run.

    pytest bench/test_speed.py --benchmark-group-by=group --benchmark-columns=min,median,max

Each benchmark solves every position of one (size, ace) class of the suite once per round;
groups put the backends next to each other. rummikub-solver runs on the ace-low classes only.
Per-position statistics (median and p99 per backend) come from ``python -m bench.compare``.
"""

from __future__ import annotations

import pytest

from bench.suite import ACES, SIZES, suite
from solver import solve_position

CASES = [(size, ace, backend) for size in SIZES for ace in ACES
         for backend in ("kernel", "cpsat", "rummikub") if backend != "rummikub" or ace == "low"]


@pytest.fixture(scope="module")
def rummikub():
    pytest.importorskip("rummikub_solver")
    from bench.rummikub import RummikubSolver

    return RummikubSolver()


@pytest.mark.parametrize("size, ace, backend", CASES)
def test_solve_class(benchmark, request, size, ace, backend):
    positions = [p for s, a, p in suite() if s == size and a == ace]
    benchmark.group = f"{size} ace={ace}"
    benchmark.extra_info["positions"] = len(positions)
    if backend == "rummikub":
        solver = request.getfixturevalue("rummikub")
        states = [solver.state(p) for p in positions]
        for state in states:
            solver.solve(state)

        def run():
            return [solver.solve(state) for state in states]
    else:
        solve_position(positions[0], "cards", backend)

        def run():
            return [solve_position(p, "cards", backend).score for p in positions]
    scores = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    expected = [solve_position(p, "cards", "kernel").score for p in positions]
    assert scores == expected
