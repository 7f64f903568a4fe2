"""The commands that play or check whole games between bots: ``selfplay``, ``tournament``
and ``replay`` (records checked against the referee)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import socket
import sys
from contextlib import nullcontext
from typing import Any

from bots.app.commands import COMMAND_HELP
from bots.app.commands.common import (
    EXIT_INTERNAL,
    OutputFile,
    UsageError,
    add_budget,
    add_command,
    add_json,
    add_players,
    add_seed,
    add_variant,
    count,
    progress,
)
from bots.envs.levels import LEVELS, check_level
from solver.arguments import MAX_SEED
from solver.errors import InvalidArgumentError, cannot, clip
from solver.variants import Variant

MAX_GAMES = 10_000_000
MAX_WORKERS = 64
RAY_KEYWORDS = ("auto", "local")  # an existing cluster found by Ray; one started here
RAY_FORMS = "HOST:PORT, ray://HOST:PORT, auto or local"
RAY_CONNECT_SECONDS = 3.0  # Ray itself retries an address that does not answer for minutes


def add_selfplay(sub: Any) -> None:
    """``machiavelli selfplay``: seeded games between bots, with their records."""
    selfplay = add_command(
        sub, "selfplay",
        description="Play seeded games between bots through the referee. Game i uses seed "
                    "SEED + i; the same seed gives the same record, byte for byte.",
        epilog="example:\n  machiavelli selfplay --variant carousel --players 3 "
               "--bots random,greedy --games 20 --seed 1 --record games.jsonl",
    )
    add_variant(selfplay)
    add_players(selfplay, 2, help="players per game (default 2)")
    selfplay.add_argument("--bots", default="greedy",
                          help="comma-separated bots, cycled over the seats "
                               f"({', '.join(LEVELS)})")
    selfplay.add_argument("--games", type=count(1, MAX_GAMES), default=10,
                          help="games to play (default 10)")
    add_seed(selfplay, help="seed of the first game")
    selfplay.add_argument("--record", metavar="FILE",
                          help="write one JSON record per game to FILE (.jsonl)")
    selfplay.add_argument("--check", action="store_true",
                          help="verify the referee's invariants after every action")
    selfplay.set_defaults(run=run_selfplay)


def run_selfplay(args: argparse.Namespace) -> int:
    from bots.arena.selfplay import BotError, play_game
    from bots.referee.record import dumps

    variant, names = _variant_and_bots(args, "game i uses SEED + i")
    wins: dict[str, float] = {}
    scores: dict[str, list[int]] = {}
    with OutputFile(args.record, "--record") if args.record is not None else nullcontext() \
            as out:
        for i in range(args.games):
            try:
                game = play_game(variant, names, args.players, args.seed + i, check=args.check)
            except (BotError, AssertionError) as error:
                print(f"machiavelli: game {i + 1} (seed {args.seed + i}) failed: {error}",
                      file=sys.stderr)
                return EXIT_INTERNAL
            record = game.record()
            if out is not None:
                out.write(dumps(record) + "\n")
            _count_result(record, wins, scores)
            progress(i + 1, args.games)
    _print_selfplay(args, variant, wins, scores)
    return 0


def _count_result(record: dict, wins: dict[str, float], scores: dict[str, list[int]]) -> None:
    """Add one game's result to each bot's wins (a shared win split) and scores."""
    for row in record["result"]:
        bot = row["player"].rsplit("-", 1)[0]
        winners = sum(r["winner"] for r in record["result"])
        wins[bot] = wins.get(bot, 0.0) + (1 / winners if row["winner"] else 0.0)
        scores.setdefault(bot, []).append(row["score"])


def _print_selfplay(args: argparse.Namespace, variant: Variant, wins: dict[str, float],
                    scores: dict[str, list[int]]) -> None:
    """The selfplay summary: wins and mean score per bot, most wins first."""
    print(f"{args.games} games of {variant}, {args.players} players, seeds "
          f"{args.seed}..{args.seed + args.games - 1}")
    for bot in sorted(wins, key=lambda b: -wins[b]):
        mean = sum(scores[bot]) / len(scores[bot])
        print(f"  {bot:<10} wins {wins[bot]:7.1f}   mean score {mean:7.1f}   "
              f"({len(scores[bot])} seats)")
    if args.record:
        print(f"records: {args.record}")


def add_tournament(sub: Any) -> None:
    """``machiavelli tournament``: seat-rotated games, win rates, ratings, move times."""
    tournament = add_command(
        sub, "tournament",
        description="Play seat-rotated games between bots on duplicate deals (game g is "
                    "dealt from seed SEED + g // PLAYERS, so every seating plays each deal) "
                    "and report per bot: games, wins, win rate with its 95% interval, mean "
                    "score, OpenSkill rating and move times.",
        epilog="examples:\n  machiavelli tournament --bots greedy,planner --games 200\n"
               "  machiavelli tournament --variant carousel --players 4 "
               "--bots beginner,greedy,planner,expert --games 100 --workers 2 --json",
    )
    add_variant(tournament)
    tournament.add_argument("--bots", required=True, help="comma-separated bots")
    tournament.add_argument("--games", type=count(1, MAX_GAMES), default=100)
    add_players(tournament, 2)
    add_seed(tournament)
    tournament.add_argument("--workers", type=count(1, MAX_WORKERS), default=1,
                            help=f"parallel processes (default 1, at most {MAX_WORKERS})")
    add_budget(tournament, help="seconds per move for the searching bots (expert)")
    tournament.add_argument("--ray", metavar="ADDRESS", default=None,
                            help=f"run the games on a Ray cluster: {RAY_FORMS} "
                                 "('local' starts one here)")
    add_json(tournament)
    tournament.set_defaults(run=run_tournament)


def run_tournament(args: argparse.Namespace) -> int:
    from bots.arena.tournament import run_tournament as play_tournament

    variant, names = _variant_and_bots(args, "game g uses SEED + g")
    if args.ray is not None:
        check_ray_address(args.ray)
    try:
        summary = play_tournament(str(variant), names, args.games, args.players, args.seed,
                                  workers=args.workers, ray_address=args.ray,
                                  budget=args.budget, progress=progress)
    except RuntimeError as error:
        print(f"machiavelli: {error}", file=sys.stderr)
        return EXIT_INTERNAL
    except ConnectionError as error:  # Ray's, after its retries: what answered is no cluster
        if args.ray is None or isinstance(error, BrokenPipeError):
            raise
        raise UsageError(f"no Ray cluster answers at {clip(args.ray)}") from None
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


def check_ray_address(address: str) -> None:
    """Refuse a --ray address Ray could not use, before Ray is loaded: an empty or malformed
    one, or a HOST:PORT that does not take a TCP connection within ``RAY_CONNECT_SECONDS``
    (Ray would print warnings and retry for minutes); then refuse --ray without Ray installed,
    and a ray:// address without the Ray Client's gRPC. 'auto' and 'local' are left to Ray."""
    if address not in RAY_KEYWORDS:
        host, _, port = address.split("://", 1)[-1].rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise UsageError(f"bad --ray address {clip(address)!r}: give {RAY_FORMS}")
        try:
            socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS).close()
        except (OSError, UnicodeError) as error:
            raise UsageError(cannot(f"reach the Ray cluster at {clip(address)}", error)) \
                from None
    if importlib.util.find_spec("ray") is None:
        raise UsageError("--ray needs Ray: pip install 'machiavelli-engine[ray]'")
    if address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
        # the test Ray itself makes, deep in ray.init, with a traceback
        raise UsageError("a ray:// address needs the Ray Client: pip install 'ray[client]'")


