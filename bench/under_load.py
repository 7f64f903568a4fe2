"""The ladder under load: the same seeded heads-up games on an idle machine and while another
process keeps one core busy, compared record for record (issue 14).

    python -m bench.under_load --games 20 --seed 2026 --workers 2

For each heads-up pair of the ladder (adjacent levels and expert vs greedy, machiavelli unless
``--variant``) it plays the seeded tournament twice at the bots' default work budgets: first
as the machine is, then with a busy neighbour (a process spinning on one core) started by this
script. Each game's record is hashed (``records_sha256`` of the tournament summary hashes
them in game order), so equal digests mean byte-identical records: every level made the
same moves. It prints the two runs side by side (win rates, move times, the digests) and
writes the summaries to ``bench/results/under-load-<variant>-<games>x<seed>.json``. Exit
status 1 when any pair's records differ.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from bench.ladder import PAIRS, parse_pairs
from bots.arena.tournament import run_tournament

RESULTS = Path(__file__).parent / "results"
SPIN = "while True: pass"


def run_pairs(variant: str, pairs: list[tuple[str, str]], games: int, seed: int,
              workers: int) -> list[dict]:
    """One seeded heads-up tournament per pair, at the bots' default work budgets."""
    return [run_tournament(variant, list(pair), games, 2, seed, workers=workers)
            for pair in pairs]


def with_busy_core(run):
    """``run()`` while a process of ours spins on one core; the process is ended after."""
    spinner = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        time.sleep(0.5)  # let it take its core
        return run()
    finally:
        spinner.kill()
        spinner.wait()


def compare(idle: list[dict], busy: list[dict]) -> list[dict]:
    """Per pair: whether the records are the same, and both runs' figures."""
    rows = []
    for quiet, loaded in zip(idle, busy, strict=True):
        names = [row["name"] for row in quiet["bots"]]
        rows.append({
            "pair": names, "games": quiet["games"],
            "same_records": quiet["records_sha256"] == loaded["records_sha256"],
            "win_rate": {"idle": _rates(quiet), "busy": _rates(loaded)},
            "move_ms_median": {"idle": _field(quiet, "move_ms_median"),
                               "busy": _field(loaded, "move_ms_median")},
            "move_work_median": _field(quiet, "move_work_median"),
        })
    return rows


def _rates(summary: dict) -> dict[str, float]:
    return _field(summary, "win_rate")


def _field(summary: dict, key: str) -> dict:
    return {row["name"]: row[key] for row in summary["bots"]}


def print_table(rows: list[dict]) -> None:
    print("| pair | games | same records | stronger's win rate idle / busy | "
          "stronger's move ms idle / busy |")
    print("| --- | ---: | --- | --- | --- |")
    for row in rows:
        weaker, stronger = row["pair"]
        rate, ms = row["win_rate"], row["move_ms_median"]
        print(f"| {stronger} vs {weaker} | {row['games']} | "
              f"{'yes' if row['same_records'] else 'NO'} | "
              f"{rate['idle'][stronger]:.1%} / {rate['busy'][stronger]:.1%} | "
              f"{ms['idle'][stronger]:.1f} / {ms['busy'][stronger]:.1f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", default="machiavelli")
    parser.add_argument("--pairs", metavar="WEAKER:STRONGER,...",
                        help="pairs to play (default: adjacent levels and expert vs greedy)")
    parser.add_argument("--json", metavar="FILE", help="where to write the summaries")
    args = parser.parse_args(argv)
    pairs = parse_pairs(parser, args.pairs) or PAIRS
    started = time.perf_counter()
    idle = run_pairs(args.variant, pairs, args.games, args.seed, args.workers)
    busy = with_busy_core(lambda: run_pairs(args.variant, pairs, args.games, args.seed,
                                            args.workers))
    rows = compare(idle, busy)
    print_table(rows)
    print(f"({time.perf_counter() - started:.0f} s, {args.workers} workers, seed {args.seed})")
    path = Path(args.json) if args.json else \
        RESULTS / f"under-load-{args.variant}-{args.games}x{args.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"comparison": rows, "idle": idle, "busy": busy}, indent=1))
    return 0 if all(row["same_records"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
