"""The ladder's acceptance runs: who beats whom, by how much, and how fast they move.

    python -m bench.ladder heads-up  --games 400 --seed 2026   # adjacent levels, machiavelli
    python -m bench.ladder four      --games 400 --seed 2026   # levels 2-5 at one table
    python -m bench.ladder variants  --games 200 --seed 2026   # adjacent pairs, every variant
    python -m bench.ladder anchor    --games 200 --seed 2026   # expert vs OpenSpiel's IS-MCTS
    python -m bench.ladder times     --games 2                 # expert's move times, CPU too
    python -m bench.ladder all       ...                        # heads-up, four, variants

Every run is a seeded tournament with duplicate deals (``bots.arena.tournament``) at the bots'
default work budgets (the same moves on a busy machine as on an idle one); ``--budget S``
gives the searching bots S seconds per move on the clock instead. The tables are printed in
Markdown for the README, and every summary is written to ``bench/results/`` (or ``--json
FILE``). ``anchor`` needs the ``ismcts`` level (OpenSpiel's IS-MCTS through the OpenSpiel
adapter, ``bots.envs``): it plays a fixed number of simulations a move (reproducible), by
default calibrated first so that its median move takes as long as the expert's on the same
decisions (``--simulations N`` to fix it), so that both think for the same time per move.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bots.arena.tournament import run_tournament
from bots.players import REGISTRY
from bots.referee.actions import Play
from solver.variants import VARIANT_NAMES

LEVELS = ["random", "beginner", "greedy", "planner", "expert"]
PAIRS = [(LEVELS[i], LEVELS[i + 1]) for i in range(len(LEVELS) - 1)] + [("greedy", "expert")]
ANCHOR = "ismcts"  # OpenSpiel's IS-MCTS level, seated by the OpenSpiel adapter (bots.envs)
RESULTS = Path(__file__).parent / "results"


def _row(summary: dict, name: str) -> dict:
    return next(row for row in summary["bots"] if row["name"] == name)


def _pair_line(summary: dict, weaker: str, stronger: str, label: str = "") -> str:
    row = _row(summary, stronger)
    lo, hi = row["ci95"]
    return (f"| {label}{stronger} vs {weaker} | {summary['games']} | {row['wins']:.1f} | "
            f"{row['win_rate']:.1%} | {lo:.1%}-{hi:.1%} | {row['move_ms_median']:.1f} | "
            f"{row['move_ms_max']:.0f} | {row['move_work_median']} |")


def _pair_header(what: str) -> None:
    print(f"| pair ({what}) | games | stronger wins | win rate | 95% interval | "
          "stronger's move ms median | max | work median |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")


def heads_up(games: int, budget: float | None, workers: int, seed: int,
             pairs: list[tuple[str, str]] | None = None,
             variant: str = "machiavelli") -> list[dict]:
    """Each pair heads-up on ``games`` duplicate deals."""
    _pair_header(f"{variant}, heads-up")
    results = []
    for weaker, stronger in pairs or PAIRS:
        summary = run_tournament(variant, [weaker, stronger], games, 2, seed,
                                 workers=workers, budget=budget)
        print(_pair_line(summary, weaker, stronger), flush=True)
        results.append(summary)
    return results


def four_players(games: int, budget: float | None, workers: int, seed: int) -> list[dict]:
    bots = LEVELS[1:]
    summary = run_tournament("machiavelli", bots, games, 4, seed, workers=workers,
                             budget=budget)
    print("| bot (machiavelli, 4 players) | games | wins | win rate | 95% interval | rating | "
          "move ms median | move ms max | work median |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for name in bots:
        row = _row(summary, name)
        lo, hi = row["ci95"]
        print(f"| {name} | {row['games']} | {row['wins']:.1f} | {row['win_rate']:.1%} | "
              f"{lo:.1%}-{hi:.1%} | {row['rating']:.2f} | {row['move_ms_median']:.1f} | "
              f"{row['move_ms_max']:.0f} | {row['move_work_median']} |", flush=True)
    return [summary]


def every_variant(games: int, budget: float | None, workers: int, seed: int,
                  pairs: list[tuple[str, str]] | None = None,
                  variants: list[str] | None = None) -> list[dict]:
    """Each pair heads-up on ``games`` duplicate deals in each variant."""
    _pair_header("heads-up")
    results = []
    for variant in variants or VARIANT_NAMES:
        for weaker, stronger in pairs or PAIRS:
            summary = run_tournament(variant, [weaker, stronger], games, 2, seed,
                                     workers=workers, budget=budget)
            print(_pair_line(summary, weaker, stronger, f"{variant}: "), flush=True)
            results.append(summary)
    return results


def anchor(games: int, budget: float | None, workers: int, seed: int,
           simulations: int | None = None) -> list[dict]:
    """Expert vs OpenSpiel's IS-MCTS, heads-up in machiavelli, with the same time per move:
    the expert at its default work (or ``budget`` seconds on the clock), IS-MCTS at
    ``simulations`` per move, by default calibrated so that its median move takes the
    expert's median move time (``calibrate``). The tournament's move times show both."""
    try:
        from bots.envs.levels import check_level  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise SystemExit(f"no {ANCHOR!r} level: the OpenSpiel adapter (issue 13, "
                         "bots.envs.levels) seats it") from None
    check_level(ANCHOR)  # one line naming the extra to install when OpenSpiel is missing
    from bots.envs import ismcts

    if simulations is None:
        expert_ms, per_simulation_ms, simulations = calibrate(seed, budget)
        print(f"(calibration: expert median move {expert_ms:.1f} ms, IS-MCTS "
              f"{per_simulation_ms:.2f} ms a simulation: {simulations} simulations a move)")
    ismcts.SIMULATIONS = simulations  # read when the level is seated (workers fork after)
    results = heads_up(games, budget, workers, seed, [(ANCHOR, "expert")])
    for summary in results:
        summary["ismcts_simulations"] = simulations
    return results


CALIBRATION_MOVES = 24  # decisions both bots are timed on before an anchor run
CALIBRATION_SIMULATIONS = 8  # IS-MCTS simulations a calibration move plays
MIN_SIMULATIONS = 2  # OpenSpiel's IS-MCTS needs two to have visited the root's children


def calibrate(seed: int, budget: float | None) -> tuple[float, float, int]:
    """(the expert's median move ms, IS-MCTS's median ms per simulation, the simulations a
    move that give IS-MCTS the expert's median move time, at least ``MIN_SIMULATIONS``) over
    the same decisions: the turns of seeded greedy games where a play exists."""
    from bots.envs.ismcts import IsmctsBot
    from bots.players import make_bot

    observations = _decisions(seed, CALIBRATION_MOVES)
    expert = make_bot("expert", seed, budget)
    expert_ms = _median_ms(expert.choose, observations)
    searcher = IsmctsBot(seed, CALIBRATION_SIMULATIONS)
    searcher.choose(observations[0])  # OpenSpiel's game loads once
    per_simulation = _median_ms(searcher.choose, observations) / CALIBRATION_SIMULATIONS
    return expert_ms, per_simulation, max(MIN_SIMULATIONS, round(expert_ms / per_simulation))


def _decisions(seed: int, count: int) -> list:
    """``count`` observations where a play exists (greedy plays), from seeded greedy
    self-play: the moves where the bots have something to decide."""
    from bots.arena.loop import run_bots
    from bots.players.greedy import GreedyBot
    from bots.referee.game import Game

    seen: list = []

    class Recorder(GreedyBot):
        def choose(self, observation):
            action = super().choose(observation)
            if isinstance(action, Play):  # a decision: something can be played
                seen.append(observation)
            return action

    game_seed = seed
    while len(seen) < count:
        run_bots(Game("machiavelli", ["a", "b"], game_seed), [Recorder(game_seed)] * 2)
        game_seed += 1
    return seen[:count]


def _median_ms(choose, observations: list) -> float:
    times = []
    for observation in observations:
        started = time.perf_counter()
        choose(observation)
        times.append((time.perf_counter() - started) * 1000)
    return float(statistics.median(times))


def move_times(games: int, variants: list[str] | None = None) -> list[dict]:
    """The expert's move times at its defaults in every variant: ``games`` seeded games
    (seeds 0, 1, ...) against greedy in one process, each ``choose`` timed on the wall clock
    and in CPU seconds (``time.process_time``: what the move costs on an idle machine, the
    clock of a busy one counting the neighbours' turns too), with its work."""
    print("| variant | expert moves | CPU ms median | CPU ms worst | wall ms median | "
          "wall ms worst | work median | work worst |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    results = []
    for variant in variants or VARIANT_NAMES:
        summary = _time_variant(variant, games)
        cpu, wall, work = summary["cpu_ms"], summary["wall_ms"], summary["work"]
        print(f"| {variant} | {summary['moves']} | {cpu[0]:.1f} | {cpu[1]:.0f} | "
              f"{wall[0]:.1f} | {wall[1]:.0f} | {work[0]:.0f} | {work[1]} |", flush=True)
        results.append(summary)
    return results


def _time_variant(variant: str, games: int) -> dict:
    """``move_times`` for one variant: median and worst of each measure."""
    from bots.arena.loop import run_bots
    from bots.players.expert import ExpertBot
    from bots.players.greedy import GreedyBot
    from bots.players.work import work_done
    from bots.referee.game import Game

    rows: list[tuple[float, float, int]] = []
    for seed in range(games):
        expert = ExpertBot(seed)

        def timed(observation, choose=expert.choose):
            cpu, wall, work = time.process_time(), time.perf_counter(), work_done()
            action = choose(observation)
            rows.append((1000 * (time.process_time() - cpu),
                         1000 * (time.perf_counter() - wall), work_done() - work))
            return action

        expert.choose = timed  # type: ignore[method-assign]
        run_bots(Game(variant, ["expert", "greedy"], seed), [expert, GreedyBot(seed)])
    cpu, wall, work = (sorted(column) for column in zip(*rows, strict=True))
    return {"variant": variant, "games": games, "moves": len(rows),
            "cpu_ms": [statistics.median(cpu), cpu[-1]],
            "wall_ms": [statistics.median(wall), wall[-1]],
            "work": [statistics.median(work), work[-1]]}


def parse_pairs(parser: argparse.ArgumentParser, text: str | None
                ) -> list[tuple[str, str]] | None:
    """``WEAKER:STRONGER,...`` as pairs of levels (a parser error for anything else)."""
    if not text:
        return None
    pairs = [tuple(pair.split(":")) for pair in text.split(",")]
    unknown = [name for pair in pairs for name in pair if name not in REGISTRY]
    if unknown or any(len(pair) != 2 for pair in pairs):
        parser.error(f"bad --pairs {text!r}: each is WEAKER:STRONGER, levels "
                     f"{', '.join(REGISTRY)}")
    return [(pair[0], pair[1]) for pair in pairs]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", choices=("heads-up", "four", "variants", "anchor", "times",
                                        "all"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per move on the clock (default: the bots' work budgets)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", metavar="FILE", help="where to write every summary")
    parser.add_argument("--pairs", metavar="WEAKER:STRONGER,...",
                        help="heads-up pairs to play (default: adjacent levels and "
                             "expert vs greedy), e.g. planner:expert,greedy:expert")
    parser.add_argument("--variants", metavar="V,...", help="variants for 'variants' and 'times' "
                        "(default: all eight)")
    parser.add_argument("--simulations", type=int, default=None,
                        help="IS-MCTS simulations a move for 'anchor' (default: calibrated "
                             "to the expert's median move time)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    pairs = parse_pairs(parser, args.pairs)
    runs = {"heads-up": lambda: heads_up(args.games, args.budget, args.workers, args.seed,
                                         pairs),
            "four": lambda: four_players(args.games, args.budget, args.workers, args.seed),
            "variants": lambda: every_variant(
                args.games, args.budget, args.workers, args.seed, pairs,
                args.variants.split(",") if args.variants else None),
            "anchor": lambda: anchor(args.games, args.budget, args.workers, args.seed,
                                     args.simulations),
            "times": lambda: move_times(args.games, args.variants.split(",")
                                        if args.variants else None)}
    summaries = []
    for name in (["heads-up", "four", "variants"] if args.run == "all" else [args.run]):
        summaries += runs[name]()
        print()
    clock = "work budgets" if args.budget is None else f"{args.budget} s per move"
    print(f"({time.perf_counter() - started:.0f} s, {args.workers} workers, {clock}, "
          f"seed {args.seed})")
    path = Path(args.json) if args.json else \
        RESULTS / f"ladder-{args.run}-{args.games}x{args.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summaries, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
