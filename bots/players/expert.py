"""``expert``: the planner's evaluation with stronger weights, checked by search.

It first scores its options as the planner does, but holding back harder (``STRONG``: more
weight on kept cards that still fit); at a table of three or more, and in tahiti, it does
not hold back at all (``CROWDED``: only its biggest plays and drawing are weighed), since a
card kept for next turn waits through several opponents' turns, or finds its group locked.
Near the end of a game (someone holds few cards) it then searches: it deals the unseen cards
at random many times over (consistent with what it has seen: its hand, the table, everyone's
hand size, the stock size) and, in each imagined world, plays each plan out
(``bots.players.sim``): a first move (one of the three plays the evaluation values most, or
drawing instead) and how it goes on (greedy, or hoarding: drawing until its whole hand can
go out at once), with opponents modelled from what they have shown.
The evaluation's choice stands unless a plan beats it clearly over the same worlds. All of it
within a budget of work per move (``DEFAULT_WORK`` units of ``bots.players.work``: solver
searches and kernel nodes, so the same seed gives the same moves on a busy machine), or of
seconds when asked for a clock. The rollouts model every variant: jokers are dealt among the
unseen cards and played by the kernel, and carousel's turns are followed (``bots.players.sim``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from bots.players.base import move_seconds
from bots.players.planner import LEVEL_MOVE_WORK, MOVE_WORK, STRONG, VARIANT_WEIGHTS, PlannerBot
from bots.players.sim import GREEDY, HOARD, STOCK_JOKER, SimState
from bots.players.sim import Play as SimPlay
from bots.players.work import SAFETY_SECONDS, Meter
from bots.referee.actions import Action, Draw, Play
from bots.referee.game import build_deck
from bots.referee.observation import Observation
from solver import arguments
from solver.cards import N_CARD_TYPES
from solver.limit import Limit

DEFAULT_WORK = 1_500  # work units (bots.players.work) the rollouts may do per move
MAX_PLAYS = 3  # plays played out: the best valued by the evaluation (then hoarding plans)
MAX_WORK = 100_000_000  # work units a move may be given
ROLLOUT_TURNS = 12  # turns played out after the candidate move before judging the position
MIN_SAMPLES = 8  # rollouts a plan needs before it can replace the default
SIGNIFICANCE = 3.0  # standard errors by which a plan must beat the strong evaluation's choice
EVALUATION_SHARE = 0.8  # share of the budget the evaluation may take before the rollouts
ENDGAME = 6  # rollouts judge moves once someone holds this many cards or fewer
MAX_ROLLOUTS = 1_000_000  # deals a fixed-rollouts expert may be asked to play out
OVERRUN = 1.25  # share of the work budget past which a deal under way plays no more plans
ROLLOUT_SHARE = 2 / 3  # share of the work budget the rollouts get at least, however much the
# evaluation took (a big joker position's estimates count their nodes): a move without jokers
# never needs it (its evaluation takes a unit a search)
HARD_STOP = 1.5  # share of the work budget past which a rollout under way stops (judged as it
# stands): a normal move never reaches it; it bounds a move whose every search is huge
HOARD_GROWTH = 4  # cards past the deal (with that many draws) that mark a hoarder


EVALUATION_WORK = {"tahiti": 1_250, "vatican": LEVEL_MOVE_WORK}
"""The expert's evaluation's work cap (else ``MOVE_WORK``) where a variant's joker searches
call for another. Vatican (docs/rules.md §8.2): at 2,500 an opened vatican hand's evaluation
stops before it has weighed every option, as the planner level's did: the expert won 55.5% of
200 seeded games against greedy; with the planner level's 10,000, 85.0% of 60 (2026-11-30).
Its rollouts keep to their own work (``bots.players.work.OPENING_RUN_UNITS``): over 10 seeded
games against greedy its moves took 73.7 ms of CPU at the median and 674 ms at worst (a hoarded
50-card hand weighing nine options; 1.83 s before), and on the ladder's seeds it won 85.0%
(73.9-91.9) of 60 games against greedy and 70.0% (54.6-81.9) of 40 against the planner
(2026-11-30). Tahiti (docs/rules.md §8.3), where a big hand's estimates are joker searches
that cost more CPU a unit than elsewhere: on a 33-card hand with three table jokers the
evaluation took 2,530 units (583 ms of CPU) for two options and the rollouts 2,036 (346 ms),
a 0.93 s move (10 seeded games against greedy, the machine loaded); at 1,250 such a move
stops near 3,000 units in all. A dozen cards take under 50 units."""

DRAW_EARLY = frozenset({"vatican"})
"""Variants where the expert's evaluation weighs drawing instead right after the biggest play,
not last. Vatican (docs/rules.md §6, §8.2): against greedy the expert wins by drawing, unopened,
until its whole hand goes out at once; weighed last, drawing went unweighed whenever a big
hand's evaluation ran out of work first, and the expert then played like greedy."""

