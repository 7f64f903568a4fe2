"""Wall time of ``machiavelli solve ... --json`` on a full position, as a fresh process.

    python -m bench.cold_start --runs 10
    python -m bench.cold_start --runs 10 --against /path/to/other/checkout

The first run warms numba's cache (it compiles if the cache is empty) and Python's bytecode
cache; the runs after it are what a user sees. Prints the median and the worst of those.

``--against DIR`` runs the same installed command with ``DIR`` (another checkout of the
repository, say of main) first on ``PYTHONPATH``, alternating one process of each, and prints
both medians, of wall time and of CPU time, and their ratios: on a machine other processes
share, the ratio is the figure to quote. The other checkout warms its own numba cache in its
first run.

The processes run with Python's bytecode cache on, as an installed package runs (pip
byte-compiles what it installs): the variable ``PYTHONDONTWRITEBYTECODE``, which development
machines may set, is left out of their environment, since it makes every run compile the
package's modules from source again (about a tenth of a second). ``--no-bytecode-cache``
keeps it as it is.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

from bench.suite import suite
from solver.cards import format_cards, format_groups


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE in the processes' environment")
    parser.add_argument("--against", metavar="DIR",
                        help="another checkout to time side by side (first on PYTHONPATH)")
    args = parser.parse_args(argv)
    environment = dict(os.environ)
    if not args.no_bytecode_cache:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
    codes = {"this": environment}
    if args.against:
        codes["against"] = {**environment, "PYTHONPATH": os.pathsep.join(
            [os.path.abspath(args.against), environment.get("PYTHONPATH", "")])}
    position = next(p for size, _, p in suite() if size == "full")
    command = _entry_point()
    command += ["solve", "--variant", str(position.variant), "--table",
                format_groups(position.table), "--hand", format_cards(position.hand), "--json"]
    wall: dict[str, list[float]] = {name: [] for name in codes}
    cpu: dict[str, list[float]] = {name: [] for name in codes}
    for run in range(args.runs + 1):
        for name, env in codes.items():
            seconds, cpu_seconds = _one_process(command, env)
            if run:
                wall[name].append(seconds)
                cpu[name].append(cpu_seconds)
    times = wall["this"]
    print(f"machiavelli solve --json, full position ({len(position.table_cards)} table cards, "
          f"{len(position.hand)} in hand), {args.runs} fresh processes after one warm-up: "
          f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s"
          + (" (bytecode cache as the environment says)" if args.no_bytecode_cache else ""))
    if args.against:
        _print_against(args.against, wall, cpu)
    return 0


def _entry_point() -> list[str]:
    """The installed ``machiavelli`` command: the one beside this Python (its environment's),
    else the one on PATH, else ``python -m bots.app.cli``."""
    beside = os.path.join(os.path.dirname(sys.executable), "machiavelli")
    exe = beside if os.access(beside, os.X_OK) else shutil.which("machiavelli")
    return [exe] if exe else [sys.executable, "-m", "bots.app.cli"]


def _one_process(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh process of ``command`` (its output must be JSON)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    json.loads(done.stdout)
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _print_against(other: str, wall: dict[str, list[float]],
                   cpu: dict[str, list[float]]) -> None:
    """Both medians and their ratios (this checkout over the other)."""
    for label, samples in (("wall", wall), ("CPU", cpu)):
        this, that = statistics.median(samples["this"]), statistics.median(samples["against"])
        print(f"  {label}: median {this:.3f} s here, {that:.3f} s with {other}: "
              f"ratio {this / that:.2f}")


if __name__ == "__main__":
    sys.exit(main())
