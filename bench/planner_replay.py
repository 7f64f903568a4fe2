"""Where the planner and greedy differ, and which choice wins (issue 14).

    python -m bench.planner_replay --variant shanghai --games 40 --worlds 50 --seed 2026

Plays the ladder's greedy-vs-planner games (the seats and deals of ``bench.ladder variants``:
``bots.arena.tournament``) and, at every planner move that greedy would make otherwise (its
biggest play), plays both choices out from that position many times: each world is one
seeded guess at the unseen cards (``ExpertBot.deal``: the opponent's hand and the stock order,
consistent with what the planner has seen), both choices are played in the same worlds, and
both players then go on greedily to the end of the hand (``bots.players.sim``). It reports how
often the two bots' moves differ, and by kind of difference (drawing instead of playing, fewer
cards, as many cards, more) the hand-win rate of each choice and the mean points difference
at the hand's end (own points minus the opponent's: lower is better). A positive win
difference says the planner's choice was better than greedy's where they differed.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict

import numpy as np

from bots.arena.loop import run_bots
from bots.arena.tournament import lineup
from bots.envs.levels import make_level
from bots.players.expert import ExpertBot, World
from bots.players.greedy import GreedyBot
from bots.players.planner import PlannerBot
from bots.players.sim import GREEDY, SimState
from bots.players.sim import Play as SimPlay
from bots.referee.actions import Action, Play
from bots.referee.game import Game
from bots.referee.observation import Observation

MAX_ROUNDS = 300  # rounds a playout may last (a hand ends long before)


def kind(planner: Action, greedy: Action) -> str:
    """How the planner's move differs from greedy's."""
    if not isinstance(planner, Play):
        return "draws instead"
    mine = len(planner.played)
    theirs = len(greedy.played) if isinstance(greedy, Play) else 0
    return "fewer cards" if mine < theirs else "as many cards" if mine == theirs else "more"


def same(one: Action, other: Action) -> bool:
    """Whether two moves put the same cards on the table (or are both no play)."""
    if isinstance(one, Play) and isinstance(other, Play):
        return sorted(map(str, one.played)) == sorted(map(str, other.played))
    return isinstance(one, Play) == isinstance(other, Play)


def play_out(observation: Observation, world: World, move: Action) -> tuple[float, int]:
    """``move`` in ``world``, then greedy on both sides to the hand's end: the mover's share
    of the hand's win and its points minus the opponent's (docs/rules.md §7)."""
    me = observation.player
    state = SimState(observation.variant, [hand.copy() for hand in world.hands],
                     [tuple(card.code for card in group) for group in observation.table],
                     list(world.stock), me, list(observation.opened),
                     [GREEDY] * len(world.hands), list(world.jokers))
    if isinstance(move, Play):
        state.play(me, SimPlay.of(move.played, move.table))
    else:
        state.draw(me, 2 if observation.variant.turn == "guadalupe" else 1)
    state.current = (me + 1) % len(world.hands)
    for _ in range(MAX_ROUNDS * len(world.hands)):
        if state.over:
            break
        state.step()
    points = [0 if state.winner == i else state.hand_value(i) for i in range(len(world.hands))]
    rival = min(p for i, p in enumerate(points) if i != me)
    return state.outcome(me), points[me] - rival


class ReplayingPlanner:
    """The planner level, playing its own moves, that replays every move greedy would make
    otherwise against its own (``worlds`` seeded deals each)."""

    name = "planner"

    def __init__(self, seed: int, worlds: int) -> None:
        self.planner, self.greedy = PlannerBot(seed), GreedyBot(seed)
        self.dealer = ExpertBot(seed)  # its seeded deals of the unseen cards
        self.worlds, self.moves = worlds, 0
        self.rows: list[dict] = []

    def choose(self, observation: Observation) -> Action:
        choice = self.planner.decide(observation)[0]
        if "play" in observation.legal:
            self.moves += 1
            other = self.greedy.choose(observation)
            if not same(choice, other):
                self.rows.append(self.replay(observation, choice, other))
        return choice

    def replay(self, observation: Observation, choice: Action, other: Action) -> dict:
        """Both moves played out in the same seeded worlds."""
        mine, theirs = [], []
        for _ in range(self.worlds):
            world = self.dealer.deal(observation)
            mine.append(play_out(observation, world, choice))
            theirs.append(play_out(observation, world, other))
        return {"kind": kind(choice, other), "hand": len(observation.hand),
                "planner": str(choice), "greedy": str(other),
                "win_gain": [a[0] - b[0] for a, b in zip(mine, theirs, strict=True)],
                "points_gain": [a[1] - b[1] for a, b in zip(mine, theirs, strict=True)]}


def replay_game(variant: str, seed: int, game: int, worlds: int) -> dict:
    """Game ``game`` of the ladder's greedy-vs-planner tournament, replayed where they differ."""
    seats = lineup(["greedy", "planner"], 2, game)
    deal = seed + game // 2
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(deal).spawn(2)]
    bots = [ReplayingPlanner(s, worlds) if name == "planner" else make_level(name, s)
            for name, s in zip(seats, seeds, strict=True)]
    state = Game(variant, [f"{name}-{i + 1}" for i, name in enumerate(seats)], deal)
    run_bots(state, bots)
    seat = seats.index("planner")
    spy = bots[seat]
    assert isinstance(spy, ReplayingPlanner)
    return {"game": game, "won": state.results()[seat]["winner"], "moves": spy.moves,
            "rows": spy.rows}


def summary(variant: str, games: list[dict]) -> list[str]:
    """Markdown lines: how often the moves differ, and each kind's gains."""
    moves = sum(g["moves"] for g in games)
    rows = [row for g in games for row in g["rows"]]
    lines = [f"{variant}: {len(games)} games, planner won {sum(g['won'] for g in games)}; "
             f"{len(rows)} of {moves} planner moves differ from greedy's "
             f"({len(rows) / max(moves, 1):.1%})", "",
             "| kind | moves | win gain (± s.e.) | points gain | better / worse |",
             "| --- | ---: | ---: | ---: | ---: |"]
    by_kind: defaultdict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    for name, group in sorted(by_kind.items()):
        wins = [x for row in group for x in row["win_gain"]]
        error = statistics.pstdev(wins) / len(wins) ** 0.5
        points = statistics.fmean(x for row in group for x in row["points_gain"])
        means = [statistics.fmean(row["win_gain"]) for row in group]
        lines.append(f"| {name} | {len(group)} | {statistics.fmean(wins):+.3f} ± {error:.3f} "
                     f"| {points:+.2f} | {sum(m > 0 for m in means)} / "
                     f"{sum(m < 0 for m in means)} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", metavar="FILE", help="where to write every replayed move")
    args = parser.parse_args(argv)
    games = []
    for game in range(args.games):
        games.append(replay_game(args.variant, args.seed, game, args.worlds))
        print(f"game {game}: planner {'won' if games[-1]['won'] else 'lost'}, "
              f"{len(games[-1]['rows'])} of {games[-1]['moves']} moves differ", flush=True)
    print("\n".join(summary(args.variant, games)))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(games, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
