"""Shared fixtures: the rules book's worked examples, the two backends, a frozen heap."""

import gc
import subprocess
import sys
from pathlib import Path

import pytest


def pytest_configure(config):
    """With workers (``pytest -n auto``, the README's test command): fill numba's cache once,
    before they start (``tests/warm_cache.py``), so that on a fresh checkout each loads the
    compiled kernels instead of compiling them all itself; a few seconds when it is warm."""
    if not config.getoption("numprocesses", None) or hasattr(config, "workerinput"):
        return
    here = Path(__file__).parent
    subprocess.run([sys.executable, str(here / "warm_cache.py")], check=True, cwd=here.parent,
                   stdout=subprocess.DEVNULL)


BACKENDS = ("kernel", "cpsat")


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def frozen_heap():
    """The heap built so far moved out of the garbage collector's sight (``gc.freeze``) for
    the test: a test that times a call in CPU seconds then measures the call, not a full
    collection of every object the earlier tests left alive (after the whole suite's
    collection, hundreds of milliseconds on a busy machine)."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
