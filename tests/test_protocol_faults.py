"""Regression tests for issue 9 item 12: the engine answers every line it reads, whatever the
bytes, and no request ends it (non-finite seeds, invalid UTF-8, deep nesting, odd ids); and for
an outside fuzzing pass: fields read in every documented form, derived seeds kept in range, and
a clear refusal of seat names, hand sizes and unseen cards the engine does not take."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from bots.app.protocol import Engine

BAD_LINES = [
    b"\xff\xfe\n",
    b'{"cmd": "hello", "id": "\xe9"}\n',
    b"\x00\x01\x02\n",
    b'{"cmd":"load","record":{"variant":"machiavelli","seed":1e400,"players":["a","b"]}}\n',
    b'{"cmd":"load","record":{"variant":"machiavelli","seed":NaN,"players":["a","b"]}}\n',
    b'{"cmd":"load","record":{"variant":"machiavelli","seed":"7","players":["a","b"]}}\n',
    b'{"cmd":"load","record":{"variant":"machiavelli","seed":1,"players":["a","b"],'
    b'"actions":"x","deal":{}}}\n',
    b'{"cmd":"new_game","seed":-1}\n',
    b'{"cmd":"new_game","seed":1e400}\n',
    b'{"cmd":"new_game","seed":' + b"9" * 40 + b"}\n",
    b'{"cmd":"new_game","budget":Infinity}\n',
    b'{"cmd":"position","table":"5C 6C 7C","hand":"8C","opened":"no"}\n',
    b'{"cmd":"position","table":' + b"[" * 50_000 + b"]" * 50_000 + b',"hand":"8C"}\n',
    b"[" * 100_000 + b"\n",
    b'{"cmd":"position","variant":"tahiti","table":"*5H 5C *5D","hand":"5S"}\n',
    b'{"cmd":"position","table":"' + b"ZZ " * 30_000 + b'","hand":"8C"}\n',
    b'{"cmd":"go","level":"planner","budget":0.05,"opponents":[-1]}\n',
    b'{"cmd":"analyze","max_plays":1e400}\n',
]


def _answers(lines: list[bytes]) -> list[dict]:
    sink = io.StringIO()
    Engine(iter(lines), sink).run()
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def test_every_bad_line_gets_one_error_answer_in_process():
    answers = _answers(BAD_LINES + [b'{"cmd":"hello","id":9}\n'])
    assert len(answers) == len(BAD_LINES) + 1
    for answer in answers[:-1]:
        assert answer["ok"] is False
        assert not answer["error"].startswith("internal error")
        assert len(answer["error"]) <= 300
    assert answers[-1]["ok"] is True and answers[-1]["id"] == 9


@pytest.mark.parametrize("request_id, echoed", [
    ("a", True), (7, True), (1.5, True), ("x" * 1000, False), (True, False),
    (10**30, False), ([1], False),
])
def test_ids_are_echoed_only_when_they_keep_the_answer_valid_json(request_id, echoed):
    line = json.dumps({"cmd": "hello", "id": request_id}).encode() + b"\n"
    answer = _answers([line])[0]
    assert ("id" in answer) is echoed


def test_non_finite_ids_are_not_echoed():
    answers = _answers([b'{"cmd":"hello","id":NaN}\n', b'{"cmd":"hello","id":-Infinity}\n'])
    assert all("id" not in answer for answer in answers)


def test_live_engine_survives_invalid_bytes_and_non_finite_seeds():
    engine = subprocess.Popen([sys.executable, "-m", "bots.app.cli", "engine"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for line in BAD_LINES[:8]:
            engine.stdin.write(line)
            engine.stdin.flush()
            answer = json.loads(engine.stdout.readline())
            assert answer["ok"] is False
        engine.stdin.write(b'{"cmd":"quit"}\n')
        engine.stdin.flush()
        assert json.loads(engine.stdout.readline())["ok"] is True
        assert engine.wait(timeout=30) == 0
    finally:
        if engine.poll() is None:
            engine.kill()


# -- an outside fuzzing pass: fields read as documented, seeds in range, clear refusals -------
def _ask(engine: Engine, request: dict) -> dict:
    return engine.answer(json.dumps(request))


def test_position_takes_its_table_and_hand_as_lists_or_texts():
    engine = Engine((), io.StringIO())
    as_lists = _ask(engine, {"cmd": "position", "table": [["5C", "6C", "7C"], ["9H", "9D", "9S"]],
                             "hand": ["8C", "2D"]})
    as_text = _ask(engine, {"cmd": "position", "table": "5C 6C 7C | 9H 9D 9S", "hand": "8C 2D"})
    assert as_lists == as_text == {"ok": True, "position": "5C 6C 7C | 9H 9D 9S / 8C 2D / "
                                                           "machiavelli"}
    assert _ask(engine, {"cmd": "solve"})["solution"]["score"] == 1


@pytest.mark.parametrize("fields, words", [
    ({"table": 5, "hand": "8C"}, ["'table' must be a list of groups", "not a number"]),
    ({"table": {}, "hand": "8C"}, ["'table' must be", "not an object"]),
    ({"table": "5C 6C 7C", "hand": True}, ["'hand' must be a list of cards", "not true"]),
    ({"table": "5C 6C 7C", "hand": "8C", "variant": ["machiavelli"]},
     ["'variant' must be a string, not a list"]),
])
def test_a_position_field_of_the_wrong_kind_says_what_it_must_be(fields, words):
    answer = _ask(Engine((), io.StringIO()), {"cmd": "position", **fields})
    assert answer["ok"] is False
    assert all(word in answer["error"] for word in words), answer["error"]


def test_bot_seeds_derived_from_the_largest_seed_stay_in_range():
    from bots.app.session import derived_seed
    from solver.arguments import MAX_SEED

    assert derived_seed(MAX_SEED, 1) == 0 and derived_seed(5, 2) == 7
    engine = Engine((), io.StringIO())
    started = _ask(engine, {"cmd": "new_game", "seats": ["client", "greedy"], "seed": MAX_SEED})
    assert started["ok"], started
    assert _ask(engine, {"cmd": "move", "action": {"type": "draw"}})["ok"]
    answer = _ask(engine, {"cmd": "go", "level": "greedy"})
    assert answer["ok"], answer


@pytest.mark.parametrize("command", [
    {"cmd": "new_game", "seats": ["human", "greedy"]},
    {"cmd": "new_game", "seats": ["client", "grandmaster"]},
    {"cmd": "load", "record": {"variant": "machiavelli", "seed": 1, "players": ["a", "b"]},
     "seats": ["client", "person"]},
])
def test_an_unknown_seat_lists_the_engines_own_seat_names(command):
    answer = _ask(Engine((), io.StringIO()), command)
    assert answer["ok"] is False and "unknown seat" in answer["error"]
    assert "'client'" in answer["error"] and "human" not in answer["error"].split("(")[1]
    assert "greedy" in answer["error"]


@pytest.mark.parametrize("opponents, words", [
    ([0], "must be positive"), ([13, -2], "must be positive"),
    ([True], "whole number"), ([1.5], "whole number"), (5, "list of 1 to 4"),
])
def test_go_refuses_opponents_hand_sizes_that_are_not_positive_whole_numbers(opponents, words):
    engine = Engine((), io.StringIO())
    assert _ask(engine, {"cmd": "position", "table": "5C 6C 7C", "hand": "8C 2D"})["ok"]
    answer = _ask(engine, {"cmd": "go", "level": "greedy", "opponents": opponents})
    assert answer["ok"] is False and words in answer["error"], answer["error"]
    assert "do not fit" not in answer["error"]


def test_the_rollouts_refuse_an_empty_opponents_hand_as_the_engine_does():
    from bots.players.estimate import win_chance
    from solver.errors import InvalidArgumentError
    from solver.position import Position

    with pytest.raises(InvalidArgumentError, match="must be positive"):
        win_chance(Position.make("5C 6C 7C", "8C 2D"), [0], rollouts=5)


@pytest.mark.parametrize("unseen, words", [
    ("9C 9C 9C 9C", "4 copies of 9C"), (["8C", "8C"], "3 copies of 8C"),
    (5, "'unseen' must be a list of cards"), ({}, "not an object"), (False, "not false"),
])
def test_analyze_refuses_unseen_cards_the_packs_cannot_hold_or_of_the_wrong_kind(unseen, words):
    engine = Engine((), io.StringIO())
    assert _ask(engine, {"cmd": "position", "table": "5C 6C 7C", "hand": "8C 2D"})["ok"]
    answer = _ask(engine, {"cmd": "analyze", "unseen": unseen})
    assert answer["ok"] is False and words in answer["error"], answer["error"]
    fits = _ask(engine, {"cmd": "analyze", "unseen": "9C 9C"})  # both of the two 9Cs
    assert fits["ok"] and fits["analysis"]["outs"] == [{"card": "9C", "more": 1}]
