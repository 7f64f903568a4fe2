"""The ``machiavelli`` subcommands, one ``add_<command>``/``run_<command>`` pair each.

``add_<command>(sub)`` declares the subcommand and its arguments (the shared ones come from
``common``) and sets ``run`` to its ``run_<command>(args)``, which returns the exit status.
``COMMANDS`` lists them in the order ``machiavelli --help`` shows them, each with the module
that declares it and its one-line help; ``adder(name)`` imports only that module, so that a
fresh ``machiavelli solve`` loads neither the bots, the web server nor OR-Tools. ``ADDERS``
(every adder, in that order) imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

COMMANDS = (  # (name, module in bots.app.commands, one-line help)
    ("solve", "positions", "best play for a hand on a table"),
    ("hint", "positions", "the best play that disturbs the table least, as steps"),
    ("analyze", "positions", "best values, every best play, outs, stuck cards, winning chances"),
    ("selfplay", "games", "bots against bots, with game records"),
    ("tournament", "games", "bots against each other: win rates, ratings, move times"),
    ("play", "interactive", "play against the computer in the terminal"),
    ("learn", "interactive", "a short lesson on the rules, then a first game"),
    ("engine", "interactive", "the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)"),
    ("serve", "serving", "play in the browser: a web server with the table page"),
    ("replay", "games", "check game records against the referee"),
    ("demo", "positions", "solve the rule book's worked examples and show them"),
)
COMMAND_HELP = {name: help for name, _, help in COMMANDS}


def adder(name: str) -> Callable[[Any], None]:
    """``add_<name>`` of command ``name``, importing the one module that declares it."""
    module = next(module for command, module, _ in COMMANDS if command == name)
    add: Callable[[Any], None] = getattr(
        importlib.import_module(f"bots.app.commands.{module}"), f"add_{name}")
    return add


def __getattr__(name: str) -> Any:
    """``ADDERS``: every command's adder in help order (imports every command module)."""
    if name == "ADDERS":
        return tuple(adder(command) for command, _, _ in COMMANDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ADDERS", "COMMANDS", "COMMAND_HELP", "adder"]
