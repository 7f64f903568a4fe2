"""The ``machiavelli`` command.

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
prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from solver import arguments
from solver.arguments import MAX_SECONDS, MAX_SEED
from solver.errors import PositionError, SolverError, clip
from solver.variants import VARIANT_NAMES

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
MAX_PLAYERS = 99  # a bound for parsing; each variant then checks its own range
MAX_GAMES = 10_000_000
MAX_WORKERS = 64
MAX_ROLLOUTS = 1_000_000
MOST_PLAYS = 10_000
MESSAGE_LIMIT = 300  # an error line never gets longer than this


class UsageError(Exception):
    """A command-line usage mistake (reported on one line, status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as one line instead of usage + message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="machiavelli",
        description="Move solver and computer opponents for Machiavelli and its family.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("Examples::", 1)[1].split("Bad input", 1)[0].rstrip(),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    solve = sub.add_parser(
        "solve", help="best play for a hand on a table",
        description="Print the play that adds the most hand cards (or points) to the table, "
                    "and the whole new table.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='example:\n  machiavelli solve --table "5C 6C 7C 8C" --hand "8D 8H"',
    )
    _position_arguments(solve)
    solve.add_argument("--objective", choices=("cards", "points"), default="cards",
                       help="maximize cards played (default) or their points")
    solve.add_argument("--backend", choices=("auto", "kernel", "cpsat"), default="auto",
                       help="auto (the numba kernel), kernel, or cpsat (OR-Tools)")
    solve.add_argument("--time-limit", type=_seconds, default=None, metavar="S",
                       help="stop after S seconds with the best play so far")
    _output_arguments(solve)
    solve.set_defaults(run=_cmd_solve)

    hint = sub.add_parser(
        "hint", help="the best play that disturbs the table least, as steps",
        description="Among the best plays, the one that changes the fewest table groups "
                    "(then picks up the fewest table cards), told as steps to follow.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='example:\n  machiavelli hint --table "5C 6C 7C 8C | 9H 9D 9S" --hand "8D 8H"',
    )
    _position_arguments(hint)
    hint.add_argument("--objective", choices=("cards", "points"), default="cards")
    hint.add_argument("--short", action="store_true",
                      help="only the short form: one playable card, the groups changed, and "
                           "whether it needs a rearrangement")
    _output_arguments(hint)
    hint.set_defaults(run=_cmd_hint)

    analyze = sub.add_parser(
        "analyze", help="best values, every best play, outs, stuck cards, winning chances",
        description="Analyze a position: the best value under cards and points, every "
                    "distinct best play, whether the hand goes out, what each unseen card "
                    "would add (outs), why a card cannot be placed, and optionally the "
                    "expert's winning chances by rollouts.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='examples:\n  machiavelli analyze --table "10H 10D 10S | JH JD JS" '
               '--hand "9S QD 2C"\n'
               '  machiavelli analyze --table "5C 6C 7C" --hand "8C 2D 9H" --unseen "4C 2S 9C"\n'
               '  machiavelli analyze --table "5C 6C 7C" --hand "8C 2D 9H" --rollouts 200 '
               '--opponents 9,12',
    )
    _position_arguments(analyze)
    analyze.add_argument("--unseen", metavar="CARDS",
                         help="cards whose outs to compute (default: every card not seen)")
    analyze.add_argument("--max-plays", type=_count(1, MOST_PLAYS), default=20, metavar="N",
                         help="list at most N distinct best plays (default 20)")
    analyze.add_argument("--rollouts", type=_count(0, MAX_ROLLOUTS), default=0, metavar="N",
                         help="estimate the expert's winning chances with N rollouts")
    analyze.add_argument("--opponents", default="13", metavar="SIZES",
                         help="opponents' hand sizes for --rollouts, e.g. 9,12 (default 13)")
    analyze.add_argument("--seed", type=_seed, default=0, help="seed of the rollouts")
    _output_arguments(analyze)
    analyze.set_defaults(run=_cmd_analyze)

    selfplay = sub.add_parser(
        "selfplay", help="bots against bots, with game records",
        description="Play seeded games between bots through the referee. Game i uses seed "
                    "SEED + i; the same seed gives the same record, byte for byte.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  machiavelli selfplay --variant carousel --players 3 "
               "--bots random,greedy --games 20 --seed 1 --record games.jsonl",
    )
    selfplay.add_argument("--variant", default="machiavelli", help="variant[:option=value,...]")
    selfplay.add_argument("--players", type=_count(1, MAX_PLAYERS), default=2,
                          help="players per game (default 2)")
    selfplay.add_argument("--bots", default="greedy",
                          help="comma-separated bots, cycled over the seats (random, beginner, "
                               "greedy, planner, expert)")
    selfplay.add_argument("--games", type=_count(1, MAX_GAMES), default=10,
                          help="games to play (default 10)")
    selfplay.add_argument("--seed", type=_seed, default=0, help="seed of the first game")
    selfplay.add_argument("--record", metavar="FILE",
                          help="write one JSON record per game to FILE (.jsonl)")
    selfplay.add_argument("--check", action="store_true",
                          help="verify the referee's invariants after every action")
    selfplay.set_defaults(run=_cmd_selfplay)

    tournament = sub.add_parser(
        "tournament", help="bots against each other: win rates, ratings, move times",
        description="Play seat-rotated games between bots (game g uses seed SEED + g) and "
                    "report per bot: games, wins, win rate with its 95%% interval, mean "
                    "score, OpenSkill rating and move times.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  machiavelli tournament --bots greedy,planner --games 200\n"
               "  machiavelli tournament --variant carousel --players 4 "
               "--bots beginner,greedy,planner,expert --games 100 --workers 2 --json",
    )
    tournament.add_argument("--variant", default="machiavelli",
                            help="variant[:option=value,...]")
    tournament.add_argument("--bots", required=True, help="comma-separated bots")
    tournament.add_argument("--games", type=_count(1, MAX_GAMES), default=100)
    tournament.add_argument("--players", type=_count(1, MAX_PLAYERS), default=2)
    tournament.add_argument("--seed", type=_seed, default=0)
    tournament.add_argument("--workers", type=_count(1, MAX_WORKERS), default=1,
                            help=f"parallel processes (default 1, at most {MAX_WORKERS})")
    tournament.add_argument("--budget", type=_seconds, default=None, metavar="S",
                            help="seconds per move for the searching bots (expert)")
    tournament.add_argument("--ray", metavar="ADDRESS", default=None,
                            help="run the games on a Ray cluster ('local' starts one here)")
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.set_defaults(run=_cmd_tournament)

    play = sub.add_parser(
        "play", help="play against the computer in the terminal",
        description="A game against bots (and other people at the same terminal, each hand "
                    "hidden until its owner is ready). Type 'help' in the game for commands.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  machiavelli play\n"
               "  machiavelli play --variant carousel --bots expert,planner --seed 7\n"
               "  machiavelli play --humans 2 --bots greedy\n"
               "  machiavelli play --resume game.json",
    )
    play.add_argument("--variant", default="machiavelli", help="variant[:option=value,...]")
    play.add_argument("--bots", default="expert",
                      help="comma-separated bot levels for the computer seats "
                           "(random, beginner, greedy, planner, expert; default expert)")
    play.add_argument("--humans", type=_count(1, MAX_PLAYERS), default=1,
                      help="people playing (default 1)")
    play.add_argument("--seed", type=_seed, default=None,
                      help="seed of the deal and the bots (default: a new one, printed)")
    play.add_argument("--budget", type=_seconds, default=None, metavar="S",
                      help="seconds per move for the expert (default 0.5)")
    play.add_argument("--resume", metavar="FILE", help="resume a game saved with 'save FILE'")
    play.add_argument("--symbols", action="store_true", help="print suits as ♠ ♥ ♦ ♣")
    play.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    play.set_defaults(run=_cmd_play)

    learn = sub.add_parser(
        "learn", help="a short lesson on the rules, then a first game",
        description="Learn the chosen variant step by step on real positions: sets, runs, "
                    "the ace rule, adding to a group, splitting a run, the rule book's worked "
                    "examples as puzzles (the solver checks each answer; 'hint' helps), then "
                    "a first game against the beginner bot.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  machiavelli learn\n  machiavelli learn --variant shanghai",
    )
    learn.add_argument("--variant", default="machiavelli", help="variant[:option=value,...]")
    learn.add_argument("--seed", type=_seed, default=0, help="seed of the first game")
    learn.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    learn.set_defaults(run=_cmd_learn)

    engine = sub.add_parser(
        "engine", help="the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)",
        description="Read one JSON request per line on stdin and answer each with one JSON "
                    "line on stdout: set a position or start a game, ask for a level's move, "
                    "a hint or an analysis. See docs/protocol.md.",
    )
    engine.set_defaults(run=_cmd_engine)

    replay = sub.add_parser("replay", help="check game records against the referee",
                            description="Replay every record of FILE through the referee, "
                                        "step by step, and report the first inconsistency.")
    replay.add_argument("file", metavar="FILE", help="a .jsonl file of game records")
    replay.set_defaults(run=_cmd_replay)

    demo = sub.add_parser("demo", help="solve the rule book's worked examples and show them")
    demo.add_argument("--backend", choices=("auto", "kernel", "cpsat"), default="auto")
    demo.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    demo.set_defaults(run=_cmd_demo)
    return parser


