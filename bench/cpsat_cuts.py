"""CP-SAT on the suite's full tables with the package's parameters and with the parameters it
replaced, side by side in one run.

The settings (``SETTINGS``): the package's (no generated cuts, no presolve), presolve on as
before 2026-12-06, and CP-SAT's generated cuts on as well, as before issue 12. Each position
is solved by ``solve_position(..., backend="cpsat")`` (one worker: building the model,
solving, the layout and the re-check), alternating the settings position by position so that
the machine's load falls on all alike; best of ``--repeat`` each. All must give the same
score everywhere. Prints median and worst per setting, and each earlier setting's ratio to
the package's.

    python -m bench.cpsat_cuts
    python -m bench.cpsat_cuts --sizes large full --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from bench.compare import time_best
from bench.suite import SIZES, suite
from solver import cpsat, solve_position

NOW = "package (no cuts, no presolve)"
SETTINGS: dict[str, dict[str, object]] = {
    NOW: {},
    "presolve on (before 2026-12-06)": {"PRESOLVE": True},
    "cuts and presolve on (before issue 12)": {"PRESOLVE": True, "CUT_LEVEL": 1},
}
"""Each setting: the ``solver.cpsat`` parameters (module constants) it changes."""


@contextmanager
def parameters(changes: dict[str, object]) -> Iterator[None]:
    """``solver.cpsat``'s parameters changed as ``changes`` says, restored on the way out."""
    saved = {name: getattr(cpsat, name) for name in changes}
    try:
        for name, value in changes.items():
            setattr(cpsat, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(cpsat, name, value)


def measure(sizes: tuple[str, ...], repeat: int) -> dict[str, list[float]]:
    """Milliseconds per position for each setting (``SETTINGS``), positions in suite order."""
    positions = [position for size, _, position in suite() if size in sizes]
    solve_position(positions[0], "cards", "cpsat")  # OR-Tools' import: not a solve
    times: dict[str, list[float]] = {name: [] for name in SETTINGS}
    for position in positions:
        scores = set()
        for name, changes in SETTINGS.items():
            with parameters(changes):
                ms, solution = time_best(lambda p=position: solve_position(p, "cards", "cpsat"),
                                         repeat)
            times[name].append(ms)
            scores.add(solution.score)
        if len(scores) != 1:
            raise SystemExit(f"the settings disagree on {position}: {scores}")
    return times


def summarize(times: dict[str, list[float]]) -> str:
    """One line per setting: median and worst; then each earlier setting over the package's."""
    lines = ["| CP-SAT (one worker) | positions | median ms | max ms |",
             "| --- | ---: | ---: | ---: |"]
    for name, values in times.items():
        lines.append(f"| {name} | {len(values)} | {statistics.median(values):.1f} | "
                     f"{max(values):.1f} |")
    now = times[NOW]
    lines.append("")
    for name, before in times.items():
        if name != NOW:
            lines.append(f"{name} / package: median "
                         f"{statistics.median(before) / statistics.median(now):.2f}x, "
                         f"worst {max(before) / max(now):.2f}x")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", choices=list(SIZES), default=["full"])
    parser.add_argument("--repeat", type=int, default=2, help="timings per position (best kept)")
    args = parser.parse_args(argv)
    print(summarize(measure(tuple(args.sizes), args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
