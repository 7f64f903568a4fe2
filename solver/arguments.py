"""Checks for the public functions' plain arguments: seconds, counts, seeds, flags, choices.

Every public entry point (``solve``, ``hint``, ``analyze``, the bots, the CLI's numeric
options) checks its arguments once, at the top, with these, so that a wrong type or an out of
range value raises an ``InvalidArgumentError`` (a ``ValueError``) naming the argument, instead
of a ``TypeError`` or an ``OverflowError`` from deep inside, or a silent misreading
(``opened="no"`` is not true).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from solver.errors import InvalidArgumentError, clip

MAX_SECONDS = 24 * 3600.0  # a time limit or budget beyond a day is a typo, not a wish
MAX_SEED = 2**63 - 1  # numpy seeds are unsigned; records and JSON keep 64-bit integers


def _shown(value: Any) -> str:
    return clip(repr(value))


def seconds(name: str, value: Any, optional: bool = True) -> float | None:
    """A positive, finite number of seconds (at most a day), or None when ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"{name} must be a number of seconds, not {_shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not (math.isfinite(number) and 0 < number <= MAX_SECONDS):
        raise InvalidArgumentError(
            f"{name} must be a positive number of seconds up to {MAX_SECONDS:.0f}, "
            f"not {_shown(value)}")
    return number


def integer(name: str, value: Any, low: int, high: int) -> int:
    """An ``int`` (not a bool) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{name} must be an integer, not {_shown(value)}")
    if not low <= value <= high:
        raise InvalidArgumentError(f"{name} must be between {low} and {high}, not "
                                   f"{_shown(value)}")
    return value


def seed(name: str, value: Any) -> int:
    """A seed: an integer in ``0..2**63-1``."""
    return integer(name, value, 0, MAX_SEED)


def flag(name: str, value: Any) -> bool:
    """A real ``bool`` (``"no"`` or ``0`` would be read as a truth value otherwise)."""
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be True or False, not {_shown(value)}")
    return value


def choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """One of ``choices`` (strings)."""
    allowed = tuple(choices)
    if not isinstance(value, str) or value not in allowed:
        raise InvalidArgumentError(f"unknown {name} {_shown(value)} "
                                   f"(choose {', '.join(allowed)})")
    return value


def instance(name: str, value: Any, kind: type) -> Any:
    """``value`` if it is a ``kind``."""
    if not isinstance(value, kind):
        raise InvalidArgumentError(f"{name} must be a {kind.__name__}, not {_shown(value)}")
    return value
