"""bench.compare times solve() as users call it, from card texts (issue 9, item 9), next to
rummikub-solver warm and as called (issue 12), and ``--worst`` finds the slowest call.

    pytest bench/test_compare.py
"""

from bench.compare import (
    FROM_TEXT,
    RUMMIKUB_FRESH,
    as_user_call,
    summarize,
    summarize_worst,
)
from bench.suite import suite
from solver import solve_position


def test_the_call_from_card_texts_solves_the_same_position():
    for size, ace, position in suite()[::37]:
        for objective in ("cards", "points"):
            from_text = as_user_call(position, objective)()
            assert from_text.position == position, (size, ace)
            assert from_text.score == solve_position(position, objective).score


def test_summary_reports_every_ratio_against_rummikub_solver():
    rows = [{"size": "full", "ace": "low", "table": 90, "hand": 9, "backend": backend,
             "ms": ms, "score": 3}
            for backend, ms in (("kernel", 0.1), (FROM_TEXT, 1.0), ("cpsat", 10.0),
                                ("rummikub", 5.0), (RUMMIKUB_FRESH, 20.0))]
    warm, fresh = summarize(rows).splitlines()[-2:]
    assert "(warm" in warm and "5x the kernel's from card texts" in warm
    assert "50x the kernel's on a pre-built" in warm
    assert "(as called" in fresh and "20x the kernel's from card texts" in fresh


def test_worst_summary_counts_the_calls_over_the_limit():
    rows = [{"size": "large", "ace": ace, "objective": objective, "ms": ms, "table": 60,
             "hand": 9, "backend": "kernel", "position": f"{ace} {objective}"}
            for ace, objective, ms in (("low", "cards", 0.2), ("both", "points", 7.5),
                                       ("high", "cards", 0.3))]
    text = summarize_worst(rows)
    assert "3 calls from card texts; 1 over 5 ms" in text
    assert text.splitlines()[-3].startswith("  7.500 ms  large, ace both, points")
