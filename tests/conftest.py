"""Shared fixtures: the rules book's worked examples and the two backends."""

import pytest

BACKENDS = ("kernel", "cpsat")


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param
