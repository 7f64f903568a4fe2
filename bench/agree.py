"""Agreement runs: kernel vs CP-SAT on many random positions, and both vs brute force.

    python -m bench.agree                      # 10,000 + 2,000 + 3,000 + 600 positions
    python -m bench.agree --positions 500 --small 100 --jokers 300 --small-jokers 60 --seed 3

Positions of all sizes (table 0..100 cards, hand 1..20), all three ace modes, with singles
(tahiti) and both objectives. Joker positions: carousel, vatican and tahiti with their jokers
on the table and in the hand (docs/rules.md §8), kernel vs CP-SAT at every size and, on
small positions, vs the brute force of ``solver.reference.best_cards_with_jokers`` (which
judges every table with the referee's validator). Every answer must also pass the rules
validator and use exactly the table cards plus the played ones. Exits 1 on the first
disagreement, printing it.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from solver import Position, solve_position
from solver.generate import random_position
from solver.kernel_backend import certified, why_not
from solver.problem import Problem
from solver.reference import best_cards_with_jokers, best_value
from solver.validate import play_problems

ACES = ("low", "high", "both")
JOKER_VARIANTS = ("carousel", "vatican", "tahiti")


def random_case(rng: np.random.Generator, small: bool) -> tuple[Position, str]:
    ace = ACES[int(rng.integers(3))]
    name = "tahiti" if rng.random() < 0.2 else "machiavelli"
    if small:
        table, hand = int(rng.integers(0, 13)), int(rng.integers(1, 7))
    else:
        table, hand = int(rng.integers(0, 101)), int(rng.integers(1, 21))
    position = random_position(rng, f"{name}:ace={ace}", table, hand,
                               singles=int(rng.integers(0, 4)), near=float(rng.uniform(0.3, 0.9)))
    objective = "points" if rng.random() < 0.3 else "cards"
    return position, objective


def random_joker_case(rng: np.random.Generator, small: bool) -> tuple[Position, str]:
    """A carousel, vatican or tahiti position with up to all of the variant's jokers (two on
    small positions: the brute force tries every name for each), each on the table or in the
    hand."""
    name = JOKER_VARIANTS[int(rng.integers(3))]
    ace = ACES[int(rng.integers(3))]
    if small:
        table, hand = int(rng.integers(0, 10)), int(rng.integers(1, 5))
    else:
        table, hand = int(rng.integers(0, 81)), int(rng.integers(1, 16))
    position = random_position(rng, f"{name}:ace={ace}", table, hand,
                               singles=int(rng.integers(0, 4)), near=float(rng.uniform(0.5, 0.95)),
                               jokers=int(rng.integers(1, 3 if small else 5)),
                               jokers_on_table=float(rng.uniform(0.2, 0.8)))
    objective = "points" if not small and rng.random() < 0.3 else "cards"
    return position, objective


def check(position: Position, objective: str, brute: bool) -> dict[str, int]:
    scores = {}
    backends = ["cpsat"]
    problem = Problem.from_position(position, objective)
    if not why_not(problem) or certified(problem):
        backends.append("kernel")
    for backend in backends:
        solution = solve_position(position, objective, backend)
        problems = play_problems(position, solution.played, solution.table)
        if problems or not solution.optimal:
            raise AssertionError(f"{backend}: {problems or 'not optimal'}")
        scores[backend] = solution.score
    if brute and position.has_jokers:
        scores["brute"] = best_cards_with_jokers(position)
    elif brute:
        scores["brute"] = best_value(position, objective)
    return scores


def run(count: int, small: bool, seed: int, label: str, jokers: bool = False) -> int:
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    played = 0
    without_kernel = 0
    for n in range(1, count + 1):
        position, objective = (random_joker_case if jokers else random_case)(rng, small)
        scores = check(position, objective, brute=small)
        if len(set(scores.values())) != 1:
            print(f"\nDISAGREE ({objective}) {position}: {scores}")
            return 1
        played += scores["cpsat"] > 0
        without_kernel += "kernel" not in scores
        if sys.stderr.isatty() and (n % 100 == 0 or n == count):
            print(f"\r{label}: {n}/{count}", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"{label}: {count} positions agree ({played} with a play"
          + (f", {without_kernel} beyond the kernel" if without_kernel else "")
          + f"), seed {seed}, {elapsed:.0f} s")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000,
                        help="kernel vs CP-SAT positions of all sizes (default 10000)")
    parser.add_argument("--small", type=int, default=2_000,
                        help="small positions checked three ways with brute force (default 2000)")
    parser.add_argument("--jokers", type=int, default=3_000,
                        help="joker positions of all sizes, kernel vs CP-SAT (default 3000)")
    parser.add_argument("--small-jokers", type=int, default=600,
                        help="small joker positions, also vs brute force (default 600)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    runs = [(args.small, True, "kernel = CP-SAT = brute force", False),
            (args.positions, False, "kernel = CP-SAT", False),
            (args.small_jokers, True, "jokers: kernel = CP-SAT = brute force", True),
            (args.jokers, False, "jokers: kernel = CP-SAT", True)]
    for offset, (count, small, label, jokers) in enumerate(runs):
        if count and run(count, small, args.seed + offset, label, jokers):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
