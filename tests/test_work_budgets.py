"""Bots bounded by work, not seconds (issue 14): the same seed gives the same moves whatever
the clock says, a move's work is counted, and the tournament reports it."""

from __future__ import annotations

import time

import pytest

from bots.arena.loop import run_bots
from bots.arena.tournament import run_tournament
from bots.players import expert, make_bot
from bots.players.expert import ExpertBot
from bots.players.planner import PlannerBot
from bots.players.work import CPSAT_SEARCH_UNITS, work_done
from bots.players.work import solve as counted_solve
from bots.referee.game import Game
from bots.referee.observation import observe
from bots.referee.record import dumps
from solver import Position, warmup
from solver.cards import parse_cards

WORK = 300  # work units per expert move: small, so that a whole game stays quick


def record_of(variant: str, seed: int, safety: float | None) -> str:
    """A whole seeded game, expert against planner, as its record's bytes."""
    game = Game(variant, ["expert", "planner"], seed)
    bots = [ExpertBot(seed, work=WORK, safety=safety), PlannerBot(seed + 1, safety=safety)]
    run_bots(game, bots)
    return dumps(game.record())


@pytest.mark.parametrize("variant", ["machiavelli", "guadalupe", "tahiti", "carousel"])
def test_the_clock_cap_changes_no_move(variant):
    assert record_of(variant, 12, safety=None) == record_of(variant, 12, safety=10.0)


def test_a_machine_five_times_slower_makes_the_same_moves(monkeypatch):
    # the safety cap stays out of reach of a slowed move even on a loaded machine
    normal = record_of("machiavelli", 7, safety=60.0)
    real = time.perf_counter
    origin = real()
    monkeypatch.setattr(time, "perf_counter", lambda: origin + 5 * (real() - origin))
    assert record_of("machiavelli", 7, safety=60.0) == normal


def test_a_clocked_expert_searches_less_on_a_slower_machine(monkeypatch):
    # the reason for work budgets: under a clock, how much the expert searches depends on
    # the machine (here a clock running 50 times fast stands for a machine 50 times slower)
    observation = _endgame()
    before = work_done()
    ExpertBot(3, budget=0.2).choose(observation)
    idle = work_done() - before
    real = time.perf_counter
    origin = real()
    monkeypatch.setattr(time, "perf_counter", lambda: origin + 50 * (real() - origin))
    before = work_done()
    ExpertBot(3, budget=0.2).choose(observation)
    assert work_done() - before < idle


def test_the_work_budget_bounds_the_expert_search():
    observation = _endgame()
    spent = []
    for work in (50, 400, 1600):
        before = work_done()
        ExpertBot(3, work=work).choose(observation)
        spent.append(work_done() - before)
    assert spent[0] < spent[1] < spent[2]
    # past the budget at most the deal under way is finished (every plan once)
    assert spent[2] <= 1600 + 600


def test_the_tournament_reports_work_per_move_and_the_records():
    first = run_tournament("machiavelli", ["greedy", "planner"], 2, 2, seed=5)
    again = run_tournament("machiavelli", ["greedy", "planner"], 2, 2, seed=5)
    rows = {row["name"]: row for row in first["bots"]}
    assert rows["greedy"]["move_work_median"] == 1  # one search a move, outside the simulator
    assert rows["planner"]["move_work_max"] > rows["greedy"]["move_work_max"]
    assert first["records_sha256"] == again["records_sha256"]
    other = run_tournament("machiavelli", ["greedy", "planner"], 2, 2, seed=6)
    assert other["records_sha256"] != first["records_sha256"]


def test_a_budget_in_seconds_still_means_a_clock():
    assert make_bot("expert", 1, budget=0.3).budget == 0.3
    assert make_bot("expert", 1).budget is None  # work by default
    assert make_bot("planner", 1).budget is None


def test_a_huge_joker_position_stays_within_its_work(monkeypatch):
    # a 29-card vatican hand with a joker, not yet opened: its estimates are big joker
    # searches, each counting its nodes; the move stops at its work, not at the clock
    # (uncapped, the planner's move takes 235 units)
    observation = _huge_joker_hand()
    cap = 100
    monkeypatch.setattr(expert, "MOVE_WORK", cap)  # the expert's evaluation's cap
    monkeypatch.setitem(expert.EVALUATION_WORK, "vatican", cap)  # vatican's own cap
    spent, actions = [], []
    for _ in range(2):
        before = work_done()
        actions.append(PlannerBot(1, safety=None, move_work=cap).choose(observation))
        spent.append(work_done() - before)
    assert spent[0] == spent[1] and actions[0] == actions[1]
    assert cap <= spent[0] <= cap + 2  # each search is capped by the units left
    before = work_done()
    ExpertBot(1, work=600, safety=None).choose(observation)
    # the evaluation's cap, the rollouts' 600 at most, past it half the budget for the
    # rollout under way and one search
    assert work_done() - before <= cap + 600 + 300 + CPSAT_SEARCH_UNITS


