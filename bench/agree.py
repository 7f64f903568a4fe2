"""Agreement runs: kernel vs CP-SAT on many random positions, and both vs brute force.

    python -m bench.agree                      # 10,000 + 2,000 positions (a few minutes)
    python -m bench.agree --positions 500 --small 100 --seed 3

Positions of all sizes (table 0..100 cards, hand 1..20), all three ace modes, with singles
(tahiti) and both objectives. Every answer must also pass the rules validator and use exactly
the table cards plus the played ones. Exits 1 on the first disagreement, printing it.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from solver import Position, solve_position
from solver.generate import random_position
from solver.reference import best_value
from solver.validate import play_problems

ACES = ("low", "high", "both")


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


def check(position: Position, objective: str, brute: bool) -> dict[str, int]:
    scores = {}
    for backend in ("kernel", "cpsat"):
        solution = solve_position(position, objective, backend)
        problems = play_problems(position, solution.played, solution.table)
        if problems or not solution.optimal:
            raise AssertionError(f"{backend}: {problems or 'not optimal'}")
        scores[backend] = solution.score
    if brute:
        scores["brute"] = best_value(position, objective)
    return scores


def run(count: int, small: bool, seed: int, label: str) -> int:
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    played = 0
    for n in range(1, count + 1):
        position, objective = random_case(rng, small)
        scores = check(position, objective, brute=small)
        if len(set(scores.values())) != 1:
            print(f"\nDISAGREE ({objective}) {position}: {scores}")
            return 1
        played += scores["kernel"] > 0
        if sys.stderr.isatty() and (n % 100 == 0 or n == count):
            print(f"\r{label}: {n}/{count}", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"{label}: {count} positions agree ({played} with a play), seed {seed}, "
          f"{elapsed:.0f} s")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000,
                        help="kernel vs CP-SAT positions of all sizes (default 10000)")
    parser.add_argument("--small", type=int, default=2_000,
                        help="small positions checked three ways with brute force (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    status = run(args.small, True, args.seed, "kernel = CP-SAT = brute force")
    if status == 0:
        status = run(args.positions, False, args.seed + 1, "kernel = CP-SAT")
    return status


if __name__ == "__main__":
    sys.exit(main())
