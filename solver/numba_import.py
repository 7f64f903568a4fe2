"""Importing numba without the two packages it imports only to look at them.

``import numba`` imports SciPy, only to check that its version is 1.0 or later, and PyYAML,
only to read a ``.numba_config.yaml`` in the working directory. Neither is read by a solve,
and in a fresh ``machiavelli solve`` the two were about a twentieth of the process's CPU time
(measured side by side, 2026-11-30). ``import_numba()``, run when this module is imported
(``solver/__init__.py`` imports it first, before any module imports numba), imports numba
with both out of sight: SciPy always (numba's linear algebra imports SciPy's modules when it
compiles them), PyYAML only when there is no ``.numba_config.yaml`` to read. Both stay
importable as ever afterwards.

``hidden(names)`` is the tool: while it lasts, the named modules cannot be imported (an
import raises ``ModuleNotFoundError``), unless they already are; ``solver.warmup`` uses it
too, for numba's probe of SciPy's BLAS.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

NUMBA_CONFIG_FILE = ".numba_config.yaml"
"""The file numba reads its options from, in the working directory, with PyYAML."""


class _Unseen(importlib.abc.MetaPathFinder):
    """An import finder for which the named modules do not exist."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname in self.names:
            raise ModuleNotFoundError(f"{fullname} is not loaded while numba starts",
                                      name=fullname)


@contextmanager
def hidden(names: Sequence[str]) -> Iterator[None]:
    """While it lasts, importing one of ``names`` (not yet imported) raises
    ``ModuleNotFoundError``."""
    unseen = _Unseen(names)
    sys.meta_path.insert(0, unseen)
    try:
        yield
    finally:
        sys.meta_path.remove(unseen)


def import_numba() -> None:
    """Import numba (if not yet imported) without SciPy, and without PyYAML unless a
    ``.numba_config.yaml`` is there to read (see the module docstring)."""
    if "numba" in sys.modules:
        return
    names = ["scipy"] if os.path.isfile(NUMBA_CONFIG_FILE) else ["scipy", "yaml"]
    with hidden(names):
        import numba  # noqa: F401  (imported for the modules that follow)


import_numba()

__all__ = ["hidden", "import_numba"]
