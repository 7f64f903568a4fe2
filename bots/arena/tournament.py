"""Matches between bots: seat-rotated games in parallel, win rates, ratings, move times.

Game ``g`` seats the bot list rotated by ``g`` (the first ``players`` of it), so every bot
plays every seat equally often. Deals are duplicated, as in duplicate bridge: game ``g`` is
dealt from seed ``seed + g // players``, so each deal is played once per rotation and the luck
of the deal largely cancels out. Results are reproducible from the seed whatever the number
of workers (they are gathered in game order before rating).
Ratings are OpenSkill's Plackett-Luce model, updated game by game from the finishing order
(better score first, ties shared). Win rates carry a 95% Wilson interval; a shared win counts
as a fraction.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bots.arena.heap import freeze_loaded
from bots.arena.loop import run_bots
from bots.envs.levels import make_level
from bots.players.base import Bot
from bots.players.work import work_done
from bots.referee.actions import Action
from bots.referee.game import Game
from bots.referee.observation import Observation
from bots.referee.record import dumps
from bots.referee.scoring import lower_is_better
from solver.variants import Variant
from solver.warmup import load_cpsat


@dataclass
class GameOutcome:
    """One game's result for each seat, and the bots' move times."""

    game: int
    bots: list[str]
    scores: list[int]
    winners: list[bool]
    move_ms: dict[str, list[float]] = field(default_factory=dict)
    move_work: dict[str, list[int]] = field(default_factory=dict)
    """Work per move (``bots.players.work``: solver searches and kernel nodes), by bot."""
    record_sha256: str = ""
    """Digest of the game's record: equal digests, byte-identical records."""


class _Metered:
    """A bot whose every move's work (``bots.players.work``) is written down."""

    def __init__(self, bot: Bot, log: list[int]) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def choose(self, observation: Observation) -> Action:
        before = work_done()
        action = self.bot.choose(observation)
        self.log.append(work_done() - before)
        return action


def lineup(bots: Sequence[str], players: int, game: int) -> list[str]:
    """The bots seated in game ``game``: the list rotated by ``game``, cycled to fill."""
    rotated = [bots[(game + i) % len(bots)] for i in range(max(players, len(bots)))]
    return rotated[:players]


def play_one(variant: str, bots: Sequence[str], players: int, seed: int, game: int,
             budget: float | None = None) -> GameOutcome:
    """Play game ``game`` of a tournament through the play loop (``bots.arena.loop``) and
    time every move (the bot's ``choose`` call). A bot's illegal move, or a game that does not
    end, raises ``BotError``."""
    seats = lineup(bots, players, game)
    deal = seed + game // players
    seeds = np.random.SeedSequence(deal).spawn(players)
    players_ = [make_level(name, int(s.generate_state(1)[0]), budget=budget)
                for name, s in zip(seats, seeds, strict=True)]
    names = [f"{name}-{i + 1}" for i, name in enumerate(seats)]
    state = Game(variant, names, deal)
    _warm_up(state, seats, budget)
    times: dict[str, list[float]] = {name: [] for name in set(seats)}
    work: dict[str, list[int]] = {name: [] for name in set(seats)}
    metered = [_Metered(bot, work[name]) for bot, name in zip(players_, seats, strict=True)]
    run_bots(state, metered, on_choose=lambda seat, ms: times[seats[seat]].append(ms))
    results = state.results()
    digest = hashlib.sha256(dumps(state.record()).encode()).hexdigest()
    return GameOutcome(game, seats, [r["score"] for r in results],
                       [r["winner"] for r in results], times, work, digest)


_WARM: set[tuple[str, str]] = set()


