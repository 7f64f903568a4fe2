"""Joker positions from real games: the kernel answers every one, agrees with CP-SAT, and how fast.

    python -m bench.joker_games                 # 25 games per variant: about 6,000 positions
    python -m bench.joker_games --games 20 --repeat 1 --json joker_games.json

Seeded self-play of carousel (3 players: two decks and two jokers), vatican and tahiti (2-4
players; greedy and random bots) through the referee. Every position a player faces at any
turn that holds a joker, in the hand or on the table, is kept (each distinct position once).
Each is then solved:

- end to end as users call it, ``solve(table_texts, hand_texts, variant=...)`` from card
  texts with ``backend="auto"`` (best of ``--repeat``): the backend ``auto`` chose must be the
  kernel on every position;
- the search alone, ``kernel_backend.solve`` on the prepared ``Problem`` (best of
  ``--repeat``): the search's share of the end-to-end time;
- by CP-SAT (``backend="cpsat"``): its score must equal the kernel's on every position.

Prints, per variant and overall: positions, how many ``auto`` gave to the kernel, agreements,
median / p99 / worst end-to-end and search milliseconds; then the ``--slowest`` positions with
their hand size, jokers, automaton states, nodes, root bound less the best score and
microseconds a node. Exits 1 on any
disagreement or any position ``auto`` did not give to the kernel (listing them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from bots.arena.selfplay import play_game
from bots.referee.game import Game
from solver import Position, kernel_backend, solve, solve_position
from solver.api import warm_up
from solver.problem import Problem

VARIANTS = ("carousel", "vatican", "tahiti")
BOTS = (("greedy",), ("greedy", "random"), ("random", "greedy"))


def game_plan(variant: str, i: int) -> tuple[tuple[str, ...], int]:
    """(bots, players) of game ``i`` of ``variant``: carousel with 3 players (two decks and
    two jokers), the others with 2 to 4."""
    players = 3 if variant == "carousel" else 2 + i % 3
    return BOTS[i % len(BOTS)], players


def harvest(variant: str, games: int, seed: int) -> list[Position]:
    """Every distinct joker position the players of ``games`` seeded games face."""
    seen: dict[str, Position] = {}

    def keep(game: Game) -> None:
        if game.over:
            return
        position = game.position()
        if position.has_jokers:
            seen.setdefault(str(position), position)

    for i in range(games):
        bots, players = game_plan(variant, i)
        play_game(variant, bots, players, seed=seed + i, on_action=keep)
    return list(seen.values())


def best_ms(call, repeat: int):
    """Best wall time of ``repeat`` calls in milliseconds, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        best = min(best, (time.perf_counter() - started) * 1000)
    return best, result


def measure(position: Position, repeat: int) -> dict:
    """One position: end-to-end time from texts with ``auto``, the search's time, CP-SAT."""
    table = [[str(card) for card in group] for group in position.table]
    hand = [str(card) for card in position.hand]
    variant = str(position.variant)
    total, answer = best_ms(lambda: solve(table, hand, variant=variant,
                                          opened=position.opened), repeat)
    problem = Problem.from_position(position)
    search, nodes, states = float("nan"), 0, 0
    if answer.backend == "kernel":
        search, partition = best_ms(lambda: kernel_backend.solve(problem), repeat)
        nodes, states = partition.stats.get("nodes", 0), kernel_backend.automaton_states(problem)
    cpsat = solve_position(position, backend="cpsat")
    return {"position": str(position), "backend": answer.backend, "score": answer.score,
            "cpsat": cpsat.score, "optimal": answer.optimal and cpsat.optimal,
            "total_ms": total, "search_ms": search, "variant": variant.split(":")[0],
            "hand": len(hand), "jokers": problem.hand_jokers + problem.table_jokers,
            "states": states, "nodes": int(nodes)}


def slowest(rows: list[dict], count: int) -> list[str]:
    """The ``count`` slowest positions end to end as Markdown rows: variant, hand size,
    jokers in play, automaton states, the answering branch's nodes, the kernel's root bound
    less the best score (``kernel_backend.root_bound``: what the search had to prove) and
    microseconds a node of the search."""
    lines = ["| variant | ms | search ms | hand | jokers | states | nodes | root bound - best "
             "| us/node |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in sorted(rows, key=lambda r: -r["total_ms"])[:count]:
        per_node = 1000 * r["search_ms"] / r["nodes"] if r["nodes"] else float("nan")
        problem = Problem.from_position(Position.parse(r["position"]))
        gap = kernel_backend.root_bound(problem) - r["score"] if r["backend"] == "kernel" \
            else "-"
        lines.append(f"| {r['variant']} | {r['total_ms']:.2f} | {r['search_ms']:.2f} | "
                     f"{r['hand']} | {r['jokers']} | {r['states']} | {r['nodes']} | {gap} | "
                     f"{per_node:.1f} |")
    return lines


def summary(label: str, rows: list[dict]) -> str:
    """One Markdown table row: counts and median / p99 / worst times."""
    total = np.array([r["total_ms"] for r in rows])
    search = np.array([r["search_ms"] for r in rows if r["backend"] == "kernel"])
    kernel = sum(r["backend"] == "kernel" for r in rows)
    agree = sum(r["score"] == r["cpsat"] and r["optimal"] for r in rows)

    def stats(values: np.ndarray) -> str:
        if not len(values):
            return "- | - | -"
        return " | ".join(f"{v:.3f}" for v in (np.median(values), np.percentile(values, 99),
                                                  values.max()))
    return f"| {label} | {len(rows)} | {kernel} | {agree} | {stats(total)} | {stats(search)} |"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=25, help="games per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (best)")
    parser.add_argument("--json", metavar="FILE", help="write every position's row to FILE")
    parser.add_argument("--slowest", type=int, default=30, metavar="N",
                        help="list the N slowest positions (0: none)")
    args = parser.parse_args(argv)
    warm_up("cpsat")
    rows: dict[str, list[dict]] = {}
    for variant in VARIANTS:
        positions = harvest(variant, args.games, args.seed)
        rows[variant] = [measure(position, args.repeat) for position in positions]
        print(f"{variant}: {len(positions)} positions from {args.games} games", file=sys.stderr)
    print("| variant | positions | kernel (auto) | agree with CP-SAT | end to end ms: median | "
          "p99 | worst | search ms: median | p99 | worst |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    everything = [row for variant in VARIANTS for row in rows[variant]]
    for variant in VARIANTS:
        print(summary(variant, rows[variant]))
    print(summary("all", everything))
    if args.slowest:
        print("\n".join(["", f"The {args.slowest} slowest end to end:", ""]
                        + slowest(everything, args.slowest)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(everything, out, indent=1)
    failures = [r for r in everything if r["backend"] != "kernel" or r["score"] != r["cpsat"]
                or not r["optimal"]]
    for row in failures[:20]:
        print(f"FAILED ({row['backend']}, {row['score']} vs CP-SAT {row['cpsat']}): "
              f"{row['position']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
