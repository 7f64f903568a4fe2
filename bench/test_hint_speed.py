"""pytest-benchmark: a hint beside the plain solve, on the suite's tables of 60+ cards.

    pytest bench/test_hint_speed.py --benchmark-columns=min,median,max
"""

from __future__ import annotations

import pytest

from bench.hint import big_positions
from solver import solve_position
from solver.hint import hint_position


@pytest.mark.parametrize("what", ["hint", "solve"])
def test_hint_beside_solve(benchmark, what):
    positions = big_positions()
    benchmark.group = "60+ table cards"
    benchmark.extra_info["positions"] = len(positions)
    run_one = hint_position if what == "hint" else solve_position
    run_one(positions[0])

    def run():
        return [run_one(p) for p in positions]

    results = benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    scores = [r.solution.score if what == "hint" else r.score for r in results]
    assert scores == [solve_position(p).score for p in positions]
