"""``solver.cache_stamp``: every kernel of the package is cached under one hash of all the
package's sources, so that editing one file recompiles the kernels that inline its code;
kernels elsewhere keep numba's own stamp."""

from __future__ import annotations

import importlib.util
import inspect
import pkgutil

import numba
from numba.core import caching

import solver
from solver.cache_stamp import PACKAGE, package_stamp


def _cached_kernels():
    """Every ``cache=True`` dispatcher the package's modules define."""
    for info in pkgutil.iter_modules(solver.__path__, "solver."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module):
            if isinstance(value, numba.core.registry.CPUDispatcher) and \
                    value.__module__ == info.name and \
                    not isinstance(value._cache, caching.NullCache):
                yield value


def test_every_package_kernel_has_the_package_wide_stamp():
    stamp = package_stamp(PACKAGE)
    kernels = list(_cached_kernels())
    assert len(kernels) > 50
    stale = [k.__name__ for k in kernels if k._cache._cache_file._source_stamp != stamp]
    assert not stale


def test_the_stamp_follows_every_file_of_the_directory(tmp_path):
    (tmp_path / "caller.py").write_text("x = 1\n")
    (tmp_path / "callee.py").write_text("y = 2\n")
    first = package_stamp(str(tmp_path))
    assert package_stamp(str(tmp_path)) == first
    (tmp_path / "callee.py").write_text("y = 3\n")  # only the file the caller does not define
    assert package_stamp(str(tmp_path)) != first
    (tmp_path / "callee.py").write_text("y = 2\n")
    assert package_stamp(str(tmp_path)) == first
    (tmp_path / "other.py").write_text("")
    assert package_stamp(str(tmp_path)) != first


def test_a_kernel_outside_the_package_keeps_numbas_stamp(tmp_path):
    source = tmp_path / "elsewhere.py"
    source.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef plus_one(x):\n"
                      "    return x + 1\n")
    spec = importlib.util.spec_from_file_location("elsewhere", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stat = source.stat()
    own = caching._hash_source_file(str(source), stat.st_mtime, stat.st_size)
    assert module.plus_one._cache._cache_file._source_stamp == own
    assert module.plus_one(1) == 2


def test_a_package_kernels_code_loads_only_under_its_own_key_and_stamp(tmp_path):
    """Two processes compiling one kernel at once can leave an index that names the other's
    data file (each numbers its files from 1): numba would load the other signature's code.
    The package's kernels then miss and compile again; others' behave as numba's do."""
    def crossed(stamp):
        cache = caching.IndexDataCacheFile(str(tmp_path / stamp.hex()), "k", stamp)
        (tmp_path / stamp.hex()).mkdir()
        cache.save(("int64",), "code for int64")
        cache.save(("float64",), "code for float64")
        assert cache.load(("int64",)) == "code for int64"
        overloads = cache._load_index()
        overloads[("int64",)], overloads[("float64",)] = \
            overloads[("float64",)], overloads[("int64",)]
        cache._save_index(overloads)  # as a race leaves it
        return cache.load(("int64",))

    assert crossed(package_stamp(PACKAGE)) is None
    assert crossed(b"another library") == "code for float64"
