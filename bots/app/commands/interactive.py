"""The commands a person uses at the terminal or a program drives over pipes: ``play``,
``learn`` and ``engine`` (the JSON-lines protocol of docs/protocol.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from bots.app.commands import COMMAND_HELP
from bots.app.commands.common import (
    DEFAULT_VARIANT,
    MAX_PLAYERS,
    VARIANT_HELP,
    UsageError,
    add_budget,
    add_colour,
    add_command,
    add_seed,
    add_symbols,
    add_variant,
    count,
    file_name,
    refuse_beside,
    variant_of,
)
from bots.players import REGISTRY

DEFAULT_BOTS = "expert"
RESUMED = ("--variant", "--bots", "--humans", "--seed", "--budget")  # what a saved game sets


def add_play(sub: Any) -> None:
    """``machiavelli play``: a game against bots (and people) in the terminal."""
    play = add_command(
        sub, "play",
        description="A game against bots (and other people at the same terminal, each hand "
                    "hidden until its owner is ready). Type 'help' in the game for commands.",
        epilog="examples:\n  machiavelli play\n"
               "  machiavelli play --variant carousel --bots expert,planner --seed 7\n"
               "  machiavelli play --humans 2 --bots greedy\n"
               "  machiavelli play --resume game.json",
    )
    # None defaults: a saved game (--resume) has its own, so these are refused beside it
    add_variant(play, help=f"{VARIANT_HELP} (default {DEFAULT_VARIANT})", default=None)
    play.add_argument("--bots", default=None,
                      help="comma-separated bot levels for the computer seats "
                           f"({', '.join(REGISTRY)}; default {DEFAULT_BOTS})")
    play.add_argument("--humans", type=count(1, MAX_PLAYERS), default=None,
                      help="people playing (default 1)")
    add_seed(play, help="seed of the deal and the bots (default: a new one, printed)",
             default=None)
    add_budget(play, help="seconds per move for the expert (default 0.5)")
    play.add_argument("--resume", metavar="FILE",
                      help="resume a game saved with 'save FILE' (with its own variant, "
                           "players, seed and budget)")
    add_symbols(play)
    add_colour(play)
    play.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    from bots.app.render import use_colour
    from bots.app.session import PERSON, Session, SessionError
    from bots.app.terminal import TerminalGame

    try:
        if args.resume is not None:
            refuse_beside(args, "--resume", RESUMED,
                          "a saved game has its own variant, players, seed and budget")
            session = Session.load(file_name(args.resume, "--resume"))
        else:
            names = DEFAULT_BOTS if args.bots is None else args.bots
            bots = [name.strip() for name in names.split(",") if name.strip()]
            humans = 1 if args.humans is None else args.humans
            seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
            session = Session(variant_of(args), [PERSON] * humans + bots, seed, args.budget)
    except SessionError as error:
        raise UsageError(str(error)) from None
    game = TerminalGame(session, use_colour(args.color), args.symbols)
    return game.run()


def add_learn(sub: Any) -> None:
    """``machiavelli learn``: a lesson on the rules on real positions, then a first game."""
    learn = add_command(
        sub, "learn",
        description="Learn the chosen variant step by step on real positions: sets, runs, "
                    "the ace rule, adding to a group, splitting a run, the rule book's worked "
                    "examples as puzzles (the solver checks each answer; 'hint' helps), then "
                    "a first game against the beginner bot.",
        epilog="examples:\n  machiavelli learn\n  machiavelli learn --variant shanghai",
    )
    add_variant(learn)
    add_seed(learn, help="seed of the first game")
    add_colour(learn)
    learn.set_defaults(run=run_learn)


def run_learn(args: argparse.Namespace) -> int:
    from bots.app.lessons import Lesson
    from bots.app.render import use_colour
    from solver.variants import Variant

    return Lesson(Variant.parse(args.variant), args.seed, use_colour(args.color)).run()


def add_engine(sub: Any) -> None:
    """``machiavelli engine``: the JSON-lines engine protocol on stdin/stdout."""
    engine = sub.add_parser(
        "engine", help=COMMAND_HELP["engine"],
        description="Read one JSON request per line on stdin and answer each with one JSON "
                    "line on stdout: set a position or start a game, ask for a level's move, "
                    "a hint or an analysis. See docs/protocol.md.",
    )
    engine.set_defaults(run=run_engine)


def run_engine(args: argparse.Namespace) -> int:
    from bots.app.protocol import Engine
    from bots.arena.heap import freeze_loaded
    from solver.api import warm_up

    warm_up("kernel")  # load the compiled kernel now, so that no move's budget pays for it
    freeze_loaded()  # and keep the collector's full passes off what it loaded (bots.arena.heap)
    return Engine(sys.stdin.buffer, sys.stdout).run()
