"""CP-SAT on the suite's full tables, with the package's parameters and with CP-SAT's generated
cuts back on (the parameters before issue 12), side by side in one run.

Each position is solved by ``solve_position(..., backend="cpsat")`` (one worker: building the
model, solving, the layout and the re-check), alternating the two settings position by
position so that the machine's load falls on both alike; best of ``--repeat`` each. Both must
give the same score everywhere. Prints median and worst per setting, and their ratio.

    python -m bench.cpsat_cuts
    python -m bench.cpsat_cuts --sizes large full --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bench.compare import time_best
from bench.suite import SIZES, suite
from solver import cpsat, solve_position

SETTINGS = {"cuts off (now)": cpsat.CUT_LEVEL, "cuts on (before)": 1}


def measure(sizes: tuple[str, ...], repeat: int) -> dict[str, list[float]]:
    """Milliseconds per position for each setting (``SETTINGS``), positions in suite order."""
    positions = [position for size, _, position in suite() if size in sizes]
    solve_position(positions[0], "cards", "cpsat")  # OR-Tools' import: not a solve
    times: dict[str, list[float]] = {name: [] for name in SETTINGS}
    for position in positions:
        scores = set()
        for name, level in SETTINGS.items():
            cpsat.CUT_LEVEL = level
            try:
                ms, solution = time_best(lambda p=position: solve_position(p, "cards", "cpsat"),
                                         repeat)
            finally:
                cpsat.CUT_LEVEL = SETTINGS["cuts off (now)"]
            times[name].append(ms)
            scores.add(solution.score)
        if len(scores) != 1:
            raise SystemExit(f"the settings disagree on {position}: {scores}")
    return times


def summarize(times: dict[str, list[float]]) -> str:
    """One line per setting: median and worst; then the ratios of before over now."""
    lines = ["| CP-SAT (one worker) | positions | median ms | max ms |",
             "| --- | ---: | ---: | ---: |"]
    for name, values in times.items():
        lines.append(f"| {name} | {len(values)} | {statistics.median(values):.1f} | "
                     f"{max(values):.1f} |")
    now, before = (times[name] for name in SETTINGS)
    lines.append("")
    lines.append(f"before / now: median {statistics.median(before) / statistics.median(now):.2f}x,"
                 f" worst {max(before) / max(now):.2f}x")
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
