"""``machiavelli engine``: the engine protocol, JSON lines on stdin and stdout.

Every request is one JSON object on one line with a ``cmd`` (and optionally an ``id``, echoed
back); every answer is one JSON object on one line: ``{"ok": true, ...}`` or
``{"ok": false, "error": "..."}``. A malformed line gets an error answer and the engine keeps
running. The commands (docs/protocol.md has them in full, with a transcript):

- ``hello``: the engine's name, version, variants and bot levels.
- ``position``: set a position (``table``, ``hand``, ``variant``, ``opened``; or ``position``
  in the text or JSON form) for ``solve``, ``hint``, ``analyze`` and ``go``.
- ``new_game``: start a game (``variant``, ``seats``: bot levels or ``client``, ``seed``,
  ``budget``); bot seats move by themselves, client seats by ``move``.
- ``load``: resume a game from a game record (``record``; ``seats`` optional).
- ``state``: the game as the player to move sees it.
- ``move``: carry out an action for the client seat to move.
- ``go``: a level's choice (``level``, ``budget``) for the player to move, or for the position.
- ``solve`` / ``hint`` / ``analyze``: on the game's current player's view, or the position
  (``analyze`` with ``rollouts``: the expert's winning chances too).
- ``save``: the game record so far.  ``quit``: stop.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TextIO

from bots.app.session import PERSON, Event, Session, SessionError, seat_levels
from bots.players import REGISTRY
from bots.referee.actions import action_from_json, action_to_json
from bots.referee.observation import Observation
from solver import arguments
from solver.cards import Card, parse_cards
from solver.errors import PositionError, clip
from solver.position import Position
from solver.variants import VARIANT_NAMES

if TYPE_CHECKING:  # loaded with the first analyze that asks for rollouts
    from bots.players.estimate import WinChance

CLIENT = "client"  # a seat the protocol's client moves for
INTERNAL = "internal error (please report):"  # the start of an answer to an engine fault
MESSAGE_LIMIT = 300  # the longest error text (an echoed input is clipped)
NAME = "machiavelli-engine"
CARD_FORMS = "a list of cards or their text ('8D 8H')"  # what a hand may be, for errors
TABLE_FORMS = "a list of groups (each a list of cards) or the table text ('5C 6C 7C | 9H 9D')"


class RequestError(ValueError):
    """A request that cannot be answered (its line gets an error answer)."""


class Engine:
    """Reads requests from ``source`` and writes answers to ``sink`` until ``quit`` or EOF."""

    def __init__(self, source: Iterable[str | bytes], sink: TextIO) -> None:
        self.source = source
        self.sink = sink
        self.session: Session | None = None
        self.position: Position | None = None
        self.seen: Observation | None = None  # a web seat's view, its position the one set
        self.handlers: dict[str, Callable[[dict], dict]] = {
            "hello": self.hello, "position": self.set_position, "new_game": self.new_game,
            "load": self.load, "state": self.state, "move": self.move, "go": self.go,
            "solve": self.solve, "hint": self.hint, "analyze": self.analyze,
            "save": self.save, "quit": self.quit,
        }
        self.running = True

    def run(self) -> int:
        """Answer every line of ``source`` (texts, or bytes such as ``sys.stdin.buffer``
        gives: a line that is not UTF-8 gets an error answer, and the engine goes on)."""
        for line in self.source:
            if not line.strip():
                continue
            self.send(self.answer(line))
            if not self.running:
                break
        return 0

    def send(self, answer: dict[str, Any]) -> None:
        self.sink.write(json.dumps(answer) + "\n")
        self.sink.flush()

    def answer(self, line: str | bytes) -> dict[str, Any]:
        """The answer to one request line (never raises: bad input gets an error answer,
        and so, as a last resort, does a fault of the engine's own)."""
        request_id = None
        try:
            request = read_request(line)
            request_id = request.get("id")
            answer = {"ok": True, **self.handlers[command_of(request, self.handlers)](request)}
        except Exception as error:  # noqa: BLE001 - the engine must outlive its own bugs
            answer = failure(error)
        return with_id(answer, request_id)

    # -- commands ------------------------------------------------------------------------
    def hello(self, request: dict) -> dict:
        from importlib.metadata import PackageNotFoundError, version

        try:
            release = version(NAME)
        except PackageNotFoundError:
            release = "unknown"
        return {"name": NAME, "version": release, "variants": list(VARIANT_NAMES),
                "levels": list(REGISTRY), "commands": list(self.handlers)}

    def set_position(self, request: dict) -> dict:
        if "position" in request:
            given = request["position"]
            if isinstance(given, dict):
                position = Position.from_json(given)
            elif isinstance(given, str):
                position = Position.parse(given)
            else:
                raise RequestError("'position' is a position text or its JSON object")
        else:
            table = _cards_field(request, "table", TABLE_FORMS, "")
            hand = _cards_field(request, "hand", CARD_FORMS)
            opened = request.get("opened", True)
            if not isinstance(opened, bool):
                raise RequestError("'opened' is true or false")
            position = Position.make(table, hand, _text(request, "variant", "machiavelli"),
                                     opened=opened)
        self.position, self.seen = position, None
        self.session = None
        return {"position": str(position)}

    def new_game(self, request: dict) -> dict:
        seats = _seats(request.get("seats", [CLIENT, "expert"]))
        seed = arguments.seed("'seed'", request.get("seed", 0))
        budget = budget_field(request)
        self.session = Session(_text(request, "variant", "machiavelli"), seats, seed, budget)
        self.position = None
        events = self.session.run_bots()
        return {"events": events_json(events), **self._state()}

    def load(self, request: dict) -> dict:
        record = request.get("record")
        if not isinstance(record, dict):
            raise RequestError("'load' needs 'record': a game record object")
        players = record.get("players")
        if request.get("seats") is not None:
            seats = _seats(request["seats"])
        elif isinstance(players, list):
            seats = [PERSON] * len(players)
        else:
            raise RequestError("the record has no players")
        self.session = Session.from_json({"record": record, "budget": budget_field(request),
                                          "seats": seats})
        self.position = None
        events = self.session.run_bots() if not self.session.over else []
        return {"events": events_json(events), **self._state()}

    def state(self, request: dict) -> dict:
        return self._state()

    def move(self, request: dict) -> dict:
        session = self._game()
        action = action_from_json(request.get("action"))
        events = session.apply(action)
        events += session.run_bots()
        return {"events": events_json(events), **self._state()}

    def go(self, request: dict) -> dict:
        level = _text(request, "level", "expert")
        if level not in REGISTRY:
            raise RequestError(f"unknown level {level!r} (choose {', '.join(REGISTRY)})")
        budget = budget_field(request)
        started = time.perf_counter()
        if self.session is not None:
            action = self.session.suggest(level, budget)
        else:
            from bots.players import make_bot
            from bots.players.estimate import observation_for

            # observation_for checks the hand sizes (whole numbers, each at least 1)
            observation = observation_for(self._position(), request.get("opponents", [13]))
            action = make_bot(level, 0, budget).choose(observation)
        return {"action": action_to_json(action),
                "elapsed_ms": round((time.perf_counter() - started) * 1000, 3)}

    def solve(self, request: dict) -> dict:
        from solver.api import solve_position

        objective = _text(request, "objective", "cards")
        return {"solution": solve_position(self._position(), objective).to_json()}

    def hint(self, request: dict) -> dict:
        from solver.hint import hint_position

        objective = _text(request, "objective", "cards")
        return {"hint": hint_position(self._position(), objective).to_json()}

    def analyze(self, request: dict) -> dict:
        from solver.analysis import analyze

        position = self._position()
        cards = unseen_field(request)
        max_plays = request.get("max_plays", 20)
        if not isinstance(max_plays, int) or max_plays < 1:
            raise RequestError("'max_plays' is a positive integer")
        analysis = analyze(position, unseen=cards, max_plays=max_plays).to_json()
        if request.get("rollouts") is not None:
            analysis["win_chance"] = self._win_chance(request, position).to_json()
        return {"analysis": analysis}

    def _win_chance(self, request: dict, position: Position) -> WinChance:
        """``analyze``'s winning chances by ``rollouts``: in a game, from what the player to
        move sees (the opponents' hand sizes, the stock; a web seat's view, ``seen``); for a
        position, against the request's ``opponents`` hand sizes (default ``[13]``), as
        ``go`` takes them."""
        from bots.players.estimate import MAX_ROLLOUTS, observation_for, win_chance_seen

        rollouts = arguments.integer("'rollouts'", request["rollouts"], 1, MAX_ROLLOUTS)
        seed = arguments.seed("'seed'", request.get("seed", 0))
        seen = self.session.observation() if self.session is not None else self.seen
        if seen is None:
            seen = observation_for(position, request.get("opponents", [13]))
        elif "opponents" in request:
            raise RequestError("'opponents' is for a position: in a game the hand sizes are "
                               "the game's")
        return win_chance_seen(seen, rollouts, seed)

    def save(self, request: dict) -> dict:
        return {"record": self._game().game.record_so_far()}

    def quit(self, request: dict) -> dict:
        self.running = False
        return {"bye": True}

    # -- helpers -------------------------------------------------------------------------
    def _game(self) -> Session:
        if self.session is None:
            raise RequestError("no game: send 'new_game' or 'load' first")
        return self.session

    def _position(self) -> Position:
        """The game's current player's view, or the position set with ``position``."""
        if self.session is not None:
            if self.session.over:
                raise RequestError("the game is over")
            return self.session.observation().position()
        if self.position is None:
            raise RequestError("no position: send 'position' or 'new_game' first")
        return self.position

    def _state(self) -> dict:
        session = self._game()
        game = session.game
        data: dict[str, Any] = {"over": session.over,
                                "seats": [CLIENT if s == PERSON else s for s in session.seats]}
        if session.over:
            data["results"] = game.results()
        else:
            data["to_move"] = session.current
            data["observation"] = session.observation().to_json()
        return data


def read_request(line: str | bytes) -> dict[str, Any]:
    """One request line as its JSON object; ``RequestError`` says why it is not one."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
    except UnicodeDecodeError as error:
        raise RequestError(f"not UTF-8 text (byte {error.start})") from None
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(f"not JSON: {error.msg} at character {error.pos}") from None
    if not isinstance(request, dict):
        raise RequestError(f"a request is a JSON object, not {type(request).__name__}")
    return request


def command_of(request: dict[str, Any], commands: Iterable[str]) -> str:
    """The request's ``cmd``, one of ``commands`` (else ``RequestError`` lists them)."""
    command = request.get("cmd")
    names = list(commands)
    if not isinstance(command, str) or command not in names:
        raise RequestError(f"unknown cmd {command!r} (choose {', '.join(names)})")
    return command


def failure(error: BaseException) -> dict[str, Any]:
    """The error answer for ``error``: its one-line text for bad input, and as a last resort
    for a fault of the engine's own, marked ``INTERNAL``."""
    if isinstance(error, (RequestError, SessionError, PositionError, ValueError, TypeError,
                          KeyError)):
        return {"ok": False, "error": _one_line(error)}
    if isinstance(error, RecursionError):
        return {"ok": False, "error": "request nested too deeply"}
    return {"ok": False, "error": f"{INTERNAL} {type(error).__name__}: {_one_line(error)}"}


def with_id(answer: dict[str, Any], request_id: Any) -> dict[str, Any]:
    """``answer`` with the request's ``id`` echoed when it can be (``_echoable``)."""
    if _echoable(request_id):
        answer["id"] = request_id
    return answer


def events_json(events: list[Event]) -> list[dict]:
    return [{"player": e.player, "name": e.name, "action": action_to_json(e.action)}
            for e in events]


def _text(request: dict, key: str, default: str | None = None) -> str:
    value = request.get(key, default)
    if value is None:
        raise RequestError(f"missing '{key}'")
    if not isinstance(value, str):
        raise RequestError(f"'{key}' must be a string, not {_kind(value)}")
    return value


def _cards_field(request: dict, key: str, forms: str, default: str | None = None
                 ) -> str | list:
    """A request's cards or table (``key``): the text form or a list (of cards, or of groups
    of cards), as ``move`` takes them; ``Position.make`` and ``parse_cards`` read either.
    ``forms`` says what is expected (``CARD_FORMS`` or ``TABLE_FORMS``)."""
    value = request.get(key, default)
    if value is None:
        raise RequestError(f"missing '{key}'")
    if not isinstance(value, (str, list)):
        raise RequestError(f"'{key}' must be {forms}, not {_kind(value)}")
    return value


def _seats(value: Any) -> list[str]:
    """A request's ``seats`` (bot levels and ``client``) as a ``Session``'s seats."""
    if not isinstance(value, list) or not all(isinstance(seat, str) for seat in value):
        raise RequestError(f"'seats' is a list of bot levels and {CLIENT!r}")
    return seat_levels(value, CLIENT)


def unseen_field(request: dict) -> list[Card] | None:
    """A request's ``unseen``: None when not given, else its cards (``solver.analysis.analyze``
    checks that they fit in the packs beside the table and the hand)."""
    if request.get("unseen") is None:
        return None
    return parse_cards(_cards_field(request, "unseen", CARD_FORMS))


def _kind(value: Any) -> str:
    """What JSON value ``value`` is, for an error text: "a list", "a number", "true"...."""
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = {str: "a string", int: "a number", float: "a number", list: "a list",
             dict: "an object"}
    return kinds.get(type(value), "null" if value is None else f"a {type(value).__name__}")


def budget_field(request: dict) -> float | None:
    """A request's ``budget``: seconds per move in (0, 60], or None when not given."""
    budget = request.get("budget")
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or \
            not 0 < budget <= 60:
        raise RequestError(f"'budget' is seconds per move in (0, 60], not {clip(repr(budget))}")
    return float(budget)


def _one_line(error: BaseException) -> str:
    text = str(error) if str(error) else type(error).__name__
    return clip(" ".join(text.split()), MESSAGE_LIMIT)


def _echoable(request_id: Any) -> bool:
    """Whether the request's ``id`` is echoed: a short string, an integer or a finite
    number (``NaN`` or ``Infinity`` would make the answer invalid JSON)."""
    if isinstance(request_id, str):
        return len(request_id) <= MESSAGE_LIMIT
    if isinstance(request_id, bool):
        return False
    if isinstance(request_id, int):
        return abs(request_id) < 2**63
    return isinstance(request_id, float) and math.isfinite(request_id)
