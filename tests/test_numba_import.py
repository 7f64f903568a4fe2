"""``solver.numba_import``: numba is imported without SciPy and PyYAML, which it imports only
to look at (issue 12, item 6), both stay importable, and a ``.numba_config.yaml`` is still
read. Each check is a fresh process: this one imported numba long ago."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Solves once from card texts (with the argument "solve"), then reports what was loaded, a
# numba option, and whether SciPy and PyYAML import afterwards (None: not installed).
SOLVE_AND_REPORT = """
import importlib, json, sys
from solver import solve
score = solve([["5C", "6C", "7C", "8C"]], ["8D", "8H"]).score if "solve" in sys.argv else None
import numba.core.config
loaded = {name: name in sys.modules for name in ("numba", "scipy", "yaml")}
def importable(name):
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return None
print(json.dumps([score, loaded, numba.core.config.BOUNDSCHECK,
                  importable("scipy.linalg"), importable("yaml")]))
"""


def _run(cwd: Path, *args: str) -> list:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    environment.pop("NUMBA_BOUNDSCHECK", None)
    done = subprocess.run([sys.executable, "-c", SOLVE_AND_REPORT, *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _installed(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_a_solve_imports_neither_scipy_nor_yaml_and_both_import_later(tmp_path):
    score, loaded, boundscheck, scipy, yaml = _run(tmp_path, "solve")
    assert score == 2 and loaded == {"numba": True, "scipy": False, "yaml": False}
    assert boundscheck is None
    assert scipy is (True if _installed("scipy") else None)
    assert yaml is (True if _installed("yaml") else None)


def test_a_numba_config_file_is_still_read(tmp_path):
    """The check above can fail: with a ``.numba_config.yaml`` there PyYAML is imported and
    the file's option reaches numba (``boundscheck: 1``), as without ``solver`` (no solve:
    the option would compile other kernel versions)."""
    (tmp_path / ".numba_config.yaml").write_text("boundscheck: 1\n", encoding="utf-8")
    _, loaded, boundscheck, _, _ = _run(tmp_path)
    assert loaded["numba"] is True
    if _installed("yaml"):
        assert loaded["yaml"] is True and boundscheck == 1
