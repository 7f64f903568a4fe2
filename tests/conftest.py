"""Shared fixtures: the rules book's worked examples, the two backends, a frozen heap."""

import gc

import pytest

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
