"""pytest-benchmark: the auto hint beside the CP-SAT hint, on the suite's tables of 60+ cards
and on its smaller tables (where ``auto`` hints with the kernel).

    pytest bench/test_hint_speed.py --benchmark-columns=min,median,max
"""

from __future__ import annotations

import pytest

from bench.hint import big_positions, disturbance
from bench.suite import suite, table_size
from solver.hint import hint_position

SMALL_TABLE = 40


def small_positions():
    return [p for _, _, p in suite() if table_size(p) < SMALL_TABLE]


@pytest.mark.parametrize("tables", ["60+", "small"])
@pytest.mark.parametrize("backend", ["auto", "cpsat"])
def test_hint_side_by_side(benchmark, backend, tables):
    positions = big_positions() if tables == "60+" else small_positions()
    benchmark.group = f"hint, {tables} table cards"
    benchmark.extra_info["positions"] = len(positions)
    hint_position(positions[0], backend=backend)

    def run():
        return [hint_position(p, backend=backend) for p in positions]

    results = benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    expected = [disturbance(p, hint_position(p, backend="cpsat")) for p in positions]
    assert [disturbance(p, r) for p, r in zip(positions, results, strict=True)] == expected
