"""One source stamp for every cached kernel of the package: a change to any file recompiles all.

numba's on-disk cache (``cache=True``) keeps a kernel's machine code under a hash of the
kernel's own source file, and of nothing else. A kernel that calls kernels of other files
compiles them into its own code, and keeps that code when only those files change: after an
edit to ``solver/kernel.py``, ``solver/one_call.py``'s cached search still ran the kernel as it
was the day before (found 2026-12-02, timed as twice as slow; had the edit changed a data
layout, its answers would have been wrong). A fresh install compiles everything anyway, but a
checkout that pulls or edits some files kept the stale code until its cache was removed.

``stamp_package_sources()``, run when this module is imported (``solver/__init__.py`` imports
it right after numba, before any kernel is declared), makes the stamp of every kernel whose source
lies in this package one hash of all the package's sources, so any change to any of them
invalidates every kernel's cached code; numba then compiles each again once and caches it
under the new stamp. Kernels outside the package keep numba's own stamp. The package's
sources are read and hashed once per process, as numba hashed each file before.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core import caching

PACKAGE = os.path.dirname(os.path.abspath(__file__))
"""The directory whose ``*.py`` files make up every package kernel's stamp."""


def package_stamp(directory: str) -> bytes:
    """A hash of every ``*.py`` file in ``directory``: their names and contents."""
    digest = hashlib.sha256()
    for path in sorted(Path(directory).glob("*.py")):
        digest.update(path.name.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


@functools.cache
def _package_stamp() -> bytes:
    """``package_stamp`` of this package, computed once a process."""
    return package_stamp(PACKAGE)


def stamp_package_sources() -> None:
    """Give every kernel declared from now on in this package the package-wide stamp (see the
    module docstring), once a process."""
    mixin = caching._SourceFileBackedLocatorMixin
    if getattr(mixin.get_source_stamp, "package_wide", False):
        return
    own_stamp = mixin.get_source_stamp

    def get_source_stamp(locator: caching._SourceFileBackedLocatorMixin) -> object:
        directory = os.path.dirname(os.path.abspath(locator._py_file))  # type: ignore[attr-defined]
        return _package_stamp() if directory == PACKAGE else own_stamp(locator)

    get_source_stamp.package_wide = True  # type: ignore[attr-defined]
    mixin.get_source_stamp = get_source_stamp  # type: ignore[method-assign]


TAG = "machiavelli-engine kernel"
"""The first field of every package kernel's cached code (``tag_package_code``)."""


def tag_package_code() -> None:
    """Store every package kernel's cached code with its stamp and its key (the signature and
    the machine it was compiled for), and load it only under both; anything else is a miss,
    compiled again. Once a process.

    numba numbers a kernel's data files from 1 and keeps which number holds which signature
    in an index. Two processes that compile two signatures of one kernel at once, or that run
    two versions of the package over one cache (an edit or an upgrade while a game is on),
    each write ``.1.nbc`` and an index that says it holds their own code: the other then loads
    code compiled for other argument types, which fails at best (found 2026-12-07: a bot's
    first solve raised "In 'NRT_adapt_ndarray_to_python', 'descr' is NULL" after sources
    edited while benchmarks ran). With the tag, such a file is recompiled instead."""
    cache_file = caching.IndexDataCacheFile
    if getattr(cache_file.save, "tagged", False):
        return
    own_save, own_load = cache_file.save, cache_file.load

    def save(self: caching.IndexDataCacheFile, key: object, data: object) -> None:
        if self._source_stamp == _package_stamp():
            data = (TAG, self._source_stamp, key, data)
        own_save(self, key, data)

    def load(self: caching.IndexDataCacheFile, key: object) -> object:
        data = own_load(self, key)
        if data is None or self._source_stamp != _package_stamp():
            return data
        tagged = isinstance(data, tuple) and len(data) == 4 and data[0] == TAG
        if tagged and data[1] == self._source_stamp and data[2] == key:
            return data[3]
        return None

    save.tagged = True  # type: ignore[attr-defined]
    cache_file.save = save  # type: ignore[method-assign]
    cache_file.load = load  # type: ignore[method-assign]


stamp_package_sources()
tag_package_code()