def _count(low: int, high: int) -> Callable[[str], int]:
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


def _seed(text: str) -> int:
    """An argparse type: a seed, 0..2**63-1."""
    return _count(0, MAX_SEED)(text)


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (at most a day)."""
    try:
        return arguments.seconds("the value", float(text), optional=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{clip(text)!r} is not a positive number of seconds up to {MAX_SECONDS:.0f}"
        ) from None


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="machiavelli",
                        help="variant[:option=value,...], e.g. machiavelli:ace=low "
                             f"(variants: {', '.join(VARIANT_NAMES)}; default machiavelli)")
    parser.add_argument("--table",
                        help='groups separated by "|", cards by spaces: "5C 6C 7C | 8S 8D 8H" '
                             '("-" for an empty table)')
    parser.add_argument("--hand", help='cards separated by spaces: "8D 8H"')
    parser.add_argument("--position", metavar="TEXT",
                        help='a whole position instead of --table/--hand/--variant: '
                             '"5C 6C 7C 8C / 8D 8H / machiavelli" or its JSON form')
    parser.add_argument("--unopened", action="store_true",
                        help="the player has not made the variant's opening play yet")


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--symbols", action="store_true", help="print suits as ♠ ♥ ♦ ♣")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")


def _position(args: argparse.Namespace):
    """The position given by --position, or by --table, --hand, --variant, --unopened."""
    from solver.position import Position

    if args.position is not None:
        if args.table is not None or args.hand is not None:
            raise UsageError("give either --position or --table and --hand, not both")
        text = args.position.strip()
        return Position.from_json(text) if text.startswith("{") else Position.parse(text)
    if args.table is None or args.hand is None:
        raise UsageError(f"{args.command} needs --table and --hand (or --position)")
    return Position.make(args.table, args.hand, args.variant, not args.unopened)


def _cmd_solve(args: argparse.Namespace) -> int:
    from solver.api import backend_for, solve_position, warm_up

    position = _position(args)
    # numba's one-time start-up, or OR-Tools' loading, is not part of the solve's time
    warm_up(backend_for(position, args.objective, args.backend))
    solution = solve_position(position, objective=args.objective, backend=args.backend,
                              time_limit=args.time_limit)
    if args.json:
        print(json.dumps(solution.to_json()))
        return 0
    _print_solution(solution, args.color, args.symbols)
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from bots.app.render import table_lines, use_colour
    from solver.hint import hint_position

    result = hint_position(_position(args), args.objective)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    if args.short:
        print(result.short())
        return 0
    colour = use_colour(args.color)
    position = result.solution.position
    if result.solution.played and position.table:
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


def _cmd_analyze(args: argparse.Namespace) -> int:
    from solver.analysis import analyze
    from solver.cards import parse_cards

    position = _position(args)
    unseen = parse_cards(args.unseen) if args.unseen is not None else None
    result = analyze(position, unseen=unseen, max_plays=args.max_plays)
    chance = None
    if args.rollouts:
        from bots.players.estimate import win_chance

        try:
            opponents = [int(size) for size in args.opponents.split(",")]
        except ValueError:
            raise UsageError(f"bad --opponents {clip(args.opponents)!r}: hand sizes like 9,12") \
                from None
        chance = win_chance(position, opponents, args.rollouts, args.seed,
                            None if args.json else _progress)
    if args.json:
        data = result.to_json()
        if chance is not None:
            data["win_chance"] = {"chance": round(chance.chance, 4),
                                  "ci95": [round(x, 4) for x in chance.ci95],
                                  "rollouts": chance.rollouts}
        print(json.dumps(data))
        return 0
    for line in result.lines():
        print(line)
    if chance is not None:
        print(chance)
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from bots.app.render import use_colour
    from bots.app.session import PERSON, Session, SessionError
    from bots.app.terminal import TerminalGame

    try:
        if args.resume:
            session = Session.load(args.resume)
        else:
            bots = [name.strip() for name in args.bots.split(",") if name.strip()]
            seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
            session = Session(args.variant, [PERSON] * args.humans + bots, seed, args.budget)
    except SessionError as error:
        raise UsageError(str(error)) from None
    game = TerminalGame(session, use_colour(args.color), args.symbols)
    return game.run()


def _cmd_learn(args: argparse.Namespace) -> int:
    from bots.app.lessons import Lesson
    from bots.app.render import use_colour
    from solver.variants import Variant

    return Lesson(Variant.parse(args.variant), args.seed, use_colour(args.color)).run()


def _cmd_engine(args: argparse.Namespace) -> int:
    from bots.app.protocol import Engine
    from solver.api import warm_up

    warm_up("kernel")  # load the compiled kernel now, so that no move's budget pays for it
    return Engine(sys.stdin.buffer, sys.stdout).run()


def _print_solution(solution, colour_choice: str = "auto", symbols: bool = False) -> None:
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


def _cmd_demo(args: argparse.Namespace) -> int:
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
        _print_solution(solve(table, hand, backend=args.backend), args.color)
        print()
    print('Try your own: machiavelli solve --table "5C 6C 7C 8C" --hand "8D 8H"')
    return 0


def _variant_and_bots(args: argparse.Namespace):
    """The variant and the bot list of selfplay and tournament, checked against the players."""
    from bots.players import REGISTRY
    from solver.variants import Variant

    variant = Variant.parse(args.variant)
    names = [name.strip().lower() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in names if name not in REGISTRY]
    if unknown or not names:
        raise UsageError(f"unknown bot {unknown[0] if unknown else args.bots!r} "
                         f"(choose from {', '.join(REGISTRY)})")
    if not variant.min_players <= args.players <= variant.max_players:
        raise UsageError(f"{variant.name} is for {variant.min_players}-{variant.max_players} "
                         f"players, not {args.players}")
    return variant, names


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from bots.arena.selfplay import BotError, play_game
    from bots.referee.record import dumps

    variant, names = _variant_and_bots(args)
    if args.seed + args.games - 1 > MAX_SEED:
        raise UsageError("--seed + --games must stay below 2**63 (game i uses SEED + i)")
    out = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    wins: dict[str, float] = {}
    scores: dict[str, list[int]] = {}
    try:
        for i in range(args.games):
            try:
                game = play_game(variant, names, args.players, args.seed + i, check=args.check)
            except (BotError, AssertionError) as error:
                print(f"machiavelli: game {i + 1} (seed {args.seed + i}) failed: {error}",
                      file=sys.stderr)
                return EXIT_INTERNAL
            record = game.record()
            if out:
                out.write(dumps(record) + "\n")
            for row in record["result"]:
                bot = row["player"].rsplit("-", 1)[0]
                winners = sum(r["winner"] for r in record["result"])
                wins[bot] = wins.get(bot, 0.0) + (1 / winners if row["winner"] else 0.0)
                scores.setdefault(bot, []).append(row["score"])
            _progress(i + 1, args.games)
    finally:
        if out:
            out.close()
    print(f"{args.games} games of {variant}, {args.players} players, seeds "
          f"{args.seed}..{args.seed + args.games - 1}")
    for bot in sorted(wins, key=lambda b: -wins[b]):
        mean = sum(scores[bot]) / len(scores[bot])
        print(f"  {bot:<10} wins {wins[bot]:7.1f}   mean score {mean:7.1f}   "
              f"({len(scores[bot])} seats)")
    if args.record:
        print(f"records: {args.record}")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from bots.arena.tournament import run_tournament

    variant, names = _variant_and_bots(args)
    if args.seed + args.games - 1 > MAX_SEED:
        raise UsageError("--seed + --games must stay below 2**63 (game g uses SEED + g)")
    try:
        summary = run_tournament(str(variant), names, args.games, args.players, args.seed,
                                 workers=args.workers, ray_address=args.ray,
                                 budget=args.budget, progress=_progress)
    except RuntimeError as error:
        print(f"machiavelli: {error}", file=sys.stderr)
        return EXIT_INTERNAL
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{summary['games']} games of {variant}, {args.players} players, seed {args.seed}")
    print(f"{'bot':<10} {'games':>6} {'wins':>7} {'win rate':>9} {'95% interval':>15} "
          f"{'mean score':>11} {'rating':>7} {'move ms':>8} {'max ms':>8}")
    for row in sorted(summary["bots"], key=lambda r: -r["rating"]):
        lo, hi = row["ci95"]
        print(f"{row['name']:<10} {row['games']:>6} {row['wins']:>7.1f} "
              f"{row['win_rate']:>9.1%} {f'{lo:.1%}-{hi:.1%}':>15} {row['mean_score']:>11.1f} "
              f"{row['rating']:>7.2f} {row['move_ms_median']:>8.1f} {row['move_ms_max']:>8.0f}")
    return 0


def _progress(done: int, total: int) -> None:
    """A one-line progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end=end,
          file=sys.stderr, flush=True)


def _cmd_replay(args: argparse.Namespace) -> int:
    from bots.referee.record import read_records, replay

    try:
        records = list(read_records(args.file))
    except OSError as error:
        raise UsageError(f"cannot read {args.file!r}: {error.strerror}") from None
    except ValueError as error:
        raise UsageError(f"{args.file}: {error}") from None
    for number, record in enumerate(records, start=1):
        problem = replay(record)
        if problem is not None:
            print(f"record {number}: {problem}")
            return 1
        _progress(number, len(records))
    print(f"{len(records)} records replayed through the referee: all consistent")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
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


def entry_point() -> None:
    """Console-script entry: exit with ``main()``'s status."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
