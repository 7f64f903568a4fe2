"""The ladder's acceptance runs: who beats whom, by how much, and how fast they move.

    python -m bench.ladder heads-up  --games 400 --budget 0.25   # adjacent levels, machiavelli
    python -m bench.ladder four      --games 400 --budget 0.25   # levels 2-5 at one table
    python -m bench.ladder variants  --games 50  --budget 0.05   # every level, every variant
    python -m bench.ladder all       ...                          # the three in a row

Every run is a seeded tournament with duplicate deals (``bots.arena.tournament``); the tables are
printed in Markdown for the README, and ``--json FILE`` keeps every summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bots.arena.tournament import run_tournament
from bots.players import REGISTRY
from solver.variants import VARIANT_NAMES

LEVELS = list(REGISTRY)
PAIRS = [(LEVELS[i], LEVELS[i + 1]) for i in range(len(LEVELS) - 1)] + [("greedy", "expert")]


def _row(summary: dict, name: str) -> dict:
    return next(row for row in summary["bots"] if row["name"] == name)


def heads_up(games: int, budget: float, workers: int, seed: int,
             pairs: list[tuple[str, str]] | None = None) -> list[dict]:
    print("| pair (machiavelli, heads-up) | games | stronger wins | win rate | 95% interval |")
    print("| --- | ---: | ---: | ---: | --- |")
    results = []
    for weaker, stronger in pairs or PAIRS:
        summary = run_tournament("machiavelli", [weaker, stronger], games, 2, seed,
                                 workers=workers, budget=budget)
        row = _row(summary, stronger)
        lo, hi = row["ci95"]
        print(f"| {stronger} vs {weaker} | {summary['games']} | {row['wins']:.1f} | "
              f"{row['win_rate']:.1%} | {lo:.1%}-{hi:.1%} |", flush=True)
        results.append(summary)
    return results


def four_players(games: int, budget: float, workers: int, seed: int) -> list[dict]:
    bots = LEVELS[1:]
    summary = run_tournament("machiavelli", bots, games, 4, seed, workers=workers,
                             budget=budget)
    print("| bot (machiavelli, 4 players) | games | wins | win rate | 95% interval | rating | "
          "move ms median | move ms max |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    for name in bots:
        row = _row(summary, name)
        lo, hi = row["ci95"]
        print(f"| {name} | {row['games']} | {row['wins']:.1f} | {row['win_rate']:.1%} | "
              f"{lo:.1%}-{hi:.1%} | {row['rating']:.2f} | {row['move_ms_median']:.1f} | "
              f"{row['move_ms_max']:.0f} |", flush=True)
    return [summary]


def every_variant(games: int, budget: float, workers: int, seed: int) -> list[dict]:
    """Each level plays ``games`` games of each variant (heads-up against its neighbours)."""
    print("| variant | games per level | " + " | ".join(LEVELS) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in LEVELS) + " |")
    results = []
    for variant in VARIANT_NAMES:
        summary = run_tournament(variant, LEVELS, games * len(LEVELS) // 2, 2, seed,
                                 workers=workers, budget=budget)
        rates = [f"{_row(summary, name)['win_rate']:.0%}" for name in LEVELS]
        per_level = min(_row(summary, name)["games"] for name in LEVELS)
        print(f"| {variant} | {per_level} | " + " | ".join(rates) + " |", flush=True)
        results.append(summary)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", choices=("heads-up", "four", "variants", "all"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", type=float, default=0.25, help="expert seconds per move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", metavar="FILE", help="write every summary to FILE")
    parser.add_argument("--pairs", metavar="WEAKER:STRONGER,...",
                        help="heads-up pairs to play (default: adjacent levels and "
                             "expert vs greedy), e.g. planner:expert,greedy:expert")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    summaries = []
    runs = {"heads-up": heads_up, "four": four_players, "variants": every_variant}
    pairs = None
    if args.pairs:
        pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
        unknown = [name for pair in pairs for name in pair if name not in REGISTRY]
        if unknown or any(len(pair) != 2 for pair in pairs):
            parser.error(f"bad --pairs {args.pairs!r}: each is WEAKER:STRONGER, levels "
                         f"{', '.join(LEVELS)}")
    for name in (runs if args.run == "all" else [args.run]):
        extra = {"pairs": pairs} if name == "heads-up" else {}
        summaries += runs[name](args.games, args.budget, args.workers, args.seed, **extra)
        print()
    print(f"({time.perf_counter() - started:.0f} s, {args.workers} workers, expert budget "
          f"{args.budget} s, seed {args.seed})")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(summaries, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
