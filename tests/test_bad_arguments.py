"""Regression tests for issue 9 items 11, 14 and 15: the Python API checks its arguments at
the top and raises the documented ValueError subclasses; bad tables are rejected at
validation; error messages never echo big inputs; time limits and budgets are kept."""

from __future__ import annotations

import time

import pytest

from bots.arena.selfplay import play_game
from bots.players import make_bot
from bots.players.expert import ExpertBot
from bots.players.planner import PlannerBot
from solver import Position, Variant, analyze, hint, solve, solve_position
from solver.analysis import analyze as analyze_position
from solver.errors import (
    InvalidArgumentError,
    InvalidCardError,
    InvalidGroupError,
    MalformedPositionError,
    PositionError,
    cannot,
    clip,
)
from solver.hint import hint_position

POSITION = Position.make("5C 6C 7C 8C", "8D 8H")
WRONG = [None, 3, 2.5, object(), b"8D", {1}]


@pytest.mark.parametrize("value", WRONG)
def test_solve_rejects_wrong_types_for_table_and_hand(value):
    with pytest.raises(InvalidCardError):
        solve(value, "8D")
    with pytest.raises(InvalidCardError):
        solve("5C 6C 7C", value)


@pytest.mark.parametrize("call", [
    lambda: solve("5C 6C 7C", "8C", opened="no"),
    lambda: solve("5C 6C 7C", "8C", opened=1),
    lambda: solve("5C 6C 7C", "8C", workers=0),
    lambda: solve("5C 6C 7C", "8C", workers="2"),
    lambda: solve("5C 6C 7C", "8C", workers=True),
    lambda: solve("5C 6C 7C", "8C", time_limit=float("inf")),
    lambda: solve("5C 6C 7C", "8C", time_limit=float("nan")),
    lambda: solve("5C 6C 7C", "8C", time_limit=10**400),
    lambda: solve("5C 6C 7C", "8C", time_limit="1"),
    lambda: solve("5C 6C 7C", "8C", objective=None),
    lambda: solve("5C 6C 7C", "8C", backend=3),
    lambda: solve_position("5C 6C 7C / 8C"),
    lambda: solve_position(None),
    lambda: hint("5C 6C 7C", "8C", opened="yes"),
    lambda: hint_position(None),
    lambda: hint_position(POSITION, objective=[]),
    lambda: hint_position(POSITION, time_limit=-1),
    lambda: analyze_position("5C 6C 7C / 8C"),
    lambda: analyze(POSITION, max_plays=0),
    lambda: analyze(POSITION, max_plays=2.0),
    lambda: analyze(POSITION, max_plays=None),
    lambda: analyze(POSITION, unseen=5),
    lambda: analyze(POSITION, unseen=[None]),
    lambda: Position.make("5C 6C 7C", "8C", opened="no"),
    lambda: Position.parse(None),
    lambda: Position.parse(42),
    lambda: Position.from_json(None),
    lambda: Position.from_json("[" * 100_000 + "]" * 100_000),
    lambda: Position.from_json({"table": [[[["5C"]]]]}),
    lambda: Variant.parse(None),
    lambda: Variant.parse(3),
    lambda: make_bot(None),
    lambda: make_bot("greedy", seed=-1),
    lambda: make_bot("expert", seed=0, budget=float("inf")),
    lambda: make_bot("planner", seed=0, budget=0),
    lambda: PlannerBot(seed="1"),
    lambda: PlannerBot(weights=3),
    lambda: ExpertBot(budget=0),
    lambda: ExpertBot(work=0),
    lambda: ExpertBot(safety=-1.0),
    lambda: PlannerBot(safety=float("nan")),
    lambda: ExpertBot(rollouts=0),
    lambda: ExpertBot(rollouts=1.5),
])
def test_every_public_function_raises_a_documented_value_error(call):
    with pytest.raises(PositionError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert len(str(caught.value)) < 300


def test_invalid_arguments_are_invalid_option_errors_and_name_the_argument():
    with pytest.raises(InvalidArgumentError, match="workers"):
        solve("5C 6C 7C", "8C", workers=-3)
    with pytest.raises(InvalidArgumentError, match="opened"):
        solve("5C 6C 7C", "8C", opened="no")


def test_tahiti_group_with_two_jokers_is_rejected_at_validation():
    for table in ("*5H 5C *5D", "*5H *5C 5D", "4S *5S *6S 7S"):
        with pytest.raises(InvalidGroupError, match="at most one joker"):
            solve(table, "5S", "tahiti")
    assert solve("*5H 5C 5D", "5S", "tahiti").played  # one joker is fine
    assert solve("*5H 5C *5D", "5S", "carousel").score >= 0  # carousel allows two


def test_error_messages_do_not_echo_big_inputs():
    big = "ZZ" * 70_000
    for call in (lambda: solve(big, "8D"), lambda: solve("5C 6C 7C", big),
                 lambda: Position.parse(big), lambda: Position.parse(big + " / 8D / x / y"),
                 lambda: Position.from_json({big: 1})):
        with pytest.raises(PositionError) as caught:
            call()
        assert len(str(caught.value)) < 300


def test_clip_keeps_short_texts_and_cuts_long_ones():
    assert clip("short") == "short"
    assert clip("x" * 80) == "x" * 80
    assert clip("x" * 81) == "x" * 77 + "..."
    assert len(clip("y" * 10_000)) == 80
    assert clip("abcdef", limit=5) == "ab..."


def test_cannot_gives_the_reason_of_a_failed_os_call_never_none():
    missing = FileNotFoundError(2, "No such file or directory")
    assert cannot("read x.json", missing) == "cannot read x.json: No such file or directory"
    assert cannot("reach the Ray cluster at h:1", TimeoutError("timed out")) == \
        "cannot reach the Ray cluster at h:1: timed out"
    assert cannot("write out.txt", OSError("disk gone")) == "cannot write out.txt: disk gone"


def test_deeply_nested_json_position_is_malformed_not_a_recursion_error():
    with pytest.raises(MalformedPositionError, match="nested"):
        Position.from_json('{"table": ' + "[" * 50_000 + "]" * 50_000 + "}")


def _joker_positions() -> list[Position]:
    """Positions met in seeded vatican and tahiti games (jokers on the table and in hands)."""
    from bots.referee.observation import observe

    found: list[Position] = []

    def grab(game):
        if not game.over and len(found) < 400:
            found.append(observe(game, game.current_player, None).position())

    for variant in ("vatican", "tahiti"):
        for seed in range(2):
            play_game(Variant.parse(variant), ["greedy"], 2, seed, on_action=grab)
    return [p for p in found if p.has_jokers]


def test_time_limit_is_kept_and_a_cut_search_is_not_called_optimal(frozen_heap):
    solve("5C 6C 7C 8C", "8D 8H", backend="cpsat")  # load OR-Tools outside the timing
    solve("5C 6C 7C 8C", "8D 8H", backend="kernel")
    positions = _joker_positions()[::4]
    assert len(positions) > 20
    for limit in (0.01, 0.05):
        for position in positions:
            started = time.process_time()  # CPU time: a busy machine cannot inflate it
            solution = solve_position(position, time_limit=limit)
            took = time.process_time() - started
            assert took <= 2 * limit + 0.05, (limit, took, str(position))
            exact = solve_position(position)
            assert solution.score <= exact.score
            if solution.optimal:
                assert solution.score == exact.score, str(position)


def test_planner_keeps_its_budget(frozen_heap):
    from bots.referee.observation import observe

    observations = []

    def grab(game):
        if not game.over:
            observations.append(observe(game, game.current_player, None))

    for variant in ("machiavelli", "tahiti"):
        play_game(Variant.parse(variant), ["greedy"], 2, 3, on_action=grab)
    # compile, and pay the solver's one-time set-ups (an automaton built on first use,
    # OR-Tools' import: solver.warmup.setup_seconds), outside the timing
    for observation in observations[::5]:
        make_bot("planner", 0, 0.05).choose(observation)
    for observation in observations[::5]:
        started = time.process_time()  # CPU time: a busy machine cannot inflate it
        make_bot("planner", 0, 0.05).choose(observation)
        assert time.process_time() - started <= 2 * 0.05 + 0.05


def test_cli_time_limit_does_not_pay_for_loading_or_tools():
    """A fresh process: ``solve --backend cpsat --time-limit 0.01`` on a vatican table joker
    loads OR-Tools before the clock starts, and says ``optimal: false`` if the search was
    cut. (``auto`` now gives this position to the kernel.)"""
    import json
    import subprocess
    import sys

    argv = [sys.executable, "-m", "bots.app.cli", "solve", "--variant", "vatican", "--table",
            "5H 6H 7H 8H | 9S 9D 9C | *JD JH JC | 2C 3C 4C 5C",
            "--hand", "* 5C 6C 7D 8D 9D KS KH QH 10S 3D 4D", "--backend", "cpsat", "--json",
            "--time-limit"]
    exact = solve("5H 6H 7H 8H | 9S 9D 9C | *JD JH JC | 2C 3C 4C 5C",
                  "* 5C 6C 7D 8D 9D KS KH QH 10S 3D 4D", "vatican")
    for limit in (0.01, 0.05):
        result = json.loads(subprocess.run(argv + [str(limit)], capture_output=True,
                                           text=True, check=True, timeout=120).stdout)
        assert result["backend"] == "cpsat"
        assert result["elapsed_ms"] <= 1000 * (2 * limit + 0.05)
        if result["optimal"]:
            assert result["score"] == exact.score
