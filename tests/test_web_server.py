"""The web server (``machiavelli serve``) over FastAPI's test client: the HTTP routes, whole
games over the seat's WebSocket, malformed and oversized messages, tokens, hidden cards,
reconnecting, expiry, and one game's slow bot not delaying another game."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bots.app.web.server import BAD_TOKEN, MAX_MESSAGE, NO_GAME, create_app
from bots.players import REGISTRY
from solver.variants import VARIANT_NAMES

QUICK = "guadalupe"  # five cards each: a game ends in a few dozen moves
CARD = re.compile(r"^\*?(?:10|[2-9AJQK])[SHDC]$|^\*$")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def new_game(client: TestClient, seats: list[str], seed: int = 1, variant: str = QUICK,
             **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"variant": variant, "seats": seats, "seed": seed,
                                             **extra})
    assert answer.status_code == 200, answer.text
    return answer.json()


def seat_path(game: dict[str, Any], seat: int) -> str:
    return f"/ws/game/{game['game']}?token={game['seats'][seat]['token']}"


def ask(socket: Any, cmd: str, pushes: list[dict] | None = None, **fields: Any) -> dict[str, Any]:
    """Send a request and return its answer; pushes that come first go to ``pushes``."""
    socket.send_json({"cmd": cmd, "id": cmd, **fields})
    while True:
        answer = socket.receive_json()
        if "push" not in answer:
            assert answer.get("id") == cmd, answer
            return answer
        if pushes is not None:
            pushes.append(answer)


def next_move(socket: Any, state: dict[str, Any], log: list[dict] | None = None
              ) -> dict[str, Any]:
    """A move as a page would make it: auto-place the hint's cards, else draw (or pass);
    the answers (and any pushes) go to ``log`` if given."""
    hint = ask(socket, "hint", log)
    placed = ask(socket, "place", log, cards=hint["hint"]["played"]) \
        if hint["ok"] and hint["hint"]["played"] else None
    if log is not None:
        log.extend(answer for answer in (hint, placed) if answer is not None)
    if placed is not None:
        assert placed["ok"], placed
        return placed["play"]
    legal = state["observation"]["legal"]
    return {"type": "draw"} if "draw" in legal else {"type": "pass"}


# -- HTTP ---------------------------------------------------------------------------------
def test_info_names_the_variants_their_options_and_the_levels(client):
    info = client.get("/api/info").json()
    assert info["ok"] and info["name"] == "machiavelli-engine"
    assert list(info["variant_options"]) == list(VARIANT_NAMES)
    assert info["variant_options"]["machiavelli"]["options"]["ace"] == {
        "default": "both", "choices": "low, high or both"}
    assert info["variant_options"]["guadalupe"]["max_players"] == 5
    assert info["levels"] == list(REGISTRY)


def test_pages_and_static_files_are_served(client):
    for path in ("/", "/table.html", "/position.html", "/record.html"):
        page = client.get(path)
        assert page.status_code == 200 and "<html" in page.text.lower(), path
    assert client.get("/static/js/ws.js").status_code == 200
    assert client.get("/static/../server.py").status_code == 404
    assert client.get("/nothing.html").status_code == 404


def test_a_new_game_has_secret_ids_and_a_token_per_person_seat_only(client):
    first = new_game(client, ["person", "greedy", "person"])
    second = new_game(client, ["person", "greedy", "person"])
    assert len(first["game"]) >= 22 and first["game"] != second["game"]
    kinds = [seat["kind"] for seat in first["seats"]]
    assert kinds == ["person", "greedy", "person"]
    assert "token" not in first["seats"][1]
    tokens = {first["seats"][0]["token"], first["seats"][2]["token"],
              second["seats"][0]["token"]}
    assert len(tokens) == 3
    assert first["seats"][2]["link"] == (f"/table.html?game={first['game']}&seat=2"
                                         f"&token={first['seats'][2]['token']}")


@pytest.mark.parametrize("body", [
    {"seats": ["person"]}, {"seats": ["person"] * 6}, {"seats": ["greedy", "greedy"]},
    {"seats": ["person", "grandmaster"]}, {"seats": ["person", "greedy"], "variant": "poker"},
    {"seats": ["person", "greedy"], "variant": "machiavelli:ace=middle"},
    {"seats": ["person", "greedy"], "seed": -1}, {"seats": ["person", "greedy"], "budget": 0},
    {"seats": "person,greedy"}, [1, 2],
])
def test_a_bad_new_game_is_refused_with_one_line(client, body):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    error = answer.json()
    assert error["ok"] is False and "\n" not in error["error"] and error["error"]


@pytest.mark.parametrize("seats", [["person", "client"], ["person", "human"]])
def test_an_unknown_seat_names_the_seats_the_web_api_takes(client, seats):
    answer = client.post("/api/games", json={"seats": seats})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert f"unknown seat {seats[1]!r}" in error and "'person'" in error and "greedy" in error
    assert "or human" not in error and "'client'" not in error.split("(")[1]


def test_a_new_game_body_that_is_not_json_or_too_big_is_refused(client):
    assert client.post("/api/games", content=b"{not json").status_code == 400
    big = b'{"seats": ["person", "greedy"], "pad": "' + b"x" * MAX_MESSAGE + b'"}'
    assert "KiB" in client.post("/api/games", content=big).json()["error"]


# -- a whole game --------------------------------------------------------------------------
def play_to_the_end(socket: Any, state: dict[str, Any], limit: int = 200) -> tuple[dict, int]:
    moves = 0
    while not state["over"]:
        assert moves < limit, "the quick game did not end"
        state = ask(socket, "move", action=next_move(socket, state))
        assert state["ok"], state
        moves += 1
    return state, moves


def test_a_whole_game_against_greedy_by_place_then_move(client):
    game = new_game(client, ["person", "greedy"], seed=3)
    with client.websocket_connect(seat_path(game, 0)) as socket:
        pushed = socket.receive_json()
        assert pushed["push"] == "state" and pushed["to_move"] == 0
        assert [s["kind"] for s in pushed["seats"]] == ["person", "greedy"]
        final, moves = play_to_the_end(socket, ask(socket, "state"))
        assert 3 <= moves <= 60
        assert final["over"] and len(final["results"]) == 2
        assert any(entry["type"] == "play" and entry["changed"] for entry in final["log"])
        record = ask(socket, "save")["record"]
        assert record["result"] == final["results"] and "seed" in record
        assert ask(socket, "hint")["error"] == "the game is over"
    steps = client.post("/api/replay", json={"record": record}).json()["steps"]
    events = [step["event"] for step in steps[1:]]
    logged = [entry for event in events for entry in [event, *event.pop("then", [])]]
    assert steps[0]["event"] is None and logged == [
        {**entry, **({"knock": True} if i + 1 < len(record["actions"]) and record["actions"][
            i + 1]["type"] == "knock" else {})} for i, entry in enumerate(record["actions"])]
    assert steps[-1]["table"] == final["observation"]["table"]


def test_a_seat_may_move_only_on_its_turn_and_a_refused_move_changes_nothing(client):
    game = new_game(client, ["person", "greedy", "person"], seed=5)
    with client.websocket_connect(seat_path(game, 0)) as first, \
            client.websocket_connect(seat_path(game, 2)) as second:
        state = first.receive_json()
        second.receive_json()
        waiting = second if state["to_move"] == 0 else first
        refused = ask(waiting, "move", action={"type": "draw"})
        assert refused["ok"] is False and "turn" in refused["error"]
        assert ask(waiting, "hint")["ok"] is False
        assert ask(waiting, "state")["stock_size"] == state["stock_size"]


# -- bad messages and tokens ---------------------------------------------------------------
BAD_MESSAGES = ["not json", "[1, 2]", '{"cmd": "fly"}', '{"cmd": "move"}',
                '{"cmd": "move", "action": {"type": "teleport"}}', '{"cmd": "place"}',
                '{"cmd": "place", "cards": ["ZZ"]}', '{"cmd": "place", "cards": ["KS", "KS"]}',
                '{"cmd": "new_game"}', '{"cmd": "quit"}', "[" * 100_000]


def test_malformed_and_oversized_messages_get_errors_and_the_socket_keeps_working(client):
    game = new_game(client, ["person", "greedy"], seed=3)
    with client.websocket_connect(seat_path(game, 0)) as socket:
        socket.receive_json()
        for text in BAD_MESSAGES:
            socket.send_text(text)
            answer = socket.receive_json()
            assert answer["ok"] is False and answer["error"], text[:40]
        socket.send_text('{"cmd": "state", "id": 7, "pad": "' + "x" * MAX_MESSAGE + '"}')
        assert "64 KiB" in socket.receive_json()["error"]
        socket.send_bytes(b"\xff\xfe")
        assert "UTF-8" in socket.receive_json()["error"]
        state = ask(socket, "state")
        assert state["ok"] and not state["over"]


def test_a_wrong_token_or_game_is_refused_and_a_token_acts_only_for_its_seat(client):
    game = new_game(client, ["person", "greedy", "person"], seed=5)
    for path, code in ((f"/ws/game/{game['game']}?token=guess", BAD_TOKEN),
                       (f"/ws/game/{game['game']}", BAD_TOKEN),
                       (f"/ws/game/nope?token={game['seats'][0]['token']}", NO_GAME)):
        with client.websocket_connect(path) as socket:
            assert socket.receive_json()["ok"] is False
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == code
    other = new_game(client, ["person", "greedy"], seed=5)
    with client.websocket_connect(f"/ws/game/{other['game']}?token="
                                  f"{game['seats'][0]['token']}") as socket:
        socket.receive_json()
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    with client.websocket_connect(seat_path(game, 2)) as socket:
        state = socket.receive_json()
        assert state["seat"] == 2 and state["observation"]["player"] == 2


# -- hidden cards --------------------------------------------------------------------------
def cards_in(message: Any) -> Iterator[str]:
    if isinstance(message, str):
        if CARD.match(message):
            yield message
    elif isinstance(message, dict):
        for key, value in message.items():
            if key != "outs":  # the analysis's outs: cards the seat has not seen, by design
                yield from cards_in(value)
    elif isinstance(message, list):
        for value in message:
            yield from cards_in(value)


def cards_seat_may_see(record: dict[str, Any], seat: int) -> set[str]:
    """Every card ``seat`` saw in a finished game: dealt to it, drawn by it, on a table, or
    played by anyone."""
    seen: set[str] = set()
    hands = record.get("hands") or [{"deal": record["deal"], "actions": record["actions"]}]
    for hand in hands:
        seen.update(hand["deal"]["hands"][seat])
        seen.update(card for group in hand["deal"]["table"] for card in group)
        for action in hand["actions"]:
            seen.update(action.get("played", ()))
            seen.update(card for group in action.get("table", ()) for card in group)
            if action["player"] == seat:
                seen.update(action.get("drawn", ()))
    return seen


def check_no_hidden_card(messages: list[dict], record: dict, seat: int) -> None:
    allowed = cards_seat_may_see(record, seat)
    for message in messages:
        if message.get("over") or message.get("record", {}).get("result"):
            continue  # the game is over: its whole record is public
        hidden = set(cards_in(message)) - allowed
        assert not hidden, f"seat {seat} was sent hidden cards {hidden}: {message}"
        record = message.get("record") or {}
        assert "seed" not in record and "deal" not in message and "stock" not in message
        for hand in record.get("hands", []):
            assert "stock" not in hand["deal"]
            assert all(not cards for i, cards in enumerate(hand["deal"]["hands"]) if i != seat)


@pytest.mark.parametrize("seed", [1, 2, 4, 6])
def test_no_message_a_seat_receives_holds_a_hidden_card(client, seed):
    game = new_game(client, ["person", "greedy", "person"], seed=seed)
    live = client.app.state.registry.get(game["game"])
    received: dict[int, list[dict]] = {0: [], 2: []}
    with client.websocket_connect(seat_path(game, 0)) as first, \
            client.websocket_connect(seat_path(game, 2)) as second:
        sockets = {0: first, 2: second}
        for seat, socket in sockets.items():
            received[seat].append(socket.receive_json())
        state = received[0][0]
        for _ in range(150):
            if state["over"]:
                break
            mover, other = state["to_move"], 2 - state["to_move"]
            for cmd in ("save", "analyze", "solve", "state"):
                received[mover].append(ask(sockets[mover], cmd, received[mover]))
                received[other].append(ask(sockets[other], cmd, received[other]))
            move = next_move(sockets[mover], received[mover][-1], received[mover])
            state = ask(sockets[mover], "move", received[mover], action=move)
            assert state["ok"], state
            received[mover].append(state)
            received[other].append(sockets[other].receive_json())
            assert received[other][-1]["push"] == "state"
            assert received[mover][-1]["observation"]["hand"] == [
                str(card) for card in live.session.game.hands[mover]] or state["over"]
        assert state["over"]
    record = live.session.game.record()
    for seat in (0, 2):
        check_no_hidden_card(received[seat], record, seat)


# -- reconnect, expiry, concurrency --------------------------------------------------------
def test_a_dropped_seat_reconnects_with_its_token_to_the_game_as_it_was(client):
    game = new_game(client, ["greedy", "person"], seed=2)
    with client.websocket_connect(seat_path(game, 1)) as socket:
        socket.receive_json()
        state = ask(socket, "state")
        state = ask(socket, "move", action=next_move(socket, state))
        before = ask(socket, "state")
    with client.websocket_connect(seat_path(game, 1)) as socket:
        pushed = socket.receive_json()
        after = ask(socket, "state")
    assert after == before
    assert {key: value for key, value in pushed.items() if key != "push"} == \
        {key: value for key, value in before.items() if key not in ("id", "ok")}


def test_idle_games_expire_but_not_while_a_seat_is_connected():
    with TestClient(create_app(idle_seconds=0.3, sweep_seconds=0.05)) as client:
        watched = new_game(client, ["person", "greedy"])
        idle = new_game(client, ["person", "greedy"])
        with client.websocket_connect(seat_path(watched, 0)) as socket:
            socket.receive_json()
            time.sleep(0.8)
            assert ask(socket, "state")["ok"]
            with client.websocket_connect(seat_path(idle, 0)) as gone:
                assert "expired" in gone.receive_json()["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    gone.receive_json()
                assert closed.value.code == NO_GAME
        time.sleep(0.8)
        assert client.app.state.registry.get(watched["game"]) is None


def draw_or_pass(state: dict[str, Any]) -> dict[str, str]:
    return {"type": "draw"} if "draw" in state["observation"]["legal"] else {"type": "pass"}


#: machiavelli seed 1, the person always drawing: the expert's answer to the 40th draw comes
#: in its endgame search, which spends most of its 2 s budget
SLOW_GAME, SLOW_MOVE = {"variant": "machiavelli", "seed": 1, "budget": 2.0}, 39


def test_one_games_slow_expert_does_not_delay_another_games_answers(client):
    slow = new_game(client, ["person", "expert"], **SLOW_GAME)
    quick = new_game(client, ["person", "greedy"], seed=3)
    with client.websocket_connect(seat_path(slow, 0)) as slow_socket, \
            client.websocket_connect(seat_path(quick, 0)) as quick_socket:
        slow_state = slow_socket.receive_json()
        for _ in range(SLOW_MOVE):
            slow_state = ask(slow_socket, "move", action=draw_or_pass(slow_state))
        quick_state = quick_socket.receive_json()
        done: dict[str, Any] = {}

        def slow_move() -> None:
            started = time.perf_counter()
            done["answer"] = ask(slow_socket, "move", action=draw_or_pass(slow_state))
            done["seconds"] = time.perf_counter() - started

        thread = threading.Thread(target=slow_move)
        thread.start()
        time.sleep(0.3)  # the expert is thinking now
        started = time.perf_counter()
        ask(quick_socket, "state")
        moved = ask(quick_socket, "move", action=draw_or_pass(quick_state))
        quick_seconds = time.perf_counter() - started
        thread.join()
    assert moved["ok"] and done["answer"]["ok"]
    assert done["answer"]["thinking_ms"] > 1000, "the expert did not think: no test"
    assert quick_seconds < 0.5 * done["seconds"], (quick_seconds, done["seconds"])
    assert quick_seconds < 1.0


# -- replay and the position socket --------------------------------------------------------
def test_replay_steps_through_a_seats_saved_view_and_refuses_a_running_full_record(client):
    game = new_game(client, ["person", "greedy"], seed=3)
    live = client.app.state.registry.get(game["game"])
    with client.websocket_connect(seat_path(game, 0)) as socket:
        state = socket.receive_json()
        for _ in range(3):
            state = ask(socket, "move", action=next_move(socket, state))
        view = ask(socket, "save")["record"]
    assert "seed" not in view and view["view"] == 0
    steps = client.post("/api/replay", json={"record": view}).json()["steps"]
    last = steps[-1]
    assert last["table"] == state["observation"]["table"]
    assert sorted(last["hands"][0]) == sorted(state["observation"]["hand"])
    assert last["hands"][1] == [] and last["hand_sizes"] == state["hand_sizes"]
    running = live.session.game.record_so_far()
    refused = client.post("/api/replay", json={"record": running})
    assert refused.status_code == 400 and "finished" in refused.json()["error"]
    view["hands"][0]["actions"][0]["player"] = 9
    assert client.post("/api/replay", json={"record": view}).status_code == 400


def test_replay_refuses_a_finished_record_the_referee_rejects(client):
    game = new_game(client, ["person", "greedy"], seed=3)
    with client.websocket_connect(seat_path(game, 0)) as socket:
        final, _ = play_to_the_end(socket, socket.receive_json())
        record = ask(socket, "save")["record"]
    record["deal"]["hands"][0][0] = "AS" if record["deal"]["hands"][0][0] != "AS" else "2S"
    refused = client.post("/api/replay", json={"record": record})
    assert refused.status_code == 400 and "does not replay" in refused.json()["error"]


def test_the_position_socket_is_the_engine_for_positions_only(client):
    with client.websocket_connect("/ws/position") as socket:
        position = ask(socket, "position", table="5C 6C 7C 8C | 9H 9D 9S", hand="8D 8H 2C")
        assert position["ok"]
        as_lists = ask(socket, "position", table=[["5C", "6C", "7C", "8C"], ["9H", "9D", "9S"]],
                       hand=["8D", "8H", "2C"])
        assert as_lists["position"] == position["position"]
        bad = ask(socket, "position", table=5, hand="8C")
        assert bad["ok"] is False and "'table' must be a list of groups" in bad["error"]
        assert ask(socket, "hint")["hint"]["played"]
        assert ask(socket, "analyze")["analysis"]["best"]["cards"] == 2
        assert ask(socket, "new_game")["ok"] is False
        socket.send_text("x" * (MAX_MESSAGE + 1))
        assert socket.receive_json()["ok"] is False
        assert ask(socket, "solve")["ok"]


# -- the command -----------------------------------------------------------------------------
def test_machiavelli_serve_listens_on_the_loopback_and_opens_the_browser(tmp_path):
    import os
    import socket as sockets
    import subprocess
    import sys
    import urllib.request

    with sockets.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    opened = tmp_path / "opened.txt"
    browser = f"{sys.executable} -c \"import sys; open('{opened}', 'w').write(sys.argv[1])\" %s"
    server = subprocess.Popen([sys.executable, "-m", "bots", "serve", "--port", str(port),
                               "--open"], env={**os.environ, "BROWSER": browser},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while not opened.exists() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.2)
        time.sleep(0.2)
        assert opened.read_text() == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=10) as info:
            assert json.loads(info.read())["ok"] is True
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=20)
    assert f"serving on http://127.0.0.1:{port}/" in output


def test_a_seats_analyze_rollouts_play_against_the_games_hand_sizes(client):
    from bots.app.session import PERSON, Session
    from bots.players.estimate import win_chance_seen

    game = new_game(client, ["person", "greedy"], seed=3, variant="machiavelli")
    same = Session("machiavelli", [PERSON, "greedy"], 3)  # the same deal, played alike
    with client.websocket_connect(seat_path(game, 0)) as socket:
        socket.receive_json()
        assert ask(socket, "move", action={"type": "draw"})["ok"]
        same.draw()
        same.run_bots()
        seen = same.observation(0)
        assert seen.hand_sizes == (14, 10)
        chance = ask(socket, "analyze", rollouts=20, seed=5)["analysis"]["win_chance"]
        assert chance == win_chance_seen(seen, 20, 5).to_json()
        refused = ask(socket, "analyze", rollouts=5, opponents=[13])
        assert refused["ok"] is False and "'opponents' is for a position" in refused["error"]
