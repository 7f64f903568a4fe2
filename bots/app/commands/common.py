"""What the ``machiavelli`` subcommands share: the usage error, the argument types, and the
arguments several commands declare (position, variant, seed, budget, output flags).

An option that another one can override (``--variant`` beside ``--position``, ``--seed`` beside
``--resume``) is declared with the default None, so that ``refuse_beside`` can tell an option
the user typed from one left out; the command fills in the default itself.

Each shared argument is declared here once, so that its name, type, default and help read the
same in every command; the choices come from the code's own registries (``BACKENDS``,
``OBJECTIVES``, ``VARIANT_NAMES``), never from a list typed by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO, Any

from bots.app.commands import COMMAND_HELP
from solver import arguments
from solver.api import BACKENDS
from solver.arguments import MAX_SECONDS, MAX_SEED
from solver.errors import cannot, clip
from solver.position import Position
from solver.problem import OBJECTIVES
from solver.variants import VARIANT_NAMES

EXIT_INTERNAL = 3  # the exit status of a failure that is not the input's fault
MAX_PLAYERS = 99  # a bound for parsing; each variant then checks its own range
COLOUR_CHOICES = ("auto", "always", "never")
VARIANT_HELP = "variant[:option=value,...]"
DEFAULT_VARIANT = "machiavelli"


class UsageError(Exception):
    """A command-line usage mistake (reported on one line, status 2)."""


class Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as one line instead of usage + message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def add_command(sub: Any, name: str, **settings: Any) -> argparse.ArgumentParser:
    """A subcommand's parser whose description and epilog are printed as written, with its
    one-line help from ``bots.app.commands.COMMANDS``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=COMMAND_HELP[name], formatter_class=argparse.RawDescriptionHelpFormatter,
        **settings)
    return parser


# argparse types: each turns a bad value into argparse's one-line usage error


