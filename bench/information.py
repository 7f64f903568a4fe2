"""How much of a variant's result against greedy lies in move choice, and how much in what
a player cannot see (issue 14).

    python -m bench.information --variant shanghai --games 120 --seed 2026

Plays the ladder's greedy-vs-expert games (the seats and deals of ``bench.ladder variants``,
``bots.arena.tournament``: duplicate deals, seats swapped), or its planner-vs-expert games
with ``--opponent planner``, with the expert in one of four modes, each mode on the same
games:

- ``expert``: the expert as it is (``make_level("expert")``).
- ``every``: the expert searching every move (not only near the end), over ``PLAYS`` plays,
  its deals guessed from what it has seen, as the real expert's are.
- ``hands``: as ``every``, but every guessed deal gives the opponent its true hand (the
  stock's order is still guessed: the unseen rest, shuffled).
- ``deal``: as ``every``, on the true deal: the opponent's hand and the stock's order. No
  player can know this; it bounds what search can reach against greedy in this variant
  (the rollouts model the opponent as greedy, which it is; the planner is modelled so too).

The last two read the referee's hidden state: they are research instruments, never bots to
play against. A variant where ``hands`` is no better than ``expert`` but ``deal`` wins far
more is one whose games are decided by the draws, not by seeing more of the position.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from bots.arena.loop import run_bots
from bots.arena.tournament import lineup, wilson
from bots.envs.levels import make_level
from bots.players import expert
from bots.players.base import Bot
from bots.players.expert import ExpertBot, World
from bots.players.greedy import GreedyBot
from bots.players.sim import STOCK_JOKER
from bots.referee.game import Game
from bots.referee.observation import Observation
from solver.cards import N_CARD_TYPES

MODES = ("expert", "every", "hands", "deal")
OPPONENTS = ("greedy", "planner")  # the ladder levels the expert may face here
PLAYS = 4  # plays a searching mode plays out (the expert's MAX_PLAYS is 3)
EVERY_MOVE = 10**6  # an ENDGAME no hand reaches: search on every move
DEAL_ROLLOUTS = 2  # the true deal's rollouts are all alike: two suffice for the test


class SeeingExpert(ExpertBot):
    """The expert whose deals come from the referee's ``game``: every hand as it really is,
    and the stock in its real order (``stock_known``) or the unseen rest shuffled."""

    def __init__(self, seed: int, game: Game, stock_known: bool) -> None:
        super().__init__(seed, rollouts=DEAL_ROLLOUTS if stock_known else None)
        self.game, self.stock_known = game, stock_known

    def deal(self, observation: Observation) -> World:
        hands, jokers = [], []
        for cards in self.game.hands:
            counts = np.zeros(N_CARD_TYPES + 1, dtype=np.int64)  # the last: jokers
            for card in cards:
                counts[STOCK_JOKER if card.joker else card.index] += 1
            hands.append(counts[:N_CARD_TYPES].copy())
            jokers.append(int(counts[N_CARD_TYPES]))
        # the referee deals from the stock's front, the simulator from its end
        stock = [STOCK_JOKER if card.joker else card.index for card in reversed(self.game.stock)]
        if not self.stock_known:
            self.rng.shuffle(stock)
        return World(hands, jokers, stock)


@contextmanager
def searching(mode: str) -> Iterator[None]:
    """The expert's module settings for ``mode`` (searching modes play out ``PLAYS`` plays on
    every move; the true deal needs only ``DEAL_ROLLOUTS`` samples), restored afterwards."""
    saved = expert.ENDGAME, expert.MAX_PLAYS, expert.MIN_SAMPLES
    if mode != "expert":
        expert.ENDGAME, expert.MAX_PLAYS = EVERY_MOVE, PLAYS
        if mode == "deal":
            expert.MIN_SAMPLES = DEAL_ROLLOUTS
    try:
        yield
    finally:
        expert.ENDGAME, expert.MAX_PLAYS, expert.MIN_SAMPLES = saved


def player(mode: str, seed: int, game: Game) -> Bot:
    """The expert seat's bot in ``mode``."""
    if mode == "expert":
        return make_level("expert", seed)
    if mode == "every":
        return ExpertBot(seed)
    return SeeingExpert(seed, game, stock_known=mode == "deal")


def play(variant: str, mode: str, seed: int, game: int, opponent: str = "greedy") -> float:
    """Game ``game`` of the ladder's ``opponent``-vs-expert tournament with the expert in
    ``mode``: the expert's share of the win (a shared win counts as a fraction)."""
    seats = lineup((opponent, "expert"), 2, game)
    deal = seed + game // 2
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(deal).spawn(2)]
    state = Game(variant, [f"{name}-{i + 1}" for i, name in enumerate(seats)], deal)
    bots = [player(mode, s, state) if name == "expert" else
            GreedyBot(s) if name == "greedy" else make_level(name, s)
            for name, s in zip(seats, seeds, strict=True)]
    with searching(mode):
        run_bots(state, bots)
    winners = [result["winner"] for result in state.results()]
    share = 1.0 / max(1, sum(winners))
    return sum(share for name, won in zip(seats, winners, strict=True)
               if name == "expert" and won)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.information", description=__doc__.split("\n\n")[0],
        epilog="example: python -m bench.information --variant shanghai --games 120 "
               "--modes expert,hands,deal --json out.json; against the planner: "
               "python -m bench.information --variant carousel --opponent planner --games 100")
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--modes", default="expert,hands,deal",
                        help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--opponent", default="greedy", choices=OPPONENTS,
                        help="the ladder level the expert plays (default: greedy)")
    parser.add_argument("--json", help="write the summary here")
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    if not set(modes) <= set(MODES) or args.games < 1 or args.first < 0:
        parser.error(f"--modes takes {', '.join(MODES)}; --games >= 1, --first >= 0")
    wins = {mode: 0.0 for mode in modes}
    for game in range(args.first, args.first + args.games):
        for mode in modes:
            wins[mode] += play(args.variant, mode, args.seed, game, args.opponent)
        done = game - args.first + 1
        print(f"game {game}: " + ", ".join(f"{m} {wins[m]:g}/{done}" for m in modes),
              file=sys.stderr, flush=True)
    rows = [{"mode": mode, "wins": wins[mode], "games": args.games,
             "win_rate": round(wins[mode] / args.games, 4),
             "ci95": [round(x, 4) for x in wilson(wins[mode], args.games)]} for mode in modes]
    last = args.first + args.games - 1
    print(f"{args.variant}, expert vs {args.opponent}, games {args.first}-{last}, seed {args.seed}")
    for row in rows:
        low, high = row["ci95"]
        print(f"  {row['mode']:<7} {row['wins']:>6g} of {row['games']}  "
              f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"variant": args.variant, "opponent": args.opponent, "seed": args.seed,
                       "first": args.first, "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
