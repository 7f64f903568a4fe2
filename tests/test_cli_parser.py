"""The parser of the ``machiavelli`` command: one add/run pair per command, shared arguments
declared once, and choices read from the code's registries (issue 10)."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from bots.app.cli import build_parser
from bots.app.commands import ADDERS
from bots.players import REGISTRY
from solver.api import BACKENDS
from solver.problem import OBJECTIVES
from solver.variants import VARIANT_NAMES

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("solve", "hint", "analyze", "selfplay", "tournament", "play", "learn", "engine",
            "serve", "replay", "demo")


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


def test_every_command_is_an_add_run_pair_in_help_order():
    subparsers = _subparsers()
    assert tuple(subparsers) == COMMANDS
    assert [add.__name__ for add in ADDERS] == [f"add_{name}" for name in COMMANDS]
    for name, parser in subparsers.items():
        run = parser.get_default("run")
        assert run.__name__ == f"run_{name}"
        add = next(add for add in ADDERS if add.__name__ == f"add_{name}")
        assert run.__module__ == add.__module__, name  # declared next to each other


@pytest.mark.parametrize(("flag", "choices"), [
    ("--backend", BACKENDS), ("--objective", OBJECTIVES), ("--color", ("auto", "always", "never")),
])
def test_choices_are_the_registries(flag, choices):
    found = {name: _option(parser, flag) for name, parser in _subparsers().items()}
    declared = {name: action.choices for name, action in found.items() if action is not None}
    assert declared, flag
    assert all(tuple(value) == tuple(choices) for value in declared.values()), declared


def test_help_names_every_variant_and_every_level():
    subparsers = _subparsers()
    for name in ("solve", "hint", "analyze"):
        variant_help = _option(subparsers[name], "--variant").help
        assert all(variant in variant_help for variant in VARIANT_NAMES), name
    for name in ("selfplay", "play"):
        bots_help = _option(subparsers[name], "--bots").help
        assert ", ".join(REGISTRY) in bots_help, name


def test_help_pages_print_as_written():
    """Descriptions are not %-formatted (``RawDescriptionHelpFormatter``): a doubled ``%%``
    written for an argument's help would print as it is."""
    for name, parser in _subparsers().items():
        assert "%%" not in parser.format_help(), name


def test_every_command_that_deals_takes_the_same_variant_and_seed_arguments():
    subparsers = _subparsers()
    for name in ("solve", "hint", "analyze", "selfplay", "tournament", "play", "learn"):
        variant = _option(subparsers[name], "--variant")
        # machiavelli by default; where --position or --resume may give the variant instead,
        # the parser's default is None (a --variant typed beside them is refused) and the help
        # names the default
        assert variant.default == "machiavelli" or (
            variant.default is None and "default machiavelli" in variant.help), name
    seeds = {name: _option(parser, "--seed") for name, parser in subparsers.items()}
    types = {action.type for action in seeds.values() if action is not None}
    assert len(types) == 1 and len([a for a in seeds.values() if a]) == 5


def test_no_function_in_bots_app_exceeds_80_lines():
    long = []
    for path in sorted((ROOT / "bots" / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 80:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {length}")
    assert not long, long
