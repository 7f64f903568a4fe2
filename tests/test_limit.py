"""``Limit`` (solver/limit.py) and the API around it: construction, validation, conversions,
the ``limit=`` / ``time_limit=`` arguments of the verbs and bots, ``analyze`` from a table
text, the counts-level entry point, and the ``solver.hint`` module/function naming."""

import importlib
import inspect
import types
from dataclasses import FrozenInstanceError

import numpy as np
import pytest

import solver
from bots.players import make_bot
from bots.players.expert import ExpertBot
from bots.players.options import SOLVE_LIMIT
from bots.players.planner import FITS_LIMIT, PlannerBot
from solver import Limit, Position, analyze, hint, solve, solve_position
from solver.api import KERNEL_WORK_PER_SECOND, solve_counts
from solver.errors import InvalidArgumentError
from solver.generate import random_position
from solver.hint import hint_position
from solver.validate import play_problems

BIG = random_position(3, "machiavelli", 90, 14)  # the kernel needs more than one unit of work


def test_limit_holds_time_and_work():
    assert Limit(time=0.5).time == 0.5 and Limit(time=0.5).work is None
    assert Limit(work=10).work == 10 and Limit(work=10).time is None
    assert Limit(time=2).time == 2.0 and isinstance(Limit(time=2).time, float)
    assert Limit() == Limit(None, None)
    with pytest.raises(FrozenInstanceError):
        Limit(time=1).time = 2  # type: ignore[misc]


@pytest.mark.parametrize("limit, text", [
    (Limit(), "Limit()"),
    (Limit(time=0.5), "Limit(time=0.5)"),
    (Limit(work=1000), "Limit(work=1000)"),
    (Limit(time=0.25, work=7), "Limit(time=0.25, work=7)"),
])
def test_limit_repr_is_short_and_round_trips(limit, text):
    assert repr(limit) == text
    assert eval(text) == limit


@pytest.mark.parametrize("kwargs", [
    {"time": 0}, {"time": -1}, {"time": float("inf")}, {"time": float("nan")},
    {"time": "1"}, {"time": True}, {"time": 10**400}, {"time": 2 * 86400},
    {"work": 0}, {"work": -5}, {"work": 1.5}, {"work": True}, {"work": "3"}, {"work": 10**30},
])
def test_limit_refuses_bad_values(kwargs):
    with pytest.raises(InvalidArgumentError) as caught:
        Limit(**kwargs)
    assert ("time" if "time" in kwargs else "work") in str(caught.value)


def test_limit_converts_for_each_backend():
    assert Limit().kernel_work() == 0  # the kernel's "no cap"
    assert Limit(time=0.01).kernel_work() == int(0.01 * KERNEL_WORK_PER_SECOND)
    assert Limit(time=1e-9).kernel_work() == 1
    assert Limit(work=10, time=1.0).kernel_work() == 10  # the first limit reached
    assert Limit(work=10**9, time=0.01).kernel_work() == 30_000
    assert Limit(time=0.5).cpsat_seconds() == 0.5
    assert Limit(time=0.5).cpsat_deterministic_seconds() is None
    assert Limit(work=3_000_000).cpsat_deterministic_seconds() == 1.0
    assert Limit(work=3_000_000).cpsat_seconds() is None


@pytest.mark.parametrize("call", [
    lambda: solve("5C 6C 7C", "8C", time_limit=1.0, limit=Limit(time=1.0)),
    lambda: solve_position(Position.make("5C 6C 7C", "8C"), time_limit=1.0, limit=Limit()),
    lambda: hint("5C 6C 7C", "8C", time_limit=1.0, limit=Limit(work=5)),
    lambda: hint_position(Position.make("5C 6C 7C", "8C"), "cards", 1.0, limit=Limit()),
    lambda: make_bot("planner", 0, 1.0, limit=Limit(time=1.0)),
    lambda: PlannerBot(budget=1.0, limit=Limit(time=1.0)),
    lambda: ExpertBot(budget=0.2, limit=Limit(time=1.0)),
])
def test_limit_and_the_older_seconds_argument_together_are_refused(call):
    with pytest.raises(InvalidArgumentError, match="not both"):
        call()