def _huge_joker_hand():
    game = Game("vatican", ["a", "b"], 0)
    game.hands[0] = list(parse_cards("JD 8H QD 3C AC 2H 2D QS * 6H 9D 10H 4S 8D QC 4C KH 10D "
                                     "AH 5D 7H 3H 3S AC 5C 3D 3D 6H 4S"))
    game.hands[1] = game.hands[1][:4]
    game.table = [tuple(parse_cards(group)) for group in
                  ("JH JD JC", "9S 10S JS", "6S 6D 6C", "5S 5H 5D", "7S 7H 7C")]
    game.opened = [False, True]
    game.current = 0
    return observe(game, 0)


def _endgame():
    game = Game("machiavelli", ["a", "b"], 4)
    game.hands[0] = list(parse_cards("7H 7D 8S 9S 10S KD 2C 4H"))
    game.hands[1] = game.hands[1][:5]
    return observe(game, 0)


def test_the_planner_level_may_weigh_more_than_the_experts_evaluation():
    # the planner level has no rollouts: its move may take LEVEL_MOVE_WORK units, while the
    # expert's evaluation keeps to MOVE_WORK so that its rollouts fit its move time
    from bots.players.planner import LEVEL_MOVE_WORK, MOVE_WORK

    assert PlannerBot(0).move_work == LEVEL_MOVE_WORK > MOVE_WORK
    bot = ExpertBot(0)
    assert bot.planner.move_work == bot.crowded.move_work == MOVE_WORK
    with pytest.raises(ValueError):
        PlannerBot(0, move_work=0)


def test_a_tahiti_hand_of_many_joker_branches_is_solved_within_its_work():
    # two free jokers and two locked groups give 198 joker branches; split evenly, a capped
    # search cut every one short, certified nothing and handed the position to CP-SAT, which
    # found no play within its limit (1.8 s of CPU here; the expert drew, move after move).
    # Taken in turn, the first branch finds the whole hand going out in about 1,200 nodes.
    from bots.players.options import SOLVE_LIMIT
    from bots.players.planner import MOVE_WORK
    from bots.players.work import Meter, solve
    from solver.position import Position
    from solver.variants import Variant

    table, hand = TAHITI_TABLE, parse_cards(TAHITI_HAND)
    position = Position(tuple(tuple(parse_cards(group)) for group in table), tuple(hand),
                        Variant.parse("tahiti"), True)
    before = work_done()
    answer = solve(position, limit=Meter(None, MOVE_WORK).limit(SOLVE_LIMIT, position))
    assert answer.backend == "kernel" and len(answer.played) == len(hand)
    assert work_done() - before < CPSAT_SEARCH_UNITS


TAHITI_TABLE = ("3C 4C 5C", "4S 5S 6S", "2D 3D *4D 5D", "5D 6D 7D 8D 9D", "8S 9S 10S JS",
                "7H *8H 9H 10H", "9D 10D JD QD", "7C 8C 9C", "AS AH AC", "10H JH QH KH",
                "JC QC KC")
TAHITI_HAND = ("5H AC 5S 7D 6C 2D KD AD 6C 4C 4D 5C 7S QH 3D 10C QS 2C 5H 10D 9H KD JC AH 3S "
               "3S 7S AS 9C 6H 8H 2C 4D 8S 6H JD 8H 7H JH KC * 7C 6D 2H 3H 10C 9S 10S 8D 2S * "
               "2S AD 4H 3H QS")


def test_the_tahiti_experts_evaluation_keeps_to_its_own_cap(monkeypatch):
    # tahiti's big hands make every estimate a joker search: the expert's evaluation stops
    # at EVALUATION_WORK there (its move time), at MOVE_WORK elsewhere
    from bots.players.expert import EVALUATION_WORK, evaluation_work
    from bots.players.planner import MOVE_WORK

    game = Game("tahiti", ["a", "b"], 0)
    # 50 cards: uncapped, the evaluation ends at 551 units since session 7's joker bounds
    # (it passed the 1,250 cap before); a cap of 100 must stop it
    monkeypatch.setitem(EVALUATION_WORK, "tahiti", 100)
    game.hands[0] = list(parse_cards(TAHITI_HAND))[:50]
    game.hands[1] = game.hands[1][:5]
    game.table = [tuple(parse_cards(group)) for group in TAHITI_TABLE]
    game.current = 0
    observation = observe(game, 0)
    assert evaluation_work(observation) == EVALUATION_WORK["tahiti"] < MOVE_WORK
    assert evaluation_work(_endgame()) == MOVE_WORK
    vatican = Game("vatican", ["a", "b"], 0).observation(0)
    assert evaluation_work(vatican) == EVALUATION_WORK["vatican"] > MOVE_WORK
    bot = ExpertBot(2, work=100, safety=None)
    spent = []
    real = bot.crowded.decide

    def decide(*args, **kwargs):
        before = work_done()
        answer = real(*args, **kwargs)
        spent.append(work_done() - before)
        return answer

    bot.crowded.decide = decide  # type: ignore[method-assign]
    bot.choose(observation)
    assert EVALUATION_WORK["tahiti"] <= spent[0] <= EVALUATION_WORK["tahiti"] + CPSAT_SEARCH_UNITS


