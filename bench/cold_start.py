"""Wall time of ``machiavelli solve ... --json`` on a full position, as a fresh process.

    python -m bench.cold_start --runs 10

The first run warms numba's cache (it compiles if the cache is empty) and Python's bytecode
cache; the runs after it are what a user sees. Prints the median and the worst of those.

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
    args = parser.parse_args(argv)
    environment = dict(os.environ)
    if not args.no_bytecode_cache:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
    position = next(p for size, _, p in suite() if size == "full")
    exe = shutil.which("machiavelli")
    command = [exe] if exe else [sys.executable, "-m", "bots.app.cli"]
    command += ["solve", "--variant", str(position.variant), "--table",
                format_groups(position.table), "--hand", format_cards(position.hand), "--json"]
    times = []
    for run in range(args.runs + 1):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True,
                              env=environment)
        elapsed = time.perf_counter() - started
        json.loads(done.stdout)
        if run:
            times.append(elapsed)
    print(f"machiavelli solve --json, full position ({len(position.table_cards)} table cards, "
          f"{len(position.hand)} in hand), {args.runs} fresh processes after one warm-up: "
          f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s"
          + (" (bytecode cache as the environment says)" if args.no_bytecode_cache else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
