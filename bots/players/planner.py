"""``planner``: chooses among plays, and between playing and holding back, by evaluating
what each choice leaves. With its weights it often plays one card a turn, keeping the rest
(a turn with a play is a turn without a draw), and sometimes draws rather than feed the table.

For each option (the biggest play, the other biggest plays and those a card short, single
cards that fit alone, and drawing instead where the turn allows it) it scores the position
left behind:

- minus the cards left in the hand (and, where the variant scores points, the points);
- plus the kept cards that still fit on the new table (a play next turn instead of a draw);
- plus the outs: how many more cards one draw from the unseen cards would let it play;
- minus what it hands the opponents: how many cards a hand of the nearest opponent's size,
  dealt from the unseen cards, could play on the table it leaves.

Outs and the opponents' chances are averaged over a few fixed deals of the unseen cards. When
an opponent is about to go out there is no time to hold back: it plays everything it can.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from bots.players.base import fallback, knock_allowed, move_seconds
from bots.players.options import search_options
from bots.players.work import SAFETY_SECONDS, Meter, solve
from bots.referee.actions import Action, Draw, Play
from bots.referee.game import build_deck
from bots.referee.observation import Observation
from bots.referee.scoring import hand_value
from solver import arguments
from solver.cards import CARDS, Card
from solver.errors import SolverError
from solver.limit import KERNEL_WORK_PER_SECOND, Limit
from solver.position import Position
from solver.validate import JOKER, physical

FITS_LIMIT = Limit(work=int(0.01 * KERNEL_WORK_PER_SECOND))  # per estimate of how many cards
# fit: a fixed amount of work (what 0.01 s was as a kernel work budget)
BUDGET_SHARE = 0.5  # share of the budget after which no further option is weighed (weighing
# the last one started, up to 7 capped searches, must still fit in the budget)
MOVE_WORK = 2_500
"""Work units (``bots.players.work``) a move's options and estimates may take: past it no
further search is made, and each search is capped by the units left (``Meter.limit``). A
move without jokers never comes near it (a unit a search, a hundred searches at most); it
bounds the rare huge joker positions, whose searches count their nodes (vatican and
carousel hands of twenty cards and more, tahiti's CP-SAT answers), at about 0.3 s of CPU.
The expert's evaluation keeps to it (its rollouts follow within its move time); the planner
level, which has no rollouts, may take ``LEVEL_MOVE_WORK``."""
LEVEL_MOVE_WORK = 10_000
"""The planner level's ``MOVE_WORK``: at 2,500 an opened vatican hand's evaluation stopped
before it had weighed every option, and the level won 57.5% of 200 games against greedy
instead of 76.0% (docs/performance.md §11); about 1.2 s of CPU at most."""


@dataclass(frozen=True)
class Weights:
    """How the planner values what an option leaves (tuned by self-play; see README).

    The defaults make the ``planner`` level; ``STRONG`` (more weight on kept cards that fit)
    holds back harder and is the expert's base."""

    fit: float = 1.25
    """Per kept card that still fits on the new table."""
    outs: float = 0.5
    """Per extra card one random draw would let it play."""
    opening: float = 1.25
    """Per card a random opponent hand could play on the table left behind."""
    points: float = 0.02
    """Per point left in the hand (variants that score points)."""
    danger: int = 2
    """An opponent with this many cards or fewer may go out: play everything."""
    samples: int = 3
    """Deals of the unseen cards used for the outs and the opponents' chances."""
    hold_back: bool = True
    """Whether plays smaller than the biggest are weighed (False: only the biggest plays of
    equal size, and drawing instead)."""
    danger_points: bool = False
    """When an opponent may go out (``danger``): play the option that leaves the fewest
    points in the hand (then the fewest cards) instead of the most cards."""


STRONG = Weights(fit=1.5, outs=0.5, opening=1.0)
VARIANT_WEIGHTS = {"tahiti": Weights(hold_back=False, samples=16),
                   "manipulation": Weights(points=0.1, danger_points=True),
                   "shanghai": Weights(outs=2.0, samples=16)}
"""The planner level's own weights where a variant's rules call for them.

- Tahiti (docs/rules.md §8.3): a group that takes a joker is locked, and both players lay
  jokers often (four in the pack, five-card hands), so a card kept back to fit a group next
  turn often finds it locked; on seeded tahiti games, replaying the biggest play where the
  planner had held back part of it won about twice as often (docs/performance.md §11). It
  still chooses among the biggest plays and between playing and drawing, and that choice is
  where it gains: replayed from the same positions (``bench.planner_replay``,
  bench/results/planner-replay-planner6.md), its draws where greedy would have played won
  the hand 0.11 more often, 0.35-0.40 where the biggest play would have left one or two
  cards. So it weighs them over 16 deals of the unseen cards, not 3 (three left the outs and
  the opponent's chances too noisy): on the ladder's first 60 seeded games against greedy,
  70.0% with 16 deals, 65.0% with 8, 48.3% with 3; over its 200, with 16 deals 66.5%
  (59.7-72.7), with 8 55.5% (48.6-62.2), with 3 52.0% (45.1-58.8)
  (bench/results/planner-replay-planner6.md).
- Manipulation (docs/rules.md §4.3, §7): play is forced, so the planner's only choice is which
  cards to play, and a hand lost costs the points left in it (A 15; 10 J Q K 10; others 5),
  added up over a match to 200. At the default 0.02 a point a card kept back that still fits
  is worth more than it costs, whatever its points, so the planner holds cards back that the
  opponent's going out would make it pay for. At 0.1 a point (a five left in hand costs 1.5
  cards' worth, a ten 2, an ace 2.5) it holds back only where the fit outweighs the points.
  On seeded hands against greedy (200 and 300 hands, seeds other than the ladder's) this
  lowered the planner's points per hand against greedy's by 2.7 and 1.1 (docs/performance.md
  §11). When the opponent may go out (two cards or fewer) the hand is about to be scored: it
  plays the option that leaves the fewest points (an ace is worth three fives), not the most
  cards.
- Shanghai (docs/rules.md §4.3): play is forced and a player who cannot play draws until
  able (2.1 cards a time in greedy self-play, README), so what a kept hand's next draw lets
  it play (the outs) weighs more than elsewhere, and over more deals of the unseen cards
  (three deals left the estimate too noisy to separate the options). On the ladder's 100
  seeded games against greedy: outs 2 over 16 deals 56%, the defaults 52%; over 200, 55.0%
  against 51.0% (README): better, not yet significant."""


class PlannerBot:
    name = "planner"

    def __init__(self, seed: int = 0, weights: Weights | None = None,
                 budget: float | None = None, *, limit: Limit | None = None,
                 safety: float | None = SAFETY_SECONDS, move_work: int = LEVEL_MOVE_WORK) -> None:
        """By default every option is weighed, each search capped by a fixed amount of work:
        the same moves on any machine; ``safety`` seconds (None: none) only cap a runaway
        move. ``budget``: seconds per move, or ``limit=Limit(time=S)``, for a clock instead:
        past half of it no further option is weighed, and the best weighed so far is played."""
        self.rng = np.random.default_rng(arguments.seed("seed", seed))
        self.chosen = weights is not None  # else the variant's own weights (VARIANT_WEIGHTS)
        self.weights = arguments.instance("weights", weights or Weights(), Weights)
        self.budget = move_seconds(budget, limit)
        self.safety = None if safety is None else arguments.seconds("safety", safety)
        self.move_work = arguments.integer("move_work", move_work, 1, 10**9)

    def choose(self, observation: Observation) -> Action:
        if self.budget is not None:
            seconds: float | None = BUDGET_SHARE * self.budget
        else:
            seconds = self.safety
        deadline = None if seconds is None else time.perf_counter() + seconds
        return self.decide(observation, deadline)[0]

    def decide(self, observation: Observation, deadline: float | None = None,
               move_work: int | None = None, draw_early: bool = False
               ) -> tuple[Action, list[Action], list[float]]:
        """The chosen action, the options weighed and their values (best first); options
        left unscored when ``deadline`` passes, or once ``move_work`` units (default: the
        bot's own) are spent, keep minus infinity. ``draw_early``: drawing instead is weighed
        second, right after the biggest play, not last (so a capped evaluation still weighs
        it)."""
        if "play" not in observation.legal:
            return fallback(observation), [], []
        meter = Meter(None, self.move_work if move_work is None else move_work)
        options = search_options(observation, deadline=deadline, meter=meter)
        weights = self.weights_for(observation.variant.name)
        if not weights.hold_back:
            options = _biggest_only(options)
        if not options:
            return fallback(observation), [], []
        if draw_early:
            options = _draw_second(options)
        first = options[0]
        going_out = isinstance(first, Play) and len(first.played) == len(
            observation.playable_hand)
        others = [s for i, s in enumerate(observation.hand_sizes) if i != observation.player]
        values = [0.0] + [float("-inf")] * (len(options) - 1)
        danger = min(others, default=99) <= weights.danger
        if not going_out and len(options) > 1 and danger and weights.danger_points:
            values = [_left_after(observation, option) for option in options]
        elif not going_out and len(options) > 1 and not danger:
            unseen = unseen_cards(observation)
            deals = [self.rng.permutation(np.asarray(unseen)) for _ in range(weights.samples)]
            for i, option in enumerate(options):
                if meter.out() or (deadline is not None and time.perf_counter() >= deadline):
                    break
                values[i] = self.value(observation, option, deals, deadline, meter)
        order = sorted(range(len(options)), key=lambda i: -values[i])
        best = options[order[0]]
        if isinstance(best, Play) and knock_allowed(observation, best):
            best = replace(best, knock=True)
        return best, [options[i] for i in order], [values[i] for i in order]

    def weights_for(self, variant: str) -> Weights:
        """The weights given, else the variant's own (``VARIANT_WEIGHTS``), else the defaults."""
        return self.weights if self.chosen else VARIANT_WEIGHTS.get(variant, self.weights)

    def value(self, observation: Observation, option: Action, deals: list,
              deadline: float | None = None, meter: Meter | None = None) -> float:
        """What ``option`` leaves, averaged over ``deals``; past ``deadline`` (a clock budget:
        a tahiti estimate with jokers may take tens of ms) or once ``meter``'s work is spent,
        over the deals weighed so far."""
        meter = meter or Meter(None)
        w = self.weights_for(observation.variant.name)
        variant = observation.variant
        hand: list[Card | None] = list(observation.playable_hand)
        table = observation.table
        if isinstance(option, Play):
            for card in option.played:
                hand.remove(card)
            table = option.table
        hand += [None] * drawn_after(variant.turn, option, len(hand))  # unknown cards drawn
        known = [card for card in hand if card is not None]
        score = -float(len(hand))
        if variant.scoring in ("manipulation", "tahiti", "carousel"):
            score -= w.points * hand_value(variant, known)
        fits = _fits(table, known, variant, meter)
        score += w.fit * fits
        opponent = min(s for i, s in enumerate(observation.hand_sizes) if i != observation.player)
        outs = opening = 0.0
        n = 0
        for deal in deals:
            if n and (meter.out() or deadline is not None and time.perf_counter() >= deadline):
                break
            n += 1
            if w.outs:
                outs += _fits(table, known + [deal[0]], variant, meter) - fits
            if w.opening:
                opening += _fits(table, list(deal[1:1 + opponent]), variant, meter)
        n = max(n, 1)
        return score + w.outs * outs / n - w.opening * opening / n


def _left_after(observation: Observation, option: Action) -> float:
    """Minus what ``option`` leaves in the hand: its points by the variant's scoring
    (docs/rules.md §7), then (a thousandth a card) its cards."""
    hand = list(observation.playable_hand)
    for card in option.played if isinstance(option, Play) else ():
        hand.remove(card)
    return -hand_value(observation.variant, hand) - 0.001 * len(hand)


def _draw_second(options: list[Action]) -> list[Action]:
    """``options`` with drawing instead (listed last by ``search_options``) moved right after
    the biggest play."""
    draws = [o for o in options if isinstance(o, Draw)]
    plays = [o for o in options if not isinstance(o, Draw)]
    return plays[:1] + draws + plays[1:]


def _biggest_only(options: list[Action]) -> list[Action]:
    """The biggest plays (a capped search may find a bigger one without a card than with
    all the hand), and drawing instead."""
    most = max((len(o.played) for o in options if isinstance(o, Play)), default=0)
    return [o for o in options if not isinstance(o, Play) or len(o.played) == most]


def drawn_after(turn: str, option: Action, left: int) -> int:
    """Cards the turn makes the player draw after ``option`` (docs/rules.md §4): one for
    drawing instead of playing (two in guadalupe), and in guadalupe one after a play that
    leaves ``left`` > 0 cards in the hand."""
    if not isinstance(option, Play):
        return 2 if turn == "guadalupe" else 1
    return 1 if turn == "guadalupe" and left > 0 else 0


def unseen_cards(observation: Observation) -> list[Card]:
    """Cards this player has not seen: the pack (its jokers too, docs/rules.md §8) minus its
    hand and the table, a table joker counted as a joker whatever it names."""
    seen = Counter(physical(card) for card in observation.hand)
    seen.update(physical(card) for group in observation.table for card in group)
    pack = Counter(build_deck(observation.variant, len(observation.players)))
    left = pack - seen
    return [card for card in (*CARDS, JOKER) for _ in range(left[card])]


def _fits(table, hand: list[Card], variant, meter: Meter | None = None) -> int:
    """How many of ``hand`` could be played on ``table`` now, by the variant's own joker rules
    (docs/rules.md §8): tahiti's locked groups and one joker per group, vatican's jokers that
    stay beside their neighbours. The kernel models them all (its automaton tables are built
    once per process), so an exact answer costs about what a joker-free one did; each search
    is capped by ``FITS_LIMIT`` work, and by what ``meter``'s work left can buy."""
    if not hand:
        return 0
    position = Position(tuple(table), tuple(hand), variant, True)
    limit = FITS_LIMIT if meter is None else meter.limit(FITS_LIMIT, position)
    try:
        return solve(position, limit=limit).score
    except SolverError:  # the solver's answer failed its own check (seen on an imagined tahiti
        # hand with a joker beside a locked joker group): an estimate, so no card counts as
        # fitting rather than the game stopping
        return 0


__all__ = ["PlannerBot", "Weights", "Draw"]
