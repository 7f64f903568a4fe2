"""Hint speed of this checkout against another, interleaved per position: ``bench.hint``'s
positions (60+ table cards), each ``hint_position`` call timed in thread CPU time, best of
``--best``, by two worker processes (one per checkout) taking turns position by position (who
goes first alternates), so that both see the same load. Also times the kernel's
lexicographic search alone on the kernel-hinted positions (``lex_hint.search_tables``, then
``kernel_lex.search`` capped at ``hint.LEX_WORK``, as the hint runs it), so that a hint's
fixed cost, the hint less its search, can be compared; and checks that both give the same
hints (engine, value and disturbance, the new table and the steps).

    python -m bench.hint_against /path/to/other/checkout --best 5

Prints, for all positions and for the kernel-hinted ones: each side's median and 90th
percentile in ms and the per-position ratio this / other (median and 90th percentile).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from importlib import import_module
from typing import Any

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _search_ms(position: Any, best_of: int) -> float | None:
    """The lexicographic search alone on ``position`` (thread CPU ms, best of ``best_of``),
    or None where the kernel's play plays nothing or the search does not apply."""
    from solver import automaton, kernel_backend, kernel_lex, lex_hint
    from solver.problem import Problem
    hint = import_module("solver.hint")
    problem = Problem.from_position(position)
    groups = list(problem.table_groups)
    if not lex_hint.applies(problem, groups):
        return None
    best = kernel_backend.solve(problem)
    if not best.played.any():
        return None
    tables, parts, each, big = lex_hint.search_tables(problem, groups, best.score)
    if tables is None:
        return None
    floor = best.score * big + int(each[lex_hint._kept(groups, best)].sum()) - 1
    states = automaton.suit_states(lex_hint._copies(problem))
    fastest = float("inf")
    for _ in range(best_of):
        started = time.thread_time()
        kernel_lex.search(tables, floor, hint.LEX_WORK, states, parts[5])
        fastest = min(fastest, time.thread_time() - started)
    return fastest * 1000


def worker() -> None:
    """Answer lines ``index best_of`` on stdin with one JSON line each: the hint's best
    time, its engine, disturbance, table and steps, and the search's time alone."""
    from bench.hint import big_positions, disturbance
    hint_position = import_module("solver.hint").hint_position
    positions = big_positions()
    for position in positions:  # load every kernel and warm the caches
        hint_position(position)
    print("ready", flush=True)
    for line in sys.stdin:
        index, best_of = map(int, line.split())
        position = positions[index]
        fastest = float("inf")
        for _ in range(best_of):
            started = time.thread_time()
            result = hint_position(position)
            fastest = min(fastest, time.thread_time() - started)
        search = _search_ms(position, best_of) if result.solution.backend == "kernel" else None
        print(json.dumps([fastest * 1000, result.solution.backend,
                          disturbance(position, result),
                          [[str(card) for card in group] for group in result.solution.table],
                          result.steps, search]), flush=True)


def _start(tree: str) -> subprocess.Popen:
    """A worker on ``tree``'s code: this file run as a script (the other checkout may not
    have it), ``tree`` first on the path."""
    environment = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                               cwd=os.path.abspath(tree), env=environment, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def _ask(process: subprocess.Popen, index: int, best_of: int) -> list:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{index} {best_of}\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", nargs="?", help="the other checkout's directory")
    parser.add_argument("--best", type=int, default=3, help="timings per position (best of)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return 0
    if not args.other:
        parser.error("the other checkout's directory is required")
    from bench.hint import big_positions
    count = len(big_positions())
    sides = {"this": _start(HERE), "other": _start(args.other)}
    got: dict[str, list[list]] = {"this": [], "other": []}
    for index in range(count):
        for side in (("this", "other") if index % 2 else ("other", "this")):
            got[side].append(_ask(sides[side], index, args.best))
    for process in sides.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    this, other = got["this"], got["other"]
    kernel = [i for i in range(count) if other[i][1] == "kernel"]
    for label, chosen in ((f"all {count}", range(count)), (f"kernel-hinted {len(kernel)}", kernel)):
        mine, theirs = [this[i][0] for i in chosen], [other[i][0] for i in chosen]
        ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
        print(f"{label}: this median {statistics.median(mine):.3f} p90 {_p90(mine):.3f} ms, "
              f"other median {statistics.median(theirs):.3f} p90 {_p90(theirs):.3f} ms; "
              f"this / other per position: median {statistics.median(ratios):.3f} "
              f"p90 {_p90(ratios):.3f}")
    timed = [i for i in kernel if this[i][5] is not None and other[i][5] is not None]
    if timed:
        fixed = {name: [side[i][0] - side[i][5] for i in timed]
                 for name, side in (("this", this), ("other", other))}
        print(f"kernel-hinted, the hint less its search alone ({len(timed)} positions): this "
              f"median {statistics.median(fixed['this']):.3f} ms, other "
              f"{statistics.median(fixed['other']):.3f} ms; the search alone: this "
              f"{statistics.median(this[i][5] for i in timed):.3f}, other "
              f"{statistics.median(other[i][5] for i in timed):.3f} ms")
    same = sum(a[1:5] == b[1:5] for a, b in zip(this, other, strict=True))
    print(f"the same hints (engine, disturbance, table, steps): {same} of {count}; "
          f"load average {os.getloadavg()[0]:.2f}")
    return 0 if same == count else 1


if __name__ == "__main__":
    sys.exit(main())