CROWDED = replace(STRONG, hold_back=False)
"""The expert's weights at a table of more than two (and in tahiti, ``crowded``): its biggest
plays and drawing only.
Holding back pays heads-up, where a card kept waits one opponent's turn; with three
opponents it waits three, any of whom may go out or change the table. At four players
(machiavelli, levels 2-5, 100 seeded games) the expert won 81 games with these weights
against 50 holding back (docs/performance.md §11); greedy, which never holds back, beat
the planner there.
Tahiti heads-up, against the planner (40 seeded games): 25 wins against 22. Scoring tahiti
as the planner level does instead (its weights and 16 deals, but capped at 4,000 units, a cut
option not counted), with a close call (the best two within a card) weighed again over 48
more deals and these rollouts, the expert won 46.0% (39.2-52.9) of the ladder's 200 seeded
games against the planner, where with these weights 55.5% (48.6-62.2); the cap alone (no
close calls, no rollouts) won 45.2% of 146 (2026-12-01, bench/results/tahiti8-expert-checks.md):
reverted."""


LEVEL_WEIGHTS = frozenset({"bga", "manipulation"})
"""Variants where the expert evaluates with the planner level's own weights, not ``STRONG``.
BGA (docs/rules.md §4.3, §7): the hand ends when the stock runs out and the fewest cards
wins, so a card held back for later may simply stay in the hand. Against the planner over
60 seeded games (2026-11-30) the expert won 35.0% with ``STRONG``, 36.7% with its rollouts
switched off (so the weights, not the search, lost) and 58.3% with the planner's weights.
Manipulation (§7: the cards left count their points, aces 15): the planner's weights count a
card's points and leave the fewest when the opponent may go out. Over the ladder's 200 seeded
games (2026-12-02) the expert won 51.0% against the planner and 52.5% against greedy with
them, 45.5% and 51.0% with ``STRONG``
(bench/results/ladder-variants-expert15-manipulation-*-200x2026.json).
Carousel heads-up is not among them: with the planner's weights the expert won 53.5%
(46.6-60.3) of the ladder's 200 seeded games against the planner, 53.0% with ``STRONG``
(2026-11-30, bench/results/ladder-variants-expert7-carousel-planner-200x2026.json)."""


STOCK_CLOCK = {"bga": 24}
"""Variants whose hand also ends when the stock runs out, and the stock size at or below which
the expert searches even though nobody holds few cards. BGA (docs/rules.md §4.3, §7): the
empty stock ends the hand and the fewest cards wins, so the stock is the game's clock; with
24 cards left heads-up the rollouts' twelve rounds reach the hand's end whenever both players
draw, and judge the choice by the real scoring, not by the distance from going out. On the
ladder's first 16 seeded games against the planner it won the same 10 games as without
(2026-11-30); in the first two the rollouts backed the evaluation's first move every time (the
plays it had not chosen lost up to 0.9 of a hand; hoarding on after the same move gained).
Over the ladder's 200 it won 58.75% (51.8-65.4) against the planner, where the last row
measured without it gave 54.5% (47.6-61.3)
(bench/results/ladder-variants-expert7-bga-planner-200x2026.json); its moves took 13.9 ms of
CPU at the median and 460 ms at worst (10 seeded games against greedy)."""


