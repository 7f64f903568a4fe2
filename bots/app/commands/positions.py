"""The commands that study one position: ``solve``, ``hint``, ``analyze``, and ``demo`` (the
rule book's worked examples, docs/rules.md §9, solved one after the other)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bots.app.commands import COMMAND_HELP
from bots.app.commands.common import (
    UsageError,
    add_backend,
    add_colour,
    add_command,
    add_objective,
    add_output_arguments,
    add_position_arguments,
    add_seed,
    count,
    position_of,
    progress,
    seconds,
)
from solver.analysis import MOST_PLAYS
from solver.errors import clip

MAX_ROLLOUTS = 1_000_000


def add_solve(sub: Any) -> None:
    """``machiavelli solve``: the best play for a hand on a table."""
    solve = add_command(
        sub, "solve",
        description="Print the play that adds the most hand cards (or points) to the table, "
                    "and the whole new table.",
        epilog='example:\n  machiavelli solve --table "5C 6C 7C 8C" --hand "8D 8H"',
    )
    add_position_arguments(solve)
    add_objective(solve, help="maximize cards played (default) or their points")
    add_backend(solve, help="auto (the numba kernel), kernel, or cpsat (OR-Tools)")
    solve.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                       help="stop after S seconds with the best play so far")
    add_output_arguments(solve)
    solve.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    from solver.api import backend_for, solve_position
    from solver.warmup import load_cpsat

    position = position_of(args)
    # OR-Tools' loading is not part of the solve's time, nor its time limit's; numba's kernels
    # are loaded by solve_position before its clock (the opening's, when needed, as set-up)
    if backend_for(position, args.objective, args.backend) == "cpsat":
        load_cpsat()
    solution = solve_position(position, objective=args.objective, backend=args.backend,
                              time_limit=args.time_limit)
    if args.json:
        print(json.dumps(solution.to_json()))
        return 0
    print_solution(solution, args.color, args.symbols)
    return 0


def add_hint(sub: Any) -> None:
    """``machiavelli hint``: the best play that disturbs the table least, as steps."""
    hint = add_command(
        sub, "hint",
        description="Among the best plays, the one that changes the fewest table groups "
                    "(then picks up the fewest table cards), told as steps to follow.",
        epilog='example:\n  machiavelli hint --table "5C 6C 7C 8C | 9H 9D 9S" --hand "8D 8H"',
    )
    add_position_arguments(hint)
    add_objective(hint)
    hint.add_argument("--short", action="store_true",
                      help="only the short form: one playable card, the groups changed, and "
                           "whether it needs a rearrangement")
    add_output_arguments(hint)
    hint.set_defaults(run=run_hint)


def run_hint(args: argparse.Namespace) -> int:
    from bots.app.render import table_lines, use_colour
    from solver.hint import hint_position

    result = hint_position(position_of(args), args.objective)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    if args.short:
        print(result.short())
        return 0
    colour = use_colour(args.color)
    position = result.solution.position
    if result.solution.played and position is not None and position.table:
        print("Table (groups numbered as in the steps; * = changed):")
        marks = [i + 1 in result.changed_groups for i in range(len(position.table))]
        for line in table_lines(position.table, marks, colour, args.symbols):
            print(line)
    print(result)
    if result.solution.played:
        print("New table (* = new or changed group):")
        for line in table_lines(result.solution.table, result.solution.changed, colour,
                                args.symbols):
            print(line)
    return 0


def add_analyze(sub: Any) -> None:
    """``machiavelli analyze``: best values, every best play, outs, stuck cards, chances."""
    analyze = add_command(
        sub, "analyze",
        description="Analyze a position: the best value under cards and points, every "
                    "distinct best play, whether the hand goes out, what each unseen card "
                    "would add (outs), why a card cannot be placed, and optionally the "
                    "expert's winning chances by rollouts.",
        epilog='examples:\n  machiavelli analyze --table "10H 10D 10S | JH JD JS" '
               '--hand "9S QD 2C"\n'
               '  machiavelli analyze --table "5C 6C 7C" --hand "8C 2D 9H" --unseen "4C 2S 9C"\n'
               '  machiavelli analyze --table "5C 6C 7C" --hand "8C 2D 9H" --rollouts 200 '
               '--opponents 9,12',
    )
    add_position_arguments(analyze)
    analyze.add_argument("--unseen", metavar="CARDS",
                         help="cards whose outs to compute (default: every card not seen)")
    analyze.add_argument("--max-plays", type=count(1, MOST_PLAYS), default=20, metavar="N",
                         help="list at most N distinct best plays (default 20)")
    analyze.add_argument("--rollouts", type=count(0, MAX_ROLLOUTS), default=0, metavar="N",
                         help="estimate the expert's winning chances with N rollouts")
    analyze.add_argument("--opponents", default="13", metavar="SIZES",
                         help="opponents' hand sizes for --rollouts, e.g. 9,12 (default 13)")
    add_seed(analyze, help="seed of the rollouts")
    add_output_arguments(analyze)
    analyze.set_defaults(run=run_analyze)


def run_analyze(args: argparse.Namespace) -> int:
    from solver.analysis import analyze
    from solver.cards import parse_cards

    position = position_of(args)
    unseen = parse_cards(args.unseen) if args.unseen is not None else None
    result = analyze(position, unseen=unseen, max_plays=args.max_plays)
    chance = _win_chance(args, position) if args.rollouts else None
    if args.json:
        data = result.to_json()
        if chance is not None:
            data["win_chance"] = chance.to_json()
        print(json.dumps(data))
        return 0
    for line in result.lines():
        print(line)
    if chance is not None:
        print(chance)
    return 0


def _win_chance(args: argparse.Namespace, position: Any) -> Any:
    """The expert's winning chances by ``--rollouts`` against ``--opponents``' hand sizes."""
    from bots.players.estimate import win_chance

    try:
        opponents = [int(size) for size in args.opponents.split(",")]
    except ValueError:
        raise UsageError(f"bad --opponents {clip(args.opponents)!r}: hand sizes like 9,12") \
            from None
    return win_chance(position, opponents, args.rollouts, args.seed,
                      None if args.json else progress)


def print_solution(solution: Any, colour_choice: str = "auto", symbols: bool = False) -> None:
    """A solution as text: the cards played, its value, and the new table."""
    from bots.app.render import cards_text, table_lines, use_colour

    colour = use_colour(colour_choice)
    status = "optimal" if solution.optimal else "best found, not proved optimal"
    timing = f"{solution.backend}, {solution.elapsed_ms:.1f} ms"
    if solution.played:
        count = len(solution.played)
        print(f"Play {count} card{'s' if count > 1 else ''}: "
              f"{cards_text(solution.played, colour, symbols)}   "
              f"({solution.objective} {solution.score}, {status}; {timing})")
        print("New table (* = new or changed group):")
    else:
        print(f"No card can be played ({status}; {timing}). The table stays:")
    for line in table_lines(solution.table, solution.changed if solution.played else None,
                            colour, symbols):
        print(line)


DEMO_POSITIONS = (
    ("docs/rules.md §9.1: add to a set by splitting a run", "5C 6C 7C 8C", "8D 8H"),
    ("docs/rules.md §9.1: same hand, shorter run: nothing fits", "6C 7C 8C", "8D 8H"),
    ("docs/rules.md §9.2: three sets become three runs (ace high)",
     "KH KD KC | QH QD QC | JH JD JC", "AC"),
    ("docs/rules.md §9.3: 9S alone cannot be placed ...", "10H 10D 10S | JH JD JS | QH QD QC",
     "9S"),
    ("docs/rules.md §9.3: ... but with QD QS all three go", "10H 10D 10S | JH JD JS | QH QD QC",
     "9S QD QS"),
    ("docs/rules.md §9.4: all six cards (seed 002)", "3C 4C 5C 6C | QH QD QS",
     "5C 7C 8C QC JH KH"),
)


def add_demo(sub: Any) -> None:
    """``machiavelli demo``: the rule book's worked examples, solved."""
    demo = sub.add_parser("demo", help=COMMAND_HELP["demo"])
    add_backend(demo)
    add_colour(demo)
    demo.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from bots.app.render import cards_text, table_lines, use_colour
    from solver.api import solve, warm_up
    from solver.cards import parse_cards, parse_groups

    colour = use_colour(args.color)
    warm_up(args.backend)
    for title, table, hand in DEMO_POSITIONS:
        print(f"== {title}")
        print("Table:")
        for line in table_lines(parse_groups(table), colour=colour):
            print(line)
        print(f"Hand: {cards_text(parse_cards(hand), colour)}")
        print_solution(solve(table, hand, backend=args.backend), args.color)
        print()
    print('Try your own: machiavelli solve --table "5C 6C 7C 8C" --hand "8D 8H"')
    return 0