def _variant_and_bots(args: argparse.Namespace, seeds: str) -> tuple[Variant, list[str]]:
    """The variant and the bot list of selfplay and tournament, checked against the players,
    and the seeds the games will use (``seeds`` says which game uses which)."""
    variant = Variant.parse(args.variant)
    names = [name.strip().lower() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if unknown or not names:
        raise UsageError(f"unknown bot {unknown[0] if unknown else args.bots!r} "
                         f"(choose from {', '.join(LEVELS)})")
    try:
        for name in set(names):
            check_level(name)
    except InvalidArgumentError as error:
        raise UsageError(str(error)) from None
    if not variant.min_players <= args.players <= variant.max_players:
        raise UsageError(f"{variant.name} is for {variant.min_players}-{variant.max_players} "
                         f"players, not {args.players}")
    if args.seed + args.games - 1 > MAX_SEED:
        raise UsageError(f"--seed + --games must stay below 2**63 ({seeds})")
    return variant, names


def add_replay(sub: Any) -> None:
    """``machiavelli replay``: game records checked against the referee."""
    replay = sub.add_parser("replay", help=COMMAND_HELP["replay"],
                            description="Replay every record of FILE through the referee, "
                                        "step by step, and report the first inconsistency.")
    replay.add_argument("file", metavar="FILE", help="a .jsonl file of game records")
    replay.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from bots.referee.record import read_records, replay

    try:
        records = list(read_records(args.file))
    except OSError as error:
        raise UsageError(cannot(f"read {args.file!r}", error)) from None
    except ValueError as error:
        raise UsageError(f"{args.file}: {error}") from None
    for number, record in enumerate(records, start=1):
        problem = replay(record)
        if problem is not None:
            print(f"record {number}: {problem}")
            return 1
        progress(number, len(records))
    print(f"{len(records)} records replayed through the referee: all consistent")
    return 0
