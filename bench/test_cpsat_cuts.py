"""bench.cpsat_cuts times CP-SAT with and without its generated cuts on the same positions,
and restores the package's setting whatever happens.

    pytest bench/test_cpsat_cuts.py
"""

from bench import cpsat_cuts
from solver import cpsat


def test_both_settings_time_every_position_and_the_setting_is_restored():
    times = cpsat_cuts.measure(("small",), repeat=1)
    assert [len(values) for values in times.values()] == [60, 60]
    assert cpsat.CUT_LEVEL == 0
    text = cpsat_cuts.summarize(times)
    assert "| cuts off (now) | 60 |" in text and "before / now: median" in text
