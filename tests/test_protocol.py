"""The engine protocol: a scripted client plays a whole game; malformed lines never stop it."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

from bots.app.protocol import Engine
from solver import compile_notice


def ask(engine: Engine, request: dict | str) -> dict:
    line = request if isinstance(request, str) else json.dumps(request)
    return engine.answer(line)


class EngineProcess:
    """``machiavelli engine`` in a child process, one request and one answer at a time."""

    def __init__(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-m", "bots.app.cli", "engine"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, request: dict) -> dict:
        self.child.stdin.write(json.dumps(request) + "\n")
        self.child.stdin.flush()
        return json.loads(self.child.stdout.readline())

    def close(self) -> tuple[int, str]:
        assert self.ask({"cmd": "quit"}) == {"ok": True, "bye": True}
        self.child.stdin.close()
        code = self.child.wait(timeout=60)
        return code, self.child.stderr.read()


def test_a_client_plays_a_whole_game_with_the_engines_moves():
    engine = EngineProcess()
    hello = engine.ask({"cmd": "hello", "id": 7})
    assert hello["ok"] and hello["id"] == 7 and "expert" in hello["levels"]
    state = engine.ask({"cmd": "new_game", "seats": ["client", "greedy", "beginner"],
                        "seed": 5})
    assert state["ok"] and state["seats"] == ["client", "greedy", "beginner"]
    moves = hints = 0
    while not state["over"]:
        assert state["to_move"] == 0  # bots move by themselves
        if moves % 5 == 0:
            hint = engine.ask({"cmd": "hint"})
            assert hint["ok"] and "steps" in hint["hint"]
            hints += 1
        bad = engine.ask({"cmd": "move", "action": {"type": "play", "played": ["AS"],
                                                    "table": [["AS"]]}})
        assert not bad["ok"]  # an illegal move changes nothing
        suggestion = engine.ask({"cmd": "go", "level": "planner"})
        assert suggestion["ok"], suggestion
        state = engine.ask({"cmd": "move", "action": suggestion["action"]})
        assert state["ok"], state
        moves += 1
        if moves == 3:
            record = engine.ask({"cmd": "save"})["record"]
            resumed = Engine(io.StringIO(), io.StringIO())
            again = ask(resumed, {"cmd": "load", "record": record,
                                  "seats": ["client", "greedy", "beginner"]})
            assert again["ok"], again
            assert again["observation"]["hand"] == state["observation"]["hand"]
        assert moves < 500
    assert state["over"] and len(state["results"]) == 3
    assert sum(row["winner"] for row in state["results"]) >= 1
    assert hints >= 1
    assert not engine.ask({"cmd": "move", "action": {"type": "draw"}})["ok"]
    code, errors = engine.close()
    assert code == 0 and errors == ""


def test_position_commands():
    engine = Engine(io.StringIO(), io.StringIO())
    assert ask(engine, {"cmd": "position", "table": "5C 6C 7C 8C", "hand": "8D 8H"})["ok"]
    solution = ask(engine, {"cmd": "solve"})["solution"]
    assert solution["score"] == 2
    assert ask(engine, {"cmd": "hint"})["hint"]["changed_groups"] == [1]
    analysis = ask(engine, {"cmd": "analyze", "unseen": "8S 2D"})["analysis"]
    assert analysis["best"]["cards"] == 2 and analysis["outs"] == [{"card": "8S", "more": 1}]
    move = ask(engine, {"cmd": "go", "level": "greedy"})["action"]
    assert move["type"] == "play" and sorted(move["played"]) == ["8D", "8H"]
    bad = ask(engine, {"cmd": "position", "table": "5C 6C 7C", "hand": "8Z"})
    assert not bad["ok"] and "8Z" in bad["error"]
    assert ask(engine, {"cmd": "solve"})["ok"]  # the last good position is kept


def random_line(rng: random.Random) -> str:
    """Something a broken client might send."""
    good = [{"cmd": "hint"}, {"cmd": "move", "action": {"type": "play"}},
            {"cmd": "position", "table": "5C 6C 7C"}, {"cmd": "new_game", "seats": "x"},
            {"cmd": "go", "level": "expert", "budget": -1}, {"cmd": "analyze", "max_plays": 0},
            {"cmd": "load", "record": {"variant": "nope"}}, {"cmd": "new_game", "seed": "1"},
            {"cmd": "move", "action": {"type": "play", "played": ["AS"], "table": "AS"}},
            {"cmd": "position", "position": 5}, {"cmd": 3}, {}]
    kind = rng.randrange(6)
    if kind == 0:
        return json.dumps(rng.choice(good))
    if kind == 1:
        text = json.dumps(rng.choice(good))
        cut = rng.randrange(len(text))
        return text[:cut] + rng.choice(["", "}", "\\", "\"", "[", "\x00"]) + text[cut + 1:]
    if kind == 2:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 40)))
    if kind == 3:
        return json.dumps(rng.choice([[], 1, "cmd", None, True, 1e308, {"cmd": None}]))
    if kind == 4:
        depth = rng.randrange(1, 3000)
        return "[" * depth + "]" * depth
    request = {"cmd": rng.choice(["position", "go", "move", "state", "save", "analyze"]),
               "table": rng.choice(["5C 6C", "|||", 5, None]),
               "hand": rng.choice(["8D", "", "1X", []]), "level": rng.choice(["expert", 3]),
               "action": rng.choice([None, {"type": "knock"}, {"type": "draw"}, "draw"])}
    return json.dumps(request)


def test_a_thousand_malformed_lines_do_not_stop_the_engine():
    rng = random.Random(1)
    lines = [random_line(rng) for _ in range(1000)]
    lines.append(json.dumps({"cmd": "position", "table": "5C 6C 7C 8C", "hand": "8D 8H"}))
    lines.append(json.dumps({"cmd": "solve", "id": "last"}))
    lines.append(json.dumps({"cmd": "quit"}))
    engine = subprocess.run([sys.executable, "-m", "bots.app.cli", "engine"],
                            input="\n".join(lines) + "\n", capture_output=True, text=True,
                            timeout=300)
    assert engine.returncode == 0, engine.stderr[-2000:]
    answers = [json.loads(line) for line in engine.stdout.splitlines()]
    blank = sum(1 for line in lines if not line.strip())
    assert len(answers) == len(lines) - blank
    assert all(answer["ok"] is False for answer in answers[:-3] if "error" in answer)
    assert answers[-2]["id"] == "last" and answers[-2]["solution"]["score"] == 2
    assert answers[-1] == {"ok": True, "bye": True}
    # nothing on stderr but, on a cold numba cache, the one-time compiling notice
    assert engine.stderr in ("", f"machiavelli: {compile_notice.MESSAGE}\n"), engine.stderr


def test_incomplete_penalty_an_illegal_move_touches_the_turn_and_survives_save_and_load():
    engine = Engine(io.StringIO(), io.StringIO())
    state = ask(engine, {"cmd": "new_game", "variant": "machiavelli:incomplete=penalty",
                         "seats": ["client", "greedy"], "seed": 3})
    assert state["ok"] and state["to_move"] == 0
    assert "draw" in state["observation"]["legal"]
    card = state["observation"]["hand"][0]
    table = state["observation"]["table"]
    bad = ask(engine, {"cmd": "move", "action": {"type": "play", "played": [card],
                                                 "table": [*table, [card]]}})
    assert not bad["ok"] and "touched the table" in bad["error"]
    assert ask(engine, {"cmd": "state"})["observation"]["legal"] == ["give_up", "play"]
    refused = ask(engine, {"cmd": "move", "action": {"type": "draw"}})
    assert not refused["ok"] and "give up" in refused["error"]
    malformed = ask(engine, {"cmd": "move", "action": {"type": "play", "played": ["ZZ"],
                                                       "table": [["ZZ"]]}})
    assert not malformed["ok"]
    record = ask(engine, {"cmd": "save"})["record"]
    assert record["touched"] is True
    resumed = Engine(io.StringIO(), io.StringIO())
    again = ask(resumed, {"cmd": "load", "record": record, "seats": ["client", "greedy"]})
    assert again["ok"] and again["observation"]["legal"] == ["give_up", "play"]
    done = ask(resumed, {"cmd": "move", "action": {"type": "give_up"}})
    assert done["ok"] and done["events"][0]["action"] == {"type": "give_up"}
    assert len(done["observation"]["hand"]) >= len(state["observation"]["hand"]) + 3


def test_incomplete_penalty_a_malformed_move_costs_nothing():
    engine = Engine(io.StringIO(), io.StringIO())
    state = ask(engine, {"cmd": "new_game", "variant": "machiavelli:incomplete=penalty",
                         "seats": ["client", "greedy"], "seed": 3})
    hand = state["observation"]["hand"]
    missing = next(c for c in ["AS", "2S", "3S", "4S", "5S"] if c not in hand)
    bad = ask(engine, {"cmd": "move", "action": {"type": "play", "played": [missing],
                                                 "table": [[missing]]}})
    assert not bad["ok"] and "not in the hand" in bad["error"]
    assert "draw" in ask(engine, {"cmd": "state"})["observation"]["legal"]
    assert ask(engine, {"cmd": "move", "action": {"type": "draw"}})["ok"]


def test_empty_stock_draw_is_a_pass_through_the_protocol():
    from bots.referee.game import Game

    engine = Engine(io.StringIO(), io.StringIO())
    ask(engine, {"cmd": "new_game", "seats": ["client", "client"], "seed": 2})
    game: Game = engine.session.game
    game.stock.clear()  # as if the stock had run out
    answer = ask(engine, {"cmd": "move", "action": {"type": "draw"}})
    assert answer["ok"], answer
    assert answer["events"][0]["action"] == {"type": "pass"}
    assert ask(engine, {"cmd": "save"})["record"]["actions"][-1] == {"player": 0,
                                                                      "type": "pass"}


def test_analyze_with_rollouts_gives_the_experts_winning_chances():
    from bots.players.estimate import win_chance, win_chance_seen
    from solver.position import Position

    engine = Engine(io.StringIO(), io.StringIO())
    ask(engine, {"cmd": "position", "table": "5C 6C 7C 8C", "hand": "8D 8H"})
    assert "win_chance" not in ask(engine, {"cmd": "analyze"})["analysis"]
    out = ask(engine, {"cmd": "analyze", "rollouts": 5})["analysis"]["win_chance"]
    assert out == {"chance": 1.0, "ci95": [1.0, 1.0], "rollouts": 5}  # it goes out at once

    ask(engine, {"cmd": "position", "table": "5C 6C 7C", "hand": "KD 2H 9S QC"})
    asked = {"cmd": "analyze", "rollouts": 12, "seed": 4, "opponents": [3]}
    chance = ask(engine, asked)["analysis"]["win_chance"]
    position = Position.make("5C 6C 7C", "KD 2H 9S QC")
    assert chance == win_chance(position, [3], 12, 4).to_json()
    assert 0 < chance["chance"] < 1  # a 4-card hand that cannot play against a 3-card hand
    for bad, word in (({"rollouts": 0}, "'rollouts'"), ({"rollouts": "9"}, "'rollouts'"),
                      ({"rollouts": 3, "seed": -1}, "'seed'"),
                      ({"rollouts": 3, "opponents": [0]}, "hand size")):
        answer = ask(engine, {"cmd": "analyze", **bad})
        assert not answer["ok"] and word in answer["error"], answer

    ask(engine, {"cmd": "new_game", "seats": ["client", "greedy"], "seed": 3})
    ask(engine, {"cmd": "move", "action": {"type": "draw"}})  # greedy then plays: 14 to 10
    chance = ask(engine, {"cmd": "analyze", "rollouts": 20, "seed": 5})["analysis"]["win_chance"]
    seen = engine.session.observation()
    assert seen.hand_sizes == (14, 10)
    assert chance == win_chance_seen(seen, 20, 5).to_json()
    assert chance != win_chance(engine._position(), [13], 20, 5).to_json()  # the game's sizes
    refused = ask(engine, {"cmd": "analyze", "rollouts": 6, "opponents": [13]})
    assert not refused["ok"] and "'opponents' is for a position" in refused["error"]
