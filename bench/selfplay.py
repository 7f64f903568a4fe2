"""Thousands of seeded games of random and greedy players through the referee.

    python -m bench.selfplay                    # 10,000 games, all variants, 2-5 players
    python -m bench.selfplay --games 400 --workers 2 --record games.jsonl

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
from multiprocessing import Pool

from bots.arena.selfplay import play_game
from bots.referee.record import dumps, replay
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0, help="first game number (seed)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--record", metavar="FILE", help="write every record to FILE")
    args = parser.parse_args(argv)
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
