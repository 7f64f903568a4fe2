"""Regression tests for issue 9 items 10 and 13: every CLI subcommand's numbers, deep JSON,
broken records give one line and status 2 (never a traceback); replay refuses tampered and
seedless records and records whose result is missing or wrong."""

from __future__ import annotations

import copy
import json

import pytest

from bots.app.cli import main
from bots.arena.selfplay import play_game
from bots.referee.record import dumps, replay, resume
from solver.variants import Variant

TABLE = ["--table", "5C 6C 7C 8C", "--hand", "8D 8H"]
DEEP = "[" * 100_000 + "]" * 100_000


def _one_line_error(capsys, argv) -> str:
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, (argv[:4], err[-300:])
    assert err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 400
    return err


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-1", "0", "1e400", "x", "1e5"])
@pytest.mark.parametrize("backend", ["auto", "kernel", "cpsat"])
def test_solve_time_limit_must_be_finite_and_positive(capsys, value, backend):
    _one_line_error(capsys, ["solve", *TABLE, "--backend", backend, "--time-limit", value])


@pytest.mark.parametrize("argv", [
    ["analyze", *TABLE, "--rollouts", "-1"],
    ["analyze", *TABLE, "--rollouts", "2", "--seed", "-1"],
    ["analyze", *TABLE, "--rollouts", "2", "--seed", "9" * 30],
    ["analyze", *TABLE, "--max-plays", "0"],
    ["analyze", *TABLE, "--max-plays", "9" * 30],
    ["analyze", *TABLE, "--rollouts", "2", "--opponents", "-3"],
    ["analyze", *TABLE, "--rollouts", "2", "--opponents", ",".join(["1"] * 1000)],
    ["selfplay", "--seed", "-1", "--games", "1"],
    ["selfplay", "--seed", str(2**63 - 1), "--games", "2"],
    ["selfplay", "--games", "0"],
    ["selfplay", "--games", "1e3"],
    ["selfplay", "--players", "9" * 30],
    ["tournament", "--bots", "greedy", "--seed", "-1", "--games", "1"],
    ["tournament", "--bots", "greedy", "--games", "1", "--budget", "inf"],
    ["tournament", "--bots", "greedy", "--games", "1", "--budget", "nan"],
    ["tournament", "--bots", "greedy", "--games", "1", "--workers", "9999"],
    ["tournament", "--bots", "greedy", "--games", "1", "--workers", "0"],
    ["play", "--seed", "-1"],
    ["play", "--budget", "nan"],
    ["play", "--humans", "9" * 20],
    ["learn", "--seed", "-5"],
    ["solve", "--position", DEEP],
    ["solve", "--position", '{"table": ' + DEEP + "}"],
    ["solve", "--table", "ZZ " * 50_000, "--hand", "8D"],
    ["solve", "--variant", "tahiti", "--table", "*5H 5C *5D", "--hand", "5S"],
    ["solve", *TABLE, "--objective", "x" * 100_000],
])
def test_bad_numbers_and_inputs_give_one_short_line(capsys, argv):
    _one_line_error(capsys, argv)


@pytest.fixture(scope="module")
def records() -> list[dict]:
    """Finished records: a one-hand game and a three-hand machiavelli match."""
    one = play_game(Variant.parse("machiavelli"), ["greedy"], 2, 5).record()
    match = play_game(Variant.parse("machiavelli:rounds=3"), ["greedy"], 2, 4).record()
    assert len(match["hands"]) == 3
    return [json.loads(dumps(one)), json.loads(dumps(match))]


def test_untampered_records_replay_and_resume(records):
    for record in records:
        assert replay(record) is None
        assert resume(record).over


def _swap_stock(record: dict, hand: int) -> dict:
    tampered = copy.deepcopy(record)
    deal = tampered["hands"][hand]["deal"] if "hands" in tampered else tampered["deal"]
    stock = deal["stock"]
    other = next(i for i, card in enumerate(stock) if card != stock[-1])
    stock[-1], stock[other] = stock[other], stock[-1]
    return tampered


def test_replay_checks_later_hands_against_the_seed(records):
    tampered = _swap_stock(records[1], 1)
    problem = replay(tampered)
    assert problem is not None and "seed" in problem.message and problem.hand == 1
    with pytest.raises(ValueError):
        resume(tampered)


@pytest.mark.parametrize("change", [
    lambda r: r.pop("seed"),
    lambda r: r.update(seed=None),
    lambda r: r.update(seed=1e400),
    lambda r: r.update(seed=float("nan")),
    lambda r: r.update(seed="7"),
    lambda r: r.update(seed=-1),
    lambda r: r.update(seed=True),
    lambda r: r.update(seed=r["seed"] + 1),
    lambda r: r.pop("result"),
    lambda r: r.update(result=None),
    lambda r: r["result"][0].update(score=r["result"][0]["score"] + 1),
    lambda r: r.update(actions="draw"),
    lambda r: r.update(actions=[1, 2]),
    lambda r: r.update(actions=r["actions"][:-1]),
    lambda r: r.update(players="ab"),
    lambda r: r.update(options=[1]),
    lambda r: r.update(options={"name": "x"}),
    lambda r: r.update(variant=None),
    lambda r: r.update(deal=None),
    lambda r: r["actions"][0].update(player=None),
    lambda r: r["actions"][0].update(type=["play"]),
])
def test_replay_refuses_broken_and_tampered_records(records, change):
    record = copy.deepcopy(records[0])
    change(record)
    assert replay(record) is not None


def test_replay_refuses_a_wrong_hand_result_in_a_match(records):
    record = copy.deepcopy(records[1])
    row = record["hands"][0]["result"]["players"][0]
    row["score"] += 1
    assert replay(record) is not None


def test_replay_command_gives_one_line_for_a_deep_or_binary_file(capsys, tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text("{\"a\": " + DEEP + "}\n")
    _one_line_error(capsys, ["replay", str(deep)])
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe{}\n")
    _one_line_error(capsys, ["replay", str(binary)])


def test_replay_command_reports_a_tampered_match(capsys, tmp_path, records):
    path = tmp_path / "games.jsonl"
    path.write_text(dumps(_swap_stock(records[1], 2)) + "\n")
    assert main(["replay", str(path)]) == 1
    assert "seed" in capsys.readouterr().out
