r"""The ``machiavelli`` command.

Examples::

    machiavelli demo
    machiavelli play --bots expert,planner
    machiavelli learn
    machiavelli hint --table "5C 6C 7C 8C" --hand "8D 8H"
    machiavelli analyze --table "10H 10D 10S | JH JD JS" --hand "9S QD 2C"
    machiavelli solve --table "5C 6C 7C 8C" --hand "8D 8H"
    machiavelli solve --variant shanghai --table "AS 2S 3S | 7H 7D 7C" --hand "4S 7S" --json
    machiavelli solve --variant machiavelli:opening=36 --unopened --table - \
        --hand "KS KH KD QS QH QD"

Bad input (an unknown card, too many copies, an invalid table, an unknown variant or option)
prints one line on stderr and exits with status 2. ``machiavelli --version`` prints the
installed package's version.

Each subcommand is an ``add_<command>``/``run_<command>`` pair in ``bots.app.commands``; this
module builds the parser from them and turns errors into exit statuses. ``main`` declares in
full only the command it runs (the others by name and help, for ``machiavelli --help`` and
argparse's messages), so that a fresh ``machiavelli solve`` imports what solving needs only.
"""

from __future__ import annotations

import argparse
import atexit
import logging
import os
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import NoReturn

from bots.app.commands import COMMANDS, adder
from bots.app.commands.common import EXIT_INTERNAL, Parser, UsageError
from solver.errors import PositionError, SolverError, clip

EXIT_BAD_INPUT = 2
MESSAGE_LIMIT = 300  # an error line never gets longer than this

__all__ = ["ALL_COMMANDS", "EXIT_BAD_INPUT", "EXIT_INTERNAL", "UsageError", "build_parser",
           "command_in", "entry_point", "main"]


ALL_COMMANDS = "*"


def build_parser(command: str = ALL_COMMANDS) -> argparse.ArgumentParser:
    """The ``machiavelli`` parser: one subcommand per ``bots.app.commands`` adder. Only
    ``command``'s adder runs (every adder by default); the other commands are declared by name
    and help alone, which is all ``machiavelli --help`` and argparse's errors show of them."""
    parser = Parser(
        prog="machiavelli",
        description="Move solver and computer opponents for Machiavelli and its family.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("Examples::", 1)[1].split("Bad input", 1)[0].rstrip(),
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, _, summary in COMMANDS:
        if command in (ALL_COMMANDS, name):
            adder(name)(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


PACKAGE = "machiavelli-engine"


def package_version() -> str:
    """The installed package's version (its metadata), else ``bots.__version__`` if the
    package has one, else 'unknown'."""
    from importlib import metadata

    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        import bots

        return str(getattr(bots, "__version__", "unknown"))


class VersionAction(argparse.Action):
    """--version: print 'machiavelli VERSION' and exit, the version read only then (the
    package metadata is not looked up on every run)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def command_in(argv: Sequence[str]) -> str:
    """The command ``argv`` names: its first argument that is not an option (the top-level
    parser has no option taking a value), or '' for none."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    try:
        arguments = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(command_in(arguments)).parse_args(arguments)
        return args.run(args)
    except (UsageError, PositionError) as error:
        print(f"machiavelli: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecursionError:
        print("machiavelli: error: input nested too deeply", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SolverError as error:
        if os.environ.get("MACHIAVELLI_DEBUG"):
            traceback.print_exc()
        print(f"machiavelli: internal error (please report): {error}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("machiavelli: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _one_line(error: Exception) -> str:
    """The error's message on one line, clipped: never an echo of a whole input."""
    return clip(" ".join(str(error).split()), MESSAGE_LIMIT)


ONE_SHOT_COMMANDS = frozenset({"solve", "hint", "analyze", "demo"})
"""Commands that answer and end, writing only to stdout and stderr: they end the process
without Python's teardown (``exit_without_teardown``)."""


def entry_point() -> None:
    """Console-script entry: exit with ``main()``'s status. A ``solve`` is then the process's
    only work, so it loads the kernels of a solve alone (``solver.warmup.solves_only``)."""
    command = command_in(sys.argv[1:])
    show_compile_notice()
    if command == "solve":
        from solver.warmup import solves_only

        solves_only()
    status = main()
    if command in ONE_SHOT_COMMANDS:
        exit_without_teardown(status)
    sys.exit(status)


def show_compile_notice() -> None:
    """Show on stderr the solver's one-time notice that numba is compiling its kernels
    (``solver.compile_notice``): minutes after an install or an upgrade, in which a command
    would otherwise print nothing and look hung."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("machiavelli: %(message)s"))
    logger = logging.getLogger("solver.compile")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def exit_without_teardown(status: int) -> NoReturn:
    """End the process with ``status`` once the command is done, without Python's teardown.

    Freeing every module and object of a process that has loaded numba and llvmlite was about
    a sixth of a fresh ``machiavelli solve``'s CPU time (70-80 ms of 0.43 s, measured side by
    side on 2026-12-01), work whose result nobody sees. What an exit must still do is done
    first: the output is flushed and the ``atexit`` functions run (the standard library's
    temporary directories, multiprocessing and logging clean up there). With another thread
    still running, or without ``atexit._run_exitfuncs``, the process exits the usual way, which
    waits for it.
    """
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if threading.active_count() > 1 or run_exit_functions is None:
        sys.exit(status)
    _flush_output()
    run_exit_functions()
    _flush_output()
    os._exit(status)


def _flush_output() -> None:
    """Flush stdout and stderr; a reader that has gone away (a closed pipe) is no error."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
            pass


if __name__ == "__main__":
    entry_point()
