"""What the wheel holds (issue 9, item 6): every package and subpackage, and the py.typed
markers. `.ci/wheel_smoke.sh` builds and installs the real wheel; this checks the settings that
decide its contents in a second."""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL = ("solver", "bots")


def settings() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_package_discovery_finds_every_package_and_nothing_else():
    find = settings()["packages"]["find"]
    found = set(find_packages(str(ROOT), include=find["include"], exclude=find["exclude"]))
    on_disk = {".".join(init.parent.relative_to(ROOT).parts)
               for name in TOP_LEVEL for init in (ROOT / name).rglob("__init__.py")}
    assert "bots.players" in on_disk
    assert found == on_disk


def test_every_top_level_package_ships_py_typed():
    package_data = settings()["package-data"]
    for name in TOP_LEVEL:
        assert (ROOT / name / "py.typed").exists(), name
        assert "py.typed" in package_data[name], name