class ExpertBot:
    name = "expert"

    def __init__(self, seed: int = 0, budget: float | None = None,
                 rollouts: int | None = None, *, limit: Limit | None = None,
                 work: int | None = None, safety: float | None = SAFETY_SECONDS) -> None:
        """By default the expert's thinking is bounded by work: its options are all weighed,
        and its rollouts stop after ``work`` units of work (``DEFAULT_WORK``), so the same
        seed gives the same moves on any machine, idle or busy; ``safety`` seconds (None:
        none) only cap a runaway move. With ``rollouts`` exactly that many deals are played
        out instead. ``budget`` (seconds per move, or ``limit=Limit(time=S)``) asks for a
        clock instead of work: it then searches until the clock, and a faster or idler
        machine searches more (the behaviour before issue 14)."""
        self.rng = np.random.default_rng(arguments.seed("seed", seed))
        self.budget = move_seconds(budget, limit)
        self.rollouts = None if rollouts is None else arguments.integer(
            "rollouts", rollouts, 1, MAX_ROLLOUTS)
        self.work = arguments.integer("work", DEFAULT_WORK if work is None else work, 1,
                                      MAX_WORK)
        self.safety = None if safety is None else arguments.seconds("safety", safety)
        self.planner = PlannerBot(seed, STRONG, safety=self.safety, move_work=MOVE_WORK)
        self.crowded = PlannerBot(seed, CROWDED, safety=self.safety,
                                  move_work=MOVE_WORK)
        self.level = PlannerBot(seed, safety=self.safety, move_work=MOVE_WORK)

    def choose(self, observation: Observation) -> Action:
        started = time.perf_counter()
        meter = Meter(self.safety if self.budget is None else 0.9 * self.budget)
        planner = self._evaluator(observation)
        if self.budget is None:
            choice, options, _ = planner.decide(
                observation, deadline=meter.deadline, move_work=evaluation_work(observation),
                draw_early=observation.variant.name in DRAW_EARLY)
        else:
            choice, options, _ = planner.decide(
                observation, deadline=started + EVALUATION_SHARE * self.budget)
        if len(options) < 2 or not endgame(observation):
            return choice
        # Near the end, games played out to the finish judge moves better than any
        # evaluation: the strong evaluation's choice stands unless a plan clearly beats it.
        plans = [(choice, GREEDY)] + [plan for plan in self._plans(observation, options)
                                      if plan[0] != choice or plan[1] != GREEDY]
        gains = self._search(observation, plans, meter)
        best, best_score = 0, 0.0
        for i in range(1, len(plans)):
            samples = np.array(gains[i])
            if len(samples) < MIN_SAMPLES:
                continue
            error = samples.std(ddof=1) / np.sqrt(len(samples))
            score = samples.mean() - SIGNIFICANCE * error
            if score > best_score:
                best, best_score = i, score
        return plans[best][0]

    def _evaluator(self, observation: Observation) -> PlannerBot:
        """The planner whose weights score this move's options (``CROWDED``, the planner
        level's own in ``LEVEL_WEIGHTS``, else ``STRONG``)."""
        if crowded(observation):
            return self.crowded
        if observation.variant.name in LEVEL_WEIGHTS:
            return self.level
        return self.planner

    def _search(self, observation: Observation, plans: list[tuple[Action, int]],
                meter: Meter) -> list[list[float]]:
        """Each plan's gain over the first (the evaluation's choice) in deal after deal: as
        many deals as ``rollouts`` asks, else until ``work`` units are spent (or, with a
        time budget, until the clock). Every deal plays every plan, so the comparison is on
        the same deals; only the safety cap (or the clock) can cut a deal short, and in work
        mode ``HARD_STOP``. The work counts from the move's start (the evaluation's included)
        but leaves the rollouts ``ROLLOUT_SHARE`` of it at least."""
        rivals = opponent_policies(observation)
        gains: list[list[float]] = [[] for _ in plans]
        worlds = 0
        longest = 0.0  # clocked mode: the longest rollout so far; none starts unless it fits
        # work mode: the work at which no deal starts (past it by (OVERRUN - 1) * work no plan
        # starts, and by (HARD_STOP - 1) * work no rollout goes on)
        target = max(self.work, meter.spent() + int(ROLLOUT_SHARE * self.work))

        def more() -> bool:
            if self.rollouts is not None:
                return worlds < self.rollouts and not meter.capped()
            if self.budget is not None:
                return meter.deadline is None or time.perf_counter() + 2 * longest < meter.deadline
            return meter.spent() < target and not meter.capped()

        def fits() -> bool:
            if self.budget is None:  # finish the deal under way, within OVERRUN of the budget
                return meter.spent() < target + (OVERRUN - 1) * self.work and not meter.capped()
            return meter.deadline is None or time.perf_counter() + longest < meter.deadline

        def stop() -> bool:  # in work mode: a rollout past HARD_STOP of the budget stops
            return self.budget is None and self.rollouts is None and \
                meter.spent() >= target + (HARD_STOP - 1) * self.work

        while more():
            worlds += 1
            world = self.deal(observation)
            begun = time.perf_counter()
            base = self.rollout(observation, world, plans[0], rivals, stop=stop)
            longest = max(longest, time.perf_counter() - begun)
            for i in range(1, len(plans)):
                if not fits():
                    break
                begun = time.perf_counter()
                gains[i].append(self.rollout(observation, world, plans[i], rivals, stop=stop)
                                - base)
                longest = max(longest, time.perf_counter() - begun)
        return gains

    @staticmethod
    def _plans(observation: Observation, options: list[Action]) -> list[tuple[Action, int]]:
        """(first move, how this player goes on): the ``MAX_PLAYS`` best valued plays then
        greedy; and, where the turn lets a player draw instead of playing, hoarding (draw now,
        go out at once later) and the best valued play then hoarding."""
        plays = [option for option in options if isinstance(option, Play)][:MAX_PLAYS]
        plans: list[tuple[Action, int]] = [(play, GREEDY) for play in plays]
        if any(isinstance(option, Draw) for option in options):
            plans += [(Draw(), HOARD), (options[0], HOARD)]
        return plans

    def deal(self, observation: Observation) -> World:
        """One guess at the unseen cards: the opponents' hands (and their jokers) and the
        stock order, consistent with what this player has seen."""
        pool = unseen_pool(observation)
        self.rng.shuffle(pool)
        hands, jokers, at = [], [], 0
        for player, size in enumerate(observation.hand_sizes):
            hand = np.zeros(N_CARD_TYPES + 1, dtype=np.int64)  # the last: jokers
            if player == observation.player:
                for card in observation.hand:
                    hand[STOCK_JOKER if card.joker else card.index] += 1
            else:
                np.add.at(hand, pool[at:at + size], 1)
                at += size
            hands.append(hand[:N_CARD_TYPES].copy())
            jokers.append(int(hand[N_CARD_TYPES]))
        return World(hands, jokers, [int(c) for c in pool[at:]])

    def rollout(self, observation: Observation, world: World, plan: tuple[Action, int],
                rivals: list[int], turns: int = ROLLOUT_TURNS,
                stop: Callable[[], bool] | None = None) -> float:
        """Play ``plan`` out in ``world`` for ``turns`` rounds (or until ``stop()``, asked
        before each turn): 1 a win, 0 a loss, between for a tie or an unfinished game (by how
        far each player is from going out)."""
        me = observation.player
        option, policy = plan
        policies = list(rivals)
        policies[me] = policy
        state = SimState(observation.variant, [h.copy() for h in world.hands],
                         [tuple(c.code for c in group) for group in observation.table],
                         list(world.stock), me, list(observation.opened), policies,
                         list(world.jokers))
        turn = observation.variant.turn
        if isinstance(option, Play):
            state.play(me, SimPlay.of(option.played, option.table))
            if option.knock:
                state.over = True
            elif not state.over and turn == "guadalupe":
                state.draw(me)
        else:
            state.draw(me, 2 if turn == "guadalupe" else 1)
        state.current = (me + 1) % len(world.hands)
        for _ in range(turns * len(world.hands)):
            if state.over or (stop is not None and stop()):
                break
            state.step()
        return state.outcome(me)