def test_a_tahiti_search_whose_limit_is_spent_leaves_its_other_branches_unsearched():
    # taken in turn, a limit spent on the first branch leaves none for the other 197: the
    # answer is valid (a play or nothing) and not called optimal
    from solver import kernel_backend
    from solver.position import Position
    from solver.problem import Problem
    from solver.variants import Variant

    position = Position(tuple(tuple(parse_cards(group)) for group in TAHITI_TABLE),
                        tuple(parse_cards(TAHITI_HAND)), Variant.parse("tahiti"), True)
    problem = Problem.from_position(position, "cards")
    before = kernel_backend.nodes_expanded()
    answer = kernel_backend.solve(problem, node_limit=5)
    assert not answer.optimal
    assert kernel_backend.nodes_expanded() - before < 100
    assert kernel_backend.solve(problem).optimal  # uncapped: exact


def test_an_unopened_vatican_hand_counts_a_search_per_opening_run():
    # vatican's opening must hold a run from the hand (docs/rules.md §6.2): the kernel
    # searches once per 3-card run the hand holds, each paying its set-up, so a simulator
    # search of an unopened vatican hand counts OPENING_RUN_UNITS per run on top of its nodes
    from dataclasses import replace

    from bots.players import work
    from solver.limit import Limit
    from solver.position import Position

    observation = _huge_joker_hand()
    position = observation.position()
    runs = work.opening_runs(position)
    assert runs == 6  # AH 2H 3H, 6H 7H 8H, 8D 9D 10D, 9D 10D JD, 10D JD QD, 3C 4C 5C
    assert work.opening_runs(replace(position, opened=True)) == 0
    machiavelli = Position.parse("5S 6S 7S / 2H 3H 4H 8C / machiavelli")
    assert work.opening_runs(machiavelli) == 0
    before = work_done()
    work.solve_jokers(position, Limit(work=4_000))
    assert work_done() - before >= work.JOKER_SEARCH_UNITS + work.OPENING_RUN_UNITS * runs


def test_the_vatican_expert_weighs_drawing_right_after_the_biggest_play(monkeypatch):
    # a capped evaluation weighs its options in order: drawing instead, listed last, went
    # unweighed whenever a big vatican hand's evaluation ran out of work first, and the expert
    # then played like greedy; in vatican only it is weighed second (DRAW_EARLY)
    from bots.players import planner, work
    from bots.players.options import search_options
    from bots.players.planner import Draw

    observation = _huge_joker_hand()
    listed = search_options(observation)
    assert isinstance(listed[-1], Draw) and len(listed) > 3
    monkeypatch.setattr(planner, "search_options", lambda *args, **kwargs: list(listed))

    def value(*args, **kwargs):  # each option's estimate costs one unit here
        work._WORK[0] += 1
        return 0.0

    monkeypatch.setattr(PlannerBot, "value", value)
    for early in (False, True):
        _, options, values = PlannerBot(1, safety=None).decide(observation, move_work=2,
                                                               draw_early=early)
        weighed = [o for o, v in zip(options, values, strict=True) if v != float("-inf")]
        assert weighed[0] == listed[0] and len(weighed) == 2
        assert (weighed[1] == Draw()) is early
    monkeypatch.undo()
    assert expert.DRAW_EARLY == frozenset({"vatican"})
    asked = []
    bot = ExpertBot(1, work=50, safety=None)
    real = bot.planner.decide

    def decide(*args, **kwargs):
        asked.append(kwargs.get("draw_early"))
        return real(*args, **kwargs)

    bot.planner.decide = decide  # type: ignore[method-assign]
    bot.choose(observation)
    bot.choose(_endgame())
    assert asked == [True, False]


def test_the_kernels_warm_up_is_no_bots_work(monkeypatch):
    """The first solve in a process loads every kernel by solving a few positions of its own
    (``solver.warmup.load_kernels``); their nodes must not be charged to the bot that asked,
    or a bot's first joker move in a process (a tournament worker's first game) would do
    less thinking than the same move later."""
    position = Position.parse("5H *6H 7H | 9C 9D 9S / * 6H 8H 2C / carousel")
    counted_solve(position)
    before = work_done()
    counted_solve(position)
    units = work_done() - before
    monkeypatch.setattr(warmup, "_loaded", set())  # as in a fresh process
    before = work_done()
    counted_solve(position)
    assert work_done() - before == units
