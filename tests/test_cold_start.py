"""A fresh ``machiavelli solve`` loads what its solve needs and no more (issue 12, item 6).

Each check runs the command's own entry point (``bots.app.cli.entry_point``) in a fresh
process and reads that process's ``sys.modules`` and numba dispatchers when it ends.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bots.app.cli import ALL_COMMANDS, build_parser
from bots.app.commands import COMMANDS

TABLE, HAND = "5C 6C 7C 8C | 9H 9D 9S", "8D 8H 10H 2C"

# Runs entry_point() on the arguments after '--', then prints what the process loaded.
AFTER_THE_COMMAND = """
import atexit, json, sys
from numba.core.registry import CPUDispatcher

def report():
    kernels = sorted(f"{name}.{attr}" for name, module in list(sys.modules.items())
                     if name.startswith("solver.")
                     for attr, value in vars(module).items()
                     if isinstance(value, CPUDispatcher) and value.signatures)
    print(json.dumps({"modules": sorted(sys.modules), "kernels": sorted(set(kernels))}),
          file=sys.stderr)

atexit.register(report)
sys.argv = ["machiavelli", *sys.argv[sys.argv.index("--") + 1:]]
from bots.app.cli import entry_point
entry_point()
"""


def loaded_by(*args: str) -> tuple[dict, dict]:
    """The JSON answer of ``machiavelli ARGS --json`` run as a fresh process, and what that
    process loaded: ``{"modules": [...], "kernels": [...]}``."""
    done = subprocess.run([sys.executable, "-c", AFTER_THE_COMMAND, "--", *args, "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])


def packages(modules: list[str], *names: str) -> set[str]:
    """The ``modules`` that are one of the packages ``names`` or inside one."""
    return {module for module in modules
            if any(module == name or module.startswith(name + ".") for name in names)}


@pytest.fixture(scope="module")
def kernel_solve() -> tuple[dict, dict]:
    loaded_by("solve", "--table", TABLE, "--hand", HAND)  # numba's cache filled, if it was not
    return loaded_by("solve", "--table", TABLE, "--hand", HAND)


def test_a_kernel_solve_does_not_import_ortools(kernel_solve):
    answer, loaded = kernel_solve
    assert answer["backend"] == "kernel" and answer["score"] == 2
    assert not packages(loaded["modules"], "ortools", "solver.cpsat")


def test_a_cpsat_solve_does_import_ortools():
    """The check above can fail: the same process with ``--backend cpsat`` loads OR-Tools."""
    answer, loaded = loaded_by("solve", "--table", TABLE, "--hand", HAND, "--backend", "cpsat")
    assert answer["backend"] == "cpsat" and answer["score"] == 2
    assert packages(loaded["modules"], "ortools", "solver.cpsat")


def test_a_solve_imports_neither_the_bots_nor_the_other_commands(kernel_solve):
    _, loaded = kernel_solve
    assert not packages(loaded["modules"], "bots.players", "bots.referee", "bots.envs",
                        "bots.arena", "bots.app.web", "bots.app.commands.games",
                        "bots.app.commands.interactive", "bots.app.commands.serving")


def test_a_solve_loads_the_kernels_of_a_solve_only(kernel_solve):
    """The one-call kernel (``solver.one_call``: the CLI's pre-built ``Position`` takes it),
    neither the bots' counts-level kernels nor the opening's, and (on the numba versions
    solver.cached_code knows) the kernels' cached code is loaded without numba's registry
    refresh, which imports its random generators."""
    _, loaded = kernel_solve
    assert "solver.one_call.solve_codes" in loaded["kernels"]
    assert not {"solver.counts._table_counts", "solver.tidy.lay_out",
                "solver.opening.pack_hand", "solver.automaton.sets_count"} & \
        set(loaded["kernels"])
    refreshed = packages(loaded["modules"], "numba.np.random", "numba.np.polynomial")
    assert bool(refreshed) != numba_is_light()


def test_an_opening_from_the_hand_loads_its_kernel_when_needed():
    answer, loaded = loaded_by("solve", "--variant", "machiavelli:opening=36", "--unopened",
                               "--table", "-", "--hand", "KS KH KD QS QH QD")
    assert answer["score"] == 6 and answer["elapsed_ms"] < 50
    assert "solver.opening.pack_hand" in loaded["kernels"]


def test_the_parser_of_one_command_helps_as_the_whole_parser():
    """``main`` declares only the command it runs: the top-level help and the command's own
    help read the same as with every command declared."""
    whole = build_parser(ALL_COMMANDS)
    assert build_parser("").format_help() == whole.format_help()
    for name, _, _ in COMMANDS:
        one = build_parser(name)
        assert one.format_help() == whole.format_help()
        assert _subparser(one, name).format_help() == _subparser(whole, name).format_help()


def _subparser(parser, name):
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[name]


INNER = """
from numba import njit


@njit(cache=True)
def inner(values):
    return values.sum() + 1
"""

# Loads ``inner`` from numba's cache (lightly: solver.warmup is imported first), then compiles
# a function that calls it, which links (and so parses) the cached kernel's bitcode.
LOAD_THEN_COMPILE = """
import json, sys
import numpy as np
import solver.warmup
from numba import njit
from numba.core import caching
from inner_kernel import inner

values = np.arange(4)
first = int(inner(values))

@njit
def outer(values):
    return inner(values) * 2

print(json.dumps([bool(getattr(caching.Cache.load_overload, "lightly", False)),
                  inner.stats.cache_hits.get(inner.signatures[0], 0), first,
                  int(outer(values))]))
"""


def test_a_kernel_loaded_lightly_still_links_into_a_new_compilation(tmp_path):
    """The deferred work of a light cache load (solver.cached_code) is done when a later
    compilation needs it: a new function calling a cached kernel compiles and runs."""
    (tmp_path / "inner_kernel.py").write_text(INNER, encoding="utf-8")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    runs = []
    for _ in range(2):  # the first run compiles and caches inner, the second loads it
        done = subprocess.run([sys.executable, "-c", LOAD_THEN_COMPILE], capture_output=True,
                              text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        runs.append(json.loads(done.stdout))
    light, hits, first, linked = runs[1]
    assert (light, hits) == (numba_is_light(), 1)
    assert first == 7 and linked == 14 and runs[0][2:] == [7, 14]


def numba_is_light() -> bool:
    """Whether this numba is one ``solver.cached_code`` loads lightly."""
    import numba

    from solver.cached_code import LIGHT_NUMBA

    return numba.__version__.startswith(LIGHT_NUMBA)


# Runs entry_point() on the arguments after '--' with one object whose teardown says so.
WITH_A_MODULE_OBJECT = """
import atexit, sys

class Watched:
    def __del__(self):
        sys.stderr.write("torn down\\n")

watched = Watched()
atexit.register(lambda: sys.stderr.write("atexit ran\\n"))
sys.argv = ["machiavelli", *sys.argv[sys.argv.index("--") + 1:]]
from bots.app.cli import entry_point
entry_point()
"""


@pytest.mark.parametrize("command, torn_down", [("solve", False), ("replay", True)])
def test_a_one_shot_command_ends_without_teardown(command, torn_down, tmp_path):
    """A one-shot command flushes its answer, runs the atexit functions and ends without
    freeing the process's objects (``exit_without_teardown``); other commands exit the usual
    way, and so does a one-shot command's error, with its status."""
    (tmp_path / "none.jsonl").write_text("", encoding="utf-8")
    args = (["--table", TABLE, "--hand", HAND, "--json"] if command == "solve"
            else [str(tmp_path / "none.jsonl")])
    done = subprocess.run([sys.executable, "-c", WITH_A_MODULE_OBJECT, "--", command, *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "atexit ran" in done.stderr
    assert ("torn down" in done.stderr) == torn_down
    if command == "solve":
        assert json.loads(done.stdout)["score"] == 2
    bad = subprocess.run([sys.executable, "-c", WITH_A_MODULE_OBJECT, "--", "solve",
                          "--table", "5C 6C", "--hand", HAND], capture_output=True, text=True,
                         timeout=600)
    assert bad.returncode == 2 and "atexit ran" in bad.stderr
