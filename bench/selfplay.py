"""Thousands of seeded games of random and greedy players through the referee.

    python -m bench.selfplay                    # throughput, then 10,000 games, all variants
    python -m bench.selfplay --speed            # throughput only (about 10 s)
    python -m bench.selfplay --games 400 --workers 2 --record games.jsonl

Throughput first: ``--speed-games`` seeded games (default 300) of ``greedy`` against itself
in machiavelli, 2 players, in this one process, as self-play runs them (no invariant checks):
games per second of wall time and of this process's CPU time (the machine may be shared), and
the solver's share of the time: the calls to the solver's entry points (``solver.counts`` and
``solve_position``), and within them the kernel's numba calls (``kernel.search_and_decode``,
or ``counts.play_rows``: the search with the answer's layout, in one call).

Game ``i`` plays variant ``i mod 8`` with ``2 + (i div 8) mod 4`` players and the bots
``random``, ``greedy``, or both in turn, from seed ``i``. After every action the referee's
invariants are checked (hands + table + stock is the pack; every table group valid), and each
finished record is replayed through a fresh referee. Any failure is printed with its seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import Pool
from typing import Any

from bots.arena.selfplay import play_game
from bots.referee.record import dumps, replay
from solver import api, counts, kernel
from solver.variants import VARIANT_NAMES

BOTS = (("random",), ("greedy",), ("random", "greedy"), ("greedy", "random"))


def plan(i: int) -> tuple[str, int, tuple[str, ...]]:
    """(variant, players, bots) of game ``i``."""
    return VARIANT_NAMES[i % len(VARIANT_NAMES)], 2 + (i // 8) % 4, BOTS[(i // 32) % len(BOTS)]


def run_one(i: int) -> dict:
    variant, players, bots = plan(i)
    started = time.perf_counter()
    try:
        game = play_game(variant, bots, players, seed=i, check=True)
        record = json.loads(dumps(game.record()))
        problem = replay(record)
        error = f"replay: {problem}" if problem else None
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its seed
        record, error = None, f"{type(exc).__name__}: {exc}"
    actions = sum(len(h["actions"]) for h in record.get("hands", [record])) if record else 0
    return {"game": i, "variant": variant, "players": players, "bots": "+".join(bots),
            "seconds": time.perf_counter() - started, "actions": actions, "error": error,
            "record": dumps(record) if record else None}


@contextmanager
def timed(spent: dict[str, float], name: str, owner: Any, attribute: str) -> Iterator[None]:
    """Add the time of every call of ``owner.attribute`` to ``spent[name]`` (not reentrant:
    a call inside a call of the same name counts once)."""
    original: Callable = getattr(owner, attribute)
    depth = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1
            if not depth[0]:
                spent[name] += time.perf_counter() - started

    setattr(owner, attribute, wrapper)
    try:
        yield
    finally:
        setattr(owner, attribute, original)


def throughput(games: int, variant: str = "machiavelli", bots: tuple[str, ...] = ("greedy",),
               players: int = 2) -> dict[str, float]:
    """Play ``games`` seeded games in this process; wall and CPU seconds, actions, and the
    seconds spent in the solver's entry points and in the kernel's search."""
    play_game(variant, bots, players, seed=10**6)  # loads the kernels and the referee's checks
    spent = defaultdict(float)
    actions = 0
    with timed(spent, "solver", counts, "best_play"), \
            timed(spent, "solver", api, "solve_position"), \
            timed(spent, "search", kernel, "search_and_decode"), \
            timed(spent, "search", counts, "play_rows"):
        wall, cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            game = play_game(variant, bots, players, seed)
            actions += sum(len(hand["actions"]) for hand in game.hand_records)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "wall": wall, "cpu": cpu, "actions": actions,
            "solver": spent["solver"], "search": spent["search"]}


def print_throughput(row: dict[str, float], variant: str, bots: tuple[str, ...],
                     players: int) -> None:
    print(f"{'+'.join(bots)} self-play, {variant}, {players} players, one process: "
          f"{row['games']} games, {row['actions'] / row['games']:.0f} actions a game")
    print(f"  {row['games'] / row['wall']:.1f} games/s ({row['games'] / row['cpu']:.1f} per "
          f"CPU second), {row['actions'] / row['wall']:.0f} actions/s; solver "
          f"{row['solver'] / row['wall']:.0%} of the time (kernel calls "
          f"{row['search'] / row['wall']:.0%}), referee, observations and bots "
          f"{1 - row['solver'] / row['wall']:.0%}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0, help="first game number (seed)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--record", metavar="FILE", help="write every record to FILE")
    parser.add_argument("--speed", action="store_true", help="measure throughput only")
    parser.add_argument("--speed-games", type=int, default=300,
                        help="games of the throughput run (0: skip it)")
    args = parser.parse_args(argv)
    if args.speed_games:
        print_throughput(throughput(args.speed_games), "machiavelli", ("greedy",), 2)
    if args.speed:
        return 0
    started = time.perf_counter()
    stats = defaultdict(lambda: {"games": 0, "actions": 0, "seconds": 0.0})
    failures = []
    out = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    with Pool(args.workers) as pool:
        for n, row in enumerate(pool.imap(run_one, range(args.start, args.start + args.games),
                                          chunksize=4), start=1):
            key = (row["variant"], row["players"])
            stats[key]["games"] += 1
            stats[key]["actions"] += row["actions"]
            stats[key]["seconds"] += row["seconds"]
            if row["error"]:
                failures.append(row)
                print(f"FAILED game {row['game']} ({row['variant']}, {row['players']} players, "
                      f"{row['bots']}): {row['error']}", flush=True)
            if out and row["record"]:
                out.write(row["record"] + "\n")
            if sys.stderr.isatty() and (n % 50 == 0 or n == args.games):
                print(f"\r{n}/{args.games} games", end="\n" if n == args.games else "",
                      file=sys.stderr, flush=True)
    if out:
        out.close()
    print("| variant | players | games | mean actions | mean s/game |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for (variant, players), row in sorted(stats.items()):
        print(f"| {variant} | {players} | {row['games']} | {row['actions'] / row['games']:.0f} | "
              f"{row['seconds'] / row['games']:.2f} |")
    total = sum(row["games"] for row in stats.values())
    actions = sum(row["actions"] for row in stats.values())
    print(f"\n{total} games, {actions} actions, {len(failures)} failures, invariants checked "
          f"after every action, every record replayed; "
          f"{time.perf_counter() - started:.0f} s with {args.workers} workers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
