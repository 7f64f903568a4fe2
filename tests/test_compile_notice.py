"""The one-time notice that numba is compiling the package's kernels (solver.compile_notice)."""

from __future__ import annotations

import logging

import pytest
from numba import njit
from numba.core import event

from solver import compile_notice


def _kernel(module: str):
    """A fresh kernel that numba compiles at its first call, as if declared in ``module``."""
    def add_one(x):
        return x + 1
    add_one.__module__ = module
    return njit(add_one)


@pytest.fixture
def listener():
    """A listener that has told nothing yet, in place of the module's own for the test."""
    fresh = compile_notice._FirstCompile()
    event.unregister("numba:compile", compile_notice._listener)
    event.register("numba:compile", fresh)
    yield fresh
    event.unregister("numba:compile", fresh)
    event.register("numba:compile", compile_notice._listener)


def test_a_package_kernel_compiling_is_told_once(listener, caplog):
    caplog.set_level(logging.INFO, logger="solver.compile")
    assert _kernel("solver.example")(1) == 2
    assert _kernel("solver.other")(2) == 3
    told = [r for r in caplog.records if r.getMessage() == compile_notice.MESSAGE]
    assert len(told) == 1


def test_other_kernels_compiling_say_nothing(listener, caplog):
    caplog.set_level(logging.INFO, logger="solver.compile")
    assert _kernel("somebody_else")(1) == 2
    assert not [r for r in caplog.records if r.getMessage() == compile_notice.MESSAGE]


def test_the_command_line_shows_the_notice_on_stderr(capsys):
    from bots.app.cli import show_compile_notice

    logger = logging.getLogger("solver.compile")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    try:
        show_compile_notice()
        compile_notice.LOGGER.info(compile_notice.MESSAGE)
        captured = capsys.readouterr()
        assert captured.err == f"machiavelli: {compile_notice.MESSAGE}\n"
        assert captured.out == ""
    finally:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