class World(NamedTuple):
    """One determinized deal: every hand's real cards (counts) and jokers, and the stock
    (card indices, ``STOCK_JOKER`` for a joker), drawn from its end."""

    hands: list[np.ndarray]
    jokers: list[int]
    stock: list[int]


def unseen_pool(observation: Observation) -> np.ndarray:
    """The cards this player has not seen (the packs less its hand and the table), as card
    indices with ``STOCK_JOKER`` for each unseen joker."""
    unseen = np.zeros(N_CARD_TYPES + 1, dtype=np.int64)
    for card in build_deck(observation.variant, len(observation.players)):
        unseen[STOCK_JOKER if card.joker else card.index] += 1
    for card in observation.hand:
        unseen[STOCK_JOKER if card.joker else card.index] -= 1
    for group in observation.table:
        for card in group:
            unseen[STOCK_JOKER if card.joker else card.index] -= 1
    return np.repeat(np.arange(N_CARD_TYPES + 1), np.clip(unseen, 0, None))


def crowded(observation: Observation) -> bool:
    """Whether the expert weighs only its biggest plays and drawing (``CROWDED``): at a table
    of more than two, and in the variants where the planner level does not hold back either
    (``VARIANT_WEIGHTS``: tahiti, where a card kept back often finds its group locked by a
    joker, docs/rules.md §8.3)."""
    rules = VARIANT_WEIGHTS.get(observation.variant.name)
    return len(observation.players) > 2 or (rules is not None and not rules.hold_back)


def evaluation_work(observation: Observation) -> int:
    """The work the expert's evaluation may take on this move (``EVALUATION_WORK``)."""
    return EVALUATION_WORK.get(observation.variant.name, MOVE_WORK)


def endgame(observation: Observation) -> bool:
    """Whether the game is near its end: someone holds few cards, or (``STOCK_CLOCK``) the
    stock that ends the hand is nearly drawn."""
    clock = STOCK_CLOCK.get(observation.variant.name)
    return min(observation.hand_sizes) <= ENDGAME or (
        clock is not None and observation.stock_size <= clock)


def opponent_policies(observation: Observation) -> list[int]:
    """How the expert expects each player to go on: a player whose hand has grown well past
    the deal while it drew and hardly ever played is taken for a hoarder, the rest for greedy."""
    plays = [0] * len(observation.players)
    draws = [0] * len(observation.players)
    for event in observation.history:
        if event["type"] == "play":
            plays[event["player"]] += 1
        elif event["type"] == "draw":
            draws[event["player"]] += 1
    deal = observation.variant.deal
    return [HOARD if (observation.hand_sizes[i] >= deal + HOARD_GROWTH and plays[i] <= 1
                      and draws[i] >= HOARD_GROWTH) else GREEDY
            for i in range(len(observation.players))]
