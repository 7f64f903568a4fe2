"""Every level a game can seat: the ladder's (``bots.players``) and ``ismcts`` (OpenSpiel's).

The arena looks levels up here (docs/architecture.md: ``bots.envs`` sits between the players
and the arena), so tournaments and self-play seat ``ismcts`` beside the ladder. ``ismcts``
needs the ``rl`` extra; without it ``make_level`` raises ``MissingExtraError`` with the one
line that says how to install it.
"""

from __future__ import annotations

from bots.players import REGISTRY, Bot, make_bot
from solver.errors import InvalidArgumentError
from solver.limit import Limit

OUTSIDE = ("ismcts",)
#: Every level name: the ladder's, weakest first, then the outside ones.
LEVELS: tuple[str, ...] = (*REGISTRY, *OUTSIDE)
RL_INSTALL = "pip install 'machiavelli-engine[rl]'"


class MissingExtraError(InvalidArgumentError):
    """A level whose optional dependencies are not installed."""


def check_level(name: str) -> str:
    """``name`` normalised; ``InvalidArgumentError`` if unknown, ``MissingExtraError`` if it
    needs an extra that is not installed."""
    key = name.strip().lower()
    if key not in LEVELS:
        raise InvalidArgumentError(f"unknown bot {name!r} (choose one of {', '.join(LEVELS)})")
    if key == "ismcts":
        try:
            import open_spiel.python.algorithms.ismcts  # noqa: F401
            import pyspiel  # noqa: F401
        except ImportError:
            raise MissingExtraError("the ismcts level needs OpenSpiel (the rl extra): "
                                    f"{RL_INSTALL}") from None
    return key


def make_level(name: str, seed: int = 0, budget: float | None = None, *,
               limit: Limit | None = None) -> Bot:
    """The bot called ``name`` (any of ``LEVELS``), seeded; ``budget``/``limit`` go to the
    ladder's searching bots (``bots.players.make_bot``). ``ismcts`` plays a fixed number of
    simulations per move (``bots.envs.ismcts.SIMULATIONS``)."""
    key = check_level(name)
    if key == "ismcts":
        from bots.envs.ismcts import IsmctsBot

        return IsmctsBot(seed)
    return make_bot(key, seed, budget, limit=limit)
