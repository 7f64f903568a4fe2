"""Hint speed per position, side by side in one run: the ``auto`` hint (the kernel's
lexicographic search, ``solver.lex_hint``, wherever it applies; CP-SAT beyond) beside the
CP-SAT hint and the plain solve, with every auto hint checked against CP-SAT's (same value,
same groups changed, same cards picked up), and a count of the kernel searches that hit their
cap and handed over to CP-SAT (``solver.hint.LEX_WORK``, or ``KERNEL_VISITS`` for the
freed-set search with hand jokers).

    python -m bench.hint                 # the suite's tables of 60 cards or more
    python -m bench.hint --min-table 0   # every table of the suite
    python -m bench.hint --slowest 10    # and the 10 slowest auto hints, one a line
    python -m bench.hint --repeat 1      # one timing per position (default: best of 3)

Figures: median and max ms per engine, and the ratio CP-SAT / auto per position.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.suite import suite, table_size
from solver import Position, solve_position
from solver.hint import Hint, changed_groups, hint_position, kernel_first
from solver.problem import Problem

MIN_TABLE = 60


def big_positions(min_table: int = MIN_TABLE) -> list[Position]:
    """The suite's positions with at least ``min_table`` table cards."""
    return [p for _, _, p in suite() if table_size(p) >= min_table]


def disturbance(position: Position, result: Hint) -> tuple[int, int, int]:
    """(value, groups changed, cards picked up): what every hint must agree on (singles that
    join a group are not counted, as in the hint's objective)."""
    changed, picked_up = changed_groups([g for g in position.table if len(g) > 1],
                                        result.solution.table)
    return result.solution.score, len(changed), picked_up


def _timed(run, position: Position, repeat: int = 1) -> tuple[float, object]:
    """Best wall time of ``repeat`` calls in milliseconds (as ``bench.compare`` and
    ``bench.joker_games`` time theirs: a shared machine's pauses are not the engine's), and
    the last result."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        started = time.perf_counter()
        result = run(position)
        best = min(best, (time.perf_counter() - started) * 1000)
    return best, result


def timings(positions: list[Position], repeat: int = 1) -> dict[str, list]:
    """Per position: auto hint ms, CP-SAT hint ms, plain solve ms (each the best of
    ``repeat`` calls), engine used, agreement, and whether auto tried the kernel first."""
    hint_position(positions[0], backend="cpsat")  # load OR-Tools and the compiled kernel
    out: dict[str, list] = {"auto": [], "cpsat": [], "solve": [], "engine": [], "agree": [],
                            "kernel_first": [], "played": []}
    for position in positions:
        auto_ms, auto = _timed(hint_position, position, repeat)
        cpsat_ms, cpsat = _timed(lambda p: hint_position(p, backend="cpsat"), position, repeat)
        solve_ms, _ = _timed(solve_position, position, repeat)
        out["auto"].append(auto_ms)
        out["cpsat"].append(cpsat_ms)
        out["solve"].append(solve_ms)
        out["engine"].append(auto.solution.backend)
        out["played"].append(bool(auto.solution.played))
        out["agree"].append(disturbance(position, auto) == disturbance(position, cpsat))
        out["kernel_first"].append(kernel_first(Problem.from_position(position)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-table", type=int, default=MIN_TABLE,
                        help="smallest table (cards) to include (default %(default)s)")
    parser.add_argument("--slowest", type=int, default=0, metavar="N",
                        help="also list the N slowest auto hints (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timings per position and engine, the best kept "
                             "(default %(default)s)")
    args = parser.parse_args(argv)
    positions = big_positions(args.min_table)
    got = timings(positions, args.repeat)
    ratios = [c / a for a, c in zip(got["auto"], got["cpsat"], strict=True)]
    kernel = got["engine"].count("kernel")
    handed = sum(first and engine == "cpsat" and played
                 for first, engine, played in zip(got["kernel_first"], got["engine"],
                                                   got["played"], strict=True))
    print(f"{len(positions)} positions with {args.min_table}+ table cards "
          f"({kernel} hinted by the kernel, {handed} handed over to CP-SAT at the kernel's cap)")
    for name in ("auto", "cpsat", "solve"):
        times = got[name]
        print(f"{name:5} ms: median {statistics.median(times):7.2f}  max {max(times):7.2f}")
    print(f"CP-SAT / auto per position: median {statistics.median(ratios):.1f}x  "
          f"min {min(ratios):.1f}x")
    if kernel:
        mine = [i for i, engine in enumerate(got["engine"]) if engine == "kernel"]
        print(f"kernel-hinted: auto median {statistics.median(got['auto'][i] for i in mine):.2f}"
              f" ms, CP-SAT median {statistics.median(got['cpsat'][i] for i in mine):.2f} ms, "
              f"ratio median {statistics.median(ratios[i] for i in mine):.1f}x")
    print(f"auto agrees with CP-SAT on {sum(got['agree'])} of {len(positions)}")
    print_slowest(positions, got, args.slowest)
    return 0 if all(got["agree"]) else 1


def print_slowest(positions: list[Position], got: dict[str, list], count: int) -> None:
    """The ``count`` slowest auto hints: the position's number among ``positions``, its
    groups and table cards, auto and CP-SAT ms, and the engine that answered."""
    order = sorted(range(len(positions)), key=lambda i: -got["auto"][i])[:max(count, 0)]
    for i in order:
        print(f"  #{i}: {len(positions[i].table)} groups, {table_size(positions[i])} cards; "
              f"auto {got['auto'][i]:.2f} ms ({got['engine'][i]}), "
              f"CP-SAT {got['cpsat'][i]:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
