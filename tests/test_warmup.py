"""The first solve of a process times the search only (issue 9, item 7).

A fresh install showed 1,656 ms for a 3-card position on which nothing fits, then 13.6 ms warm:
the no-play path loaded its own compiled kernels lazily, inside the timed solve. The first-solve
tests run fresh processes on a numba cache of their own, so nothing is loaded before the first
solve.
"""

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

NO_PLAY = ("6C 7C 8C", "8D 8H")
PLAY = ("5C 6C 7C 8C", "8D 8H")
FIRST_MS = 50  # a 3- or 4-card table solves in well under a millisecond

FIRST_SOLVES = """
import json, sys
from solver import solve
first = solve(sys.argv[1], sys.argv[2])
then = solve(sys.argv[3], sys.argv[4])
print(json.dumps([first.elapsed_ms, then.elapsed_ms, first.score, then.score]))
"""

# After the warm-up, solves of every kind must add no compiled kernel version: numba would
# load or compile it inside the timed solve.
NOTHING_LOADED_LATER = """
import importlib
import json
import sys
from numba.core.registry import CPUDispatcher
from solver import fastcheck, kernel, kernel_backend, kernel_decode, one_call, tidy
from solver.warmup import load_kernels

sys.path.insert(0, sys.argv[1])
from warm_cache import exercise  # tests/warm_cache.py: solves, hints, openings, games

def versions():
    modules = (tidy, fastcheck, kernel, kernel_backend, kernel_decode, one_call)
    return {f"{m.__name__.split('.')[-1]}.{n}": len(f.signatures) for m in modules
            for n, f in vars(m).items() if isinstance(f, CPUDispatcher)}

load_kernels()
importlib.import_module("solver.hint").load_least_change()  # a hint's own set-up
before = versions()
exercise()
after = versions()
print(json.dumps({name: after[name] - before[name] for name in after
                  if after[name] != before[name]}))
"""


def run_python(code: str, cache: str | None, *args: str) -> str:
    """``code`` in a fresh process on the numba cache ``cache`` (None: the usual one, beside
    the sources); its output."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache} if cache else None
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=900, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def fresh_cache(tmp_path_factory):
    """A numba cache directory filled by one process that started with it empty, and the
    elapsed_ms of that process's first two solves (nothing fits, then a play)."""
    cache = str(tmp_path_factory.mktemp("numba_cache"))
    times = json.loads(run_python(FIRST_SOLVES, cache, *NO_PLAY, *PLAY))
    return cache, times


# the search's kernels: each version of one links and optimizes the whole search again
SEARCH_KERNELS = ("kernel.search_and_decode", "kernel.search_and_decode_with",
                  "kernel.search_with", "kernel._branch_and_bound", "kernel._descend",
                  "one_call.joker_free_search")

# kernels on every solve's path, or that call big ones: one version each too (session 27: a
# fresh compile of tests/warm_cache.py 303 -> 287 s, side by side)
ENTRY_KERNELS = ("tidy.lay_out", "fastcheck.lay_out_and_check", "fastcheck.check_table",
                 "kernel.cell_arrays", "kernel.usable_cards", "kernel_backend.config_vector",
                 "kernel_decode.decode_moves", "one_call.packed_answer")


def compiled_versions(cache: str) -> dict[str, int]:
    """Per kernel (``module.function``) in numba's cache directory ``cache``, how many
    versions it holds (numba's index file: a version number, then the pickled ``(stamp,
    overloads)``)."""
    versions = {}
    for index in Path(cache).rglob("*.nbi"):
        with open(index, "rb") as file:
            pickle.load(file)
            _, overloads = pickle.loads(file.read())
        versions[index.name.split("-")[0]] = len(overloads)
    return versions


def test_the_search_is_compiled_once_whichever_kernel_calls_it(fresh_cache):
    """Every caller hands the search the same argument types (``solver.frozen``): one version
    of each of its kernels, where there were four or five (a fresh compile 574 -> 328 s)."""
    cache, _ = fresh_cache
    versions = compiled_versions(cache)
    assert {name: versions.get(name) for name in SEARCH_KERNELS} == dict.fromkeys(
        SEARCH_KERNELS, 1)


def test_the_kernels_on_every_solve_path_are_compiled_once(fresh_cache):
    """The callers of the layout, the re-check, the cells and the decoding hand them one set
    of argument types (read-only arrays, ``int64`` constants), as the search's callers do.
    The cache here holds what a solve's warm-up compiles; the hints', the games' and tahiti's
    callers were checked on a cache that ``tests/warm_cache.py`` filled from empty
    (docs/performance.md §7): a fresh compile of every kernel is too long for the suite."""
    cache, _ = fresh_cache
    versions = compiled_versions(cache)
    assert {name: versions.get(name) for name in ENTRY_KERNELS} == dict.fromkeys(
        ENTRY_KERNELS, 1)


def test_first_solve_after_compiling_everything_times_only_the_search(fresh_cache):
    _, (no_play_ms, play_ms, no_play_score, play_score) = fresh_cache
    assert (no_play_score, play_score) == (0, 2)
    assert no_play_ms < FIRST_MS and play_ms < FIRST_MS, (no_play_ms, play_ms)


def test_first_solve_loading_from_the_cache_times_only_the_search(fresh_cache):
    cache, _ = fresh_cache
    play_ms, no_play_ms, *_ = json.loads(run_python(FIRST_SOLVES, cache, *PLAY, *NO_PLAY))
    assert play_ms < FIRST_MS and no_play_ms < FIRST_MS, (play_ms, no_play_ms)
    cli = subprocess.run([sys.executable, "-m", "bots.app.cli", "solve", "--table", NO_PLAY[0],
                          "--hand", NO_PLAY[1], "--json"], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "NUMBA_CACHE_DIR": cache})
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["elapsed_ms"] < FIRST_MS


def test_the_warm_up_loads_every_kernel_version_a_solve_uses():
    """A fresh process, on the usual cache: a version loaded from the cache counts as one
    compiled, so the cache need not start empty (the suite has filled it by now; a cache of
    its own would compile every kernel a second time, four minutes of the suite's run)."""
    tests = str(Path(__file__).parent)
    assert json.loads(run_python(NOTHING_LOADED_LATER, None, tests)) == {}


SCIPY_UNTOUCHED = """
import json, sys
from solver import solve
solved = solve("5C 6C 7C 8C", "8D 8H", variant="machiavelli:opening=36", opened=False)
loaded = "scipy.linalg" in sys.modules
try:
    import scipy.linalg  # still importable as ever, if installed
    importable = True
except ImportError:
    importable = None
print(json.dumps([solved.score, loaded, importable]))
"""


def test_solving_leaves_scipy_blas_unloaded_and_importable(fresh_cache):
    """numba's BLAS probe is kept from importing scipy.linalg (solver.warmup); the first
    solve, an opening included, does not need it, and scipy.linalg imports later as ever."""
    cache, _ = fresh_cache
    score, loaded, importable = json.loads(run_python(SCIPY_UNTOUCHED, cache))
    assert score == 0 and loaded is False
    try:
        import scipy  # noqa: F401
    except ImportError:
        return
    assert importable is True