@pytest.mark.parametrize("call", [
    lambda: solve("5C 6C 7C", "8C", limit=0.5),
    lambda: hint("5C 6C 7C", "8C", limit={"time": 1}),
    lambda: analyze("5C 6C 7C", "8C", limit=1),
    lambda: make_bot("expert", 0, limit=0.5),
])
def test_limit_must_be_a_limit(call):
    with pytest.raises(InvalidArgumentError, match="limit must be a Limit"):
        call()


def test_time_limit_means_a_limit_of_that_time():
    for backend in ("kernel", "cpsat"):
        by_seconds = solve(BIG, backend=backend, time_limit=1e-6)
        by_limit = solve(BIG, backend=backend, limit=Limit(time=1e-6))
        assert not by_seconds.optimal and not by_limit.optimal
        assert by_seconds.played == by_limit.played


@pytest.mark.parametrize("backend", ["kernel", "cpsat"])
def test_a_tiny_work_limit_stops_the_search(backend):
    cut = solve(BIG, backend=backend, limit=Limit(work=1))
    assert not cut.optimal
    assert play_problems(BIG, cut.played, cut.table) == []
    full = solve(BIG, backend=backend)
    assert full.optimal and cut.score < full.score


def test_a_work_limit_gives_the_same_answer_every_time():
    answers = {tuple(map(str, solve(BIG, limit=Limit(work=200)).played)) for _ in range(3)}
    assert len(answers) == 1


def test_an_ample_limit_changes_nothing():
    assert solve(BIG, limit=Limit(time=60, work=10**9)).played == solve(BIG).played


def test_hint_takes_a_limit():
    assert hint("5C 6C 7C 8C", "8D 8H", limit=Limit(time=10)).steps == \
        hint("5C 6C 7C 8C", "8D 8H").steps


def test_solve_position_has_no_timing_argument():
    assert "started" not in inspect.signature(solve_position).parameters
    assert "started" not in inspect.signature(solve).parameters


# -- analyze takes what solve takes ---------------------------------------------------------

def _facts(analysis):
    data = analysis.to_json()
    data.pop("elapsed_ms")
    return data


def test_analyze_takes_a_table_text_groups_or_a_position():
    position = Position.make("6C 7C 8C | QH QD QS", "8D 8H KS", "machiavelli")
    from_position = _facts(analyze(position))
    assert _facts(analyze("6C 7C 8C | QH QD QS", "8D 8H KS")) == from_position
    assert _facts(analyze([["6C", "7C", "8C"], ["QH", "QD", "QS"]], ["8D", "8H", "KS"],
                          "machiavelli")) == from_position
    assert _facts(analyze("6C 7C 8C", "8D 8H", unseen=["8S"], max_plays=1)) == \
        _facts(analyze(Position.make("6C 7C 8C", "8D 8H"), unseen=["8S"], max_plays=1))


def test_analyze_applies_the_opening_rule_when_asked():
    opened = analyze("6C 7C 8C", "9C KH KD KS")
    unopened = analyze("6C 7C 8C", "9C KH KD KS", "machiavelli:opening=36", opened=False)
    assert opened.best_cards == 4 and unopened.best_cards == 0  # 30 points from the hand


def test_analyze_refuses_the_old_positional_form():
    position = Position.make("6C 7C 8C", "8D 8H")
    with pytest.raises(InvalidArgumentError, match="keywords"):
        analyze(position, None, 3)
    with pytest.raises(InvalidArgumentError, match="keywords"):
        analyze(position, ["8S"])


def test_analyze_under_a_tiny_work_limit_says_it_is_not_exact():
    assert analyze(BIG, max_plays=1).optimal
    cut = analyze(BIG, max_plays=1, limit=Limit(work=1))
    assert not cut.optimal and cut.best_cards <= analyze(BIG, max_plays=1).best_cards