def _warm_up(state: Game, seats: Sequence[str], budget: float | None) -> None:
    """Let each bot make one throwaway move per process before its moves are timed: a fresh
    process pays numba's cache load (and OR-Tools' import) on its first calls. The bots of
    the game are untouched, so results stay reproducible. With jokers a solve can reach CP-SAT
    (positions beyond the kernel, ``solver.api``): OR-Tools is imported here too, so no timed
    move pays its import (a few seconds on a busy machine). What the warm-up loaded is then
    frozen out of the collector's full passes (``bots.arena.heap``: 70-100 ms each, or a slow
    move's worth, on a loaded machine); the game about to start is frozen with it, one small
    object per variant and bot a process warms."""
    if state.variant.has_jokers:
        load_cpsat()
    loaded = False
    for name in seats:
        key = (str(state.variant), name)
        if key not in _WARM:
            _WARM.add(key)
            make_level(name, 0, budget).choose(state.observation(state.current_player))
            loaded = True
    if loaded:
        freeze_loaded()


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(variant: Variant, bots: Sequence[str], outcomes: Iterable[GameOutcome],
              seed: int) -> dict[str, Any]:
    """The tournament's JSON summary (see ``machiavelli tournament --json``)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bots}
    games: dict[str, int] = dict.fromkeys(bots, 0)
    wins: dict[str, float] = dict.fromkeys(bots, 0.0)
    scores: dict[str, list[int]] = {name: [] for name in bots}
    moves: dict[str, list[float]] = {name: [] for name in bots}
    work: dict[str, list[int]] = {name: [] for name in bots}
    total = 0
    records = hashlib.sha256()
    for outcome in sorted(outcomes, key=lambda o: o.game):
        total += 1
        records.update(outcome.record_sha256.encode())
        shared = max(1, sum(outcome.winners))
        for name, score, won in zip(outcome.bots, outcome.scores, outcome.winners, strict=True):
            games[name] += 1
            wins[name] += (1 / shared) if won else 0.0
            scores[name].append(score)
        for name, times in outcome.move_ms.items():
            moves[name].extend(times)
        for name, counts in outcome.move_work.items():
            work[name].extend(counts)
        # OpenSkill ranks teams; a bot seated twice plays as two teams of itself.
        sign = 1 if lower_is_better(variant) else -1
        ranks = [(0 if won else 1, sign * score)
                 for won, score in zip(outcome.winners, outcome.scores, strict=True)]
        order = sorted(set(ranks))
        teams = [[ratings[name]] for name in outcome.bots]
        updated = model.rate(teams, ranks=[order.index(r) for r in ranks])
        for name, team in zip(outcome.bots, updated, strict=True):
            ratings[name] = team[0]
    rows = []
    for name in bots:
        rate = wins[name] / games[name] if games[name] else 0.0
        rows.append({
            "name": name, "games": games[name], "wins": round(wins[name], 3),
            "win_rate": round(rate, 4),
            "ci95": [round(v, 4) for v in wilson(wins[name], games[name])],
            "mean_score": round(statistics.fmean(scores[name]), 3) if scores[name] else 0.0,
            "rating": round(ratings[name].ordinal(), 3),
            "move_ms_median": round(statistics.median(moves[name]), 3) if moves[name] else 0.0,
            "move_ms_max": round(max(moves[name]), 3) if moves[name] else 0.0,
            "move_work_median": statistics.median(work[name]) if work[name] else 0,
            "move_work_max": max(work[name], default=0),
        })
    # "rating" is OpenSkill's ordinal (mu - 3 sigma); mu and sigma give its interval
    spread = {name: {"mu": round(ratings[name].mu, 3), "sigma": round(ratings[name].sigma, 3)}
              for name in bots}
    return {"games": total, "seed": seed, "variant": str(variant), "bots": rows,
            "ratings": spread, "records_sha256": records.hexdigest()}


def run_tournament(variant: str, bots: Sequence[str], games: int, players: int, seed: int,
                   workers: int = 1, ray_address: str | None = None,
                   budget: float | None = None,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` seat-rotated games and summarize them."""
    rules = Variant.parse(variant)
    jobs = [(str(rules), list(bots), players, seed, g, budget) for g in range(games)]
    outcomes: list[GameOutcome] = []
    if ray_address:
        outcomes = _run_on_ray(jobs, ray_address, progress)
    elif workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            for done, outcome in enumerate(pool.imap_unordered(_job, jobs), start=1):
                outcomes.append(outcome)
                if progress:
                    progress(done, games)
    else:
        for done, job in enumerate(jobs, start=1):
            outcomes.append(_job(job))
            if progress:
                progress(done, games)
    return summarize(rules, list(dict.fromkeys(bots)), outcomes, seed)


def _job(job: tuple) -> GameOutcome:
    return play_one(*job)


def _run_on_ray(jobs: list[tuple], address: str, progress) -> list[GameOutcome]:
    """Run the games as Ray tasks (``pip install 'machiavelli-engine[ray]'``)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'machiavelli-engine[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote = ray.remote(_job)
        pending = [remote.remote(job) for job in jobs]
        outcomes = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            outcomes.extend(ray.get(done))
            if progress:
                progress(len(outcomes), len(jobs))
        return outcomes
    finally:
        if started_here:
            ray.shutdown()
