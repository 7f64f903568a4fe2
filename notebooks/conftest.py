"""Notebooks that need the ``rl`` extra (sb3-contrib, torch, gymnasium) are collected only
where it is installed: CI runs them in a step of its own (.ci/run, docs/environments.md)."""

from importlib.util import find_spec

collect_ignore = [] if all(find_spec(name) for name in ("sb3_contrib", "torch", "gymnasium")) \
    else ["rl.ipynb"]