def count(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {clip(text)!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{clip(text)} is not in {low}..{high}")
        return number

    return parse


def seed(text: str) -> int:
    """An argparse type: a seed, 0..2**63-1."""
    return count(0, MAX_SEED)(text)


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (at most a day)."""
    try:
        number = arguments.seconds("the value", float(text), optional=False)
    except ValueError:
        number = None
    if number is None:
        raise argparse.ArgumentTypeError(
            f"{clip(text)!r} is not a positive number of seconds up to {MAX_SECONDS:.0f}")
    return number


# arguments several commands declare


def add_variant(parser: argparse.ArgumentParser, help: str = VARIANT_HELP,
                default: str | None = DEFAULT_VARIANT) -> None:
    """--variant NAME[:option=value,...], default machiavelli (None where another option can
    give the variant: ``variant_of`` then reads it)."""
    parser.add_argument("--variant", default=default, help=help)


def variant_of(args: argparse.Namespace) -> str:
    """The --variant given, or the default one (machiavelli)."""
    return DEFAULT_VARIANT if args.variant is None else str(args.variant)


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """--variant, --table, --hand, --position, --unopened: a position to solve or study."""
    add_variant(parser, help=f"{VARIANT_HELP}, e.g. machiavelli:ace=low "
                             f"(variants: {', '.join(VARIANT_NAMES)}; default {DEFAULT_VARIANT})",
                default=None)
    parser.add_argument("--table",
                        help='groups separated by "|", cards by spaces: "5C 6C 7C | 8S 8D 8H" '
                             '("-" for an empty table)')
    parser.add_argument("--hand", help='cards separated by spaces: "8D 8H"')
    parser.add_argument("--position", metavar="TEXT",
                        help="a whole position instead of --table/--hand/--variant/--unopened: "
                             '"5C 6C 7C 8C / 8D 8H / machiavelli" or its JSON form')
    parser.add_argument("--unopened", action="store_true", default=None,
                        help="the player has not made the variant's opening play yet")


def refuse_beside(args: argparse.Namespace, option: str, others: Sequence[str],
                  why: str) -> None:
    """Refuse the ``others`` the user gave beside ``option``, which gives what they would
    (``why`` says so): 'give either --position or --variant, not both (...)'. An option counts
    as given when its value is not None."""
    given = [other for other in others
             if getattr(args, other.removeprefix("--").replace("-", "_")) is not None]
    if given:
        named = given[-1] if len(given) == 1 else f"{', '.join(given[:-1])} and {given[-1]}"
        raise UsageError(f"give either {option} or {named}, not both ({why})")


def add_objective(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """--objective, one of ``solver.problem.OBJECTIVES`` (default cards)."""
    parser.add_argument("--objective", choices=OBJECTIVES, default="cards", help=help)


def add_backend(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """--backend, one of ``solver.api.BACKENDS`` (default auto)."""
    parser.add_argument("--backend", choices=BACKENDS, default="auto", help=help)


def add_seed(parser: argparse.ArgumentParser, help: str | None = None,
             default: int | None = 0) -> None:
    """--seed, 0..2**63-1."""
    parser.add_argument("--seed", type=seed, default=default, help=help)


def add_budget(parser: argparse.ArgumentParser, help: str) -> None:
    """--budget S: seconds per move for the bots that search."""
    parser.add_argument("--budget", type=seconds, default=None, metavar="S", help=help)


def add_players(parser: argparse.ArgumentParser, default: int, help: str | None = None) -> None:
    """--players N, checked against the variant's range later."""
    parser.add_argument("--players", type=count(1, MAX_PLAYERS), default=default, help=help)


def add_json(parser: argparse.ArgumentParser) -> None:
    """--json: print one JSON object instead of text."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_symbols(parser: argparse.ArgumentParser) -> None:
    """--symbols: suits as symbols."""
    parser.add_argument("--symbols", action="store_true", help="print suits as ♠ ♥ ♦ ♣")


def add_colour(parser: argparse.ArgumentParser) -> None:
    """--color auto|always|never."""
    parser.add_argument("--color", choices=COLOUR_CHOICES, default="auto")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """--json, --symbols, --color: how a position command prints its answer."""
    add_json(parser)
    add_symbols(parser)
    add_colour(parser)


def position_of(args: argparse.Namespace) -> Position:
    """The position given by --position, or by --table, --hand, --variant, --unopened."""
    if args.position is not None:
        refuse_beside(args, "--position", ("--table", "--hand", "--variant", "--unopened"),
                      "a position has its own table, hand, variant and opening")
        text = args.position.strip()
        return Position.from_json(text) if text.startswith("{") else Position.parse(text)
    if args.table is None or args.hand is None:
        raise UsageError(f"{args.command} needs --table and --hand (or --position)")
    return Position.make(args.table, args.hand, variant_of(args), not args.unopened)


def file_name(path: str, option: str) -> str:
    """``path`` as given to ``option``: an empty one is a usage error, not the current
    directory or no file at all."""
    if not path:
        raise UsageError(f"{option} needs a file name, not ''")
    return path


class OutputFile:
    """A text file an option names (``--record FILE``), open for writing. An empty name, or a
    file that cannot be opened or written (a missing directory, a directory, no permission, a
    full disk) is a usage error, 'cannot write PATH: reason': one line and status 2."""

    def __init__(self, path: str, option: str) -> None:
        self.path = file_name(path, option)
        try:
            self.file: IO[str] = open(path, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise self._cannot(error) from None

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as error:
            raise self._cannot(error) from None

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        """Close the file; a failure to write out its last lines is reported unless the
        command already failed otherwise."""
        try:
            self.file.close()
        except OSError as failure:
            if error is None:
                raise self._cannot(failure) from None

    def _cannot(self, error: OSError) -> UsageError:
        return UsageError(cannot(f"write {self.path}", error))


def progress(done: int, total: int) -> None:
    """A one-line progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end=end,
          file=sys.stderr, flush=True)
