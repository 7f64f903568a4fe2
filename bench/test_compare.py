"""bench.compare times solve() as users call it, from card texts (issue 9, item 9).

    pytest bench/test_compare.py
"""

from bench.compare import FROM_TEXT, as_user_call, summarize
from bench.suite import suite
from solver import solve_position


def test_the_call_from_card_texts_solves_the_same_position():
    for size, ace, position in suite()[::37]:
        from_text = as_user_call(position)()
        assert from_text.position == position, (size, ace)
        assert from_text.score == solve_position(position).score


def test_summary_reports_both_ratios_against_rummikub_solver():
    rows = [{"size": "full", "ace": "low", "table": 90, "hand": 9, "backend": backend,
             "ms": ms, "score": 3}
            for backend, ms in (("kernel", 0.1), (FROM_TEXT, 1.0), ("cpsat", 10.0),
                                ("rummikub", 5.0))]
    last = summarize(rows).splitlines()[-1]
    assert "5x the kernel's from card texts" in last and "50x the kernel's on a pre-built" in last
