"""bench.cpsat_cuts times CP-SAT with the package's parameters and with the ones they
replaced on the same positions, and restores the package's parameters whatever happens.

    pytest bench/test_cpsat_cuts.py
"""

import pytest

from bench import cpsat_cuts
from solver import cpsat


def test_every_setting_times_every_position_and_the_parameters_are_restored():
    times = cpsat_cuts.measure(("small",), repeat=1)
    assert [len(values) for values in times.values()] == [60] * len(cpsat_cuts.SETTINGS)
    assert (cpsat.CUT_LEVEL, cpsat.PRESOLVE) == (0, False)
    text = cpsat_cuts.summarize(times)
    assert f"| {cpsat_cuts.NOW} | 60 |" in text and "/ package: median" in text


def test_parameters_are_restored_after_an_error():
    with pytest.raises(RuntimeError), cpsat_cuts.parameters({"PRESOLVE": True}):
        assert cpsat.new_solver().parameters.cp_model_presolve
        raise RuntimeError
    assert not cpsat.new_solver().parameters.cp_model_presolve