# -- the counts-level entry point -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_solve_counts_answers_as_solve_does(seed):
    position = random_position(np.random.default_rng(seed), "machiavelli", 40, 8)
    exact = solve_position(position, backend="kernel")
    answer = solve_counts(position.mandatory_counts(), position.hand_counts(),
                          singles=position.single_counts(), ace=position.variant.ace,
                          decks=position.variant.decks)
    assert answer.score == exact.score and answer.optimal  # ties may pick other cards
    assert int(answer.played.sum()) == len(exact.played)
    assert (answer.played <= position.hand_counts()).all()
    # every table card that must be placed, every card played, and the singles joined
    assert int(answer.lengths.sum()) == int(position.mandatory_counts().sum()) + len(
        exact.played) + _singles_joined(answer, position)


def _singles_joined(answer, position) -> int:
    """Original table singles that the answer's groups hold."""
    used = np.bincount(answer.groups[answer.groups >= 0], minlength=52)
    return int(np.clip(used - position.mandatory_counts() - answer.played, 0, None).sum())


def test_solve_counts_makes_openings_from_the_hand():
    position = Position.make("5C 6C 7C", "QH QD QS KH KD KS 2C", "machiavelli:opening=36",
                             opened=False)
    answer = solve_counts(position.mandatory_counts(), position.hand_counts(), ace="both",
                          decks=2, opening_points=36, objective="points")
    assert answer.score == 60 and sorted(answer.lengths.tolist()) == [3, 3]
    assert solve_counts(position.mandatory_counts(), position.hand_counts(), ace="both",
                        decks=2, opening_points=61).score == 0


def test_solve_counts_honours_a_work_limit():
    cut = solve_counts(BIG.mandatory_counts(), BIG.hand_counts(), singles=BIG.single_counts(),
                       ace=BIG.variant.ace, decks=BIG.variant.decks, limit=Limit(work=1))
    assert not cut.optimal


# -- bots ----------------------------------------------------------------------------------

def test_bots_take_a_time_limit_per_move():
    assert make_bot("planner", 1, limit=Limit(time=0.3)).budget == 0.3
    assert make_bot("planner", 1, 0.3).budget == 0.3
    assert make_bot("expert", 1, limit=Limit(time=0.2)).budget == 0.2
    assert make_bot("expert", 1).budget == ExpertBot().budget
    assert PlannerBot(limit=Limit(time=0.4)).budget == 0.4
    assert make_bot("greedy", 1, limit=Limit(time=0.3)).name == "greedy"  # plays at once


def test_bots_refuse_a_work_limit_per_move():
    for call in (lambda: make_bot("planner", limit=Limit(work=100)),
                 lambda: ExpertBot(limit=Limit(work=100))):
        with pytest.raises(InvalidArgumentError, match="time per move"):
            call()


def test_the_bots_inner_searches_keep_their_work_budgets():
    # what 0.02 s and 0.01 s were as kernel work budgets: the same moves as before
    assert SOLVE_LIMIT == Limit(work=60_000)
    assert FITS_LIMIT == Limit(work=30_000)


# -- solver.hint: a module and a function ---------------------------------------------------

def test_solver_hint_is_the_function_and_the_module_stays_importable():
    module = importlib.import_module("solver.hint")
    assert isinstance(module, types.ModuleType) and module.__name__ == "solver.hint"
    assert module.hint_position is hint_position
    assert solver.hint is module.hint and callable(solver.hint)
    from solver.hint import hint as from_module
    assert from_module is hint is solver.hint
    assert "importlib.import_module" in module.__doc__  # the choice is explained there
    assert solver.hint("5C 6C 7C 8C", "8D 8H").solution.score == 2


def test_solver_analysis_is_a_module_and_analyze_a_function():
    module = importlib.import_module("solver.analysis")
    assert solver.analysis is module and solver.analyze is module.analyze
    from solver.analysis import analyze as from_module
    assert from_module is analyze


def test_the_readme_python_example_runs():
    from solver.analysis import analyze as readme_analyze
    from solver.hint import hint as readme_hint
    position = Position.parse("5C 6C 7C 8C | 8S 8D 8H / 8D 8H / machiavelli")
    assert solve(position, objective="points", backend="cpsat").optimal
    assert readme_hint("5C 6C 7C 8C", "8D 8H", "machiavelli").changed_groups == [1]
    assert readme_analyze(position).best_cards == 2
