"""Game records: the JSON analogue of chess's PGN, and replaying them through the referee.

A record is one JSON object::

    {"variant": "machiavelli", "options": {}, "seed": 7, "players": ["greedy-1", "random-2"],
     "deal": {"dealer": 0, "hands": [[...], [...]], "table": [[...]], "stock": [...]},
     "actions": [{"player": 1, "type": "draw", "drawn": ["7H"]},
                 {"player": 0, "type": "play", "played": ["8D"], "table": [["6D", "7D", "8D"]]},
                 ...],
     "result": [{"player": "greedy-1", "score": 0, "winner": true}, ...]}

``type`` is ``play`` (with ``played`` and the whole ``table`` after it, jokers written
``*7H``), ``draw`` or ``penalty`` (with ``drawn``), ``pass`` or ``knock``. A draw asked for
on an empty stock is logged as the ``pass`` it is. ``stock`` lists the stock in draw order. A
match of several hands adds ``hands``: every hand's ``deal``, ``actions`` and ``result``; the
top-level ``deal`` and ``actions`` are the first hand's. One record per line in a ``.jsonl``
file. A saved game in progress whose player to move has touched the table under
``incomplete=penalty`` (docs/rules.md §3) adds ``"touched": true``; refused proposals are
never logged, since the logged give-up (``penalty``) is legal with or without one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.referee.actions import Draw, GiveUp, Pass, Play
from bots.referee.game import MAX_HANDS, ForcedPlayHint, Game, IllegalMoveError
from solver import arguments
from solver.cards import parse_cards
from solver.errors import PositionError, clip
from solver.variants import Variant


def dumps(record: dict[str, Any]) -> str:
    """One line of JSON, the same bytes for the same record."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records from a ``.jsonl`` file (or one JSON object); ValueError on broken JSON."""
    text = Path(path).read_text(encoding="utf-8")
    stripped = text.strip()
    if stripped.startswith("{") and "\n{" not in stripped:
        lines = [stripped]
    else:
        lines = [line for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number}: broken JSON ({error.msg})") from None
        except RecursionError:
            raise ValueError(f"line {number}: JSON nested too deeply") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {number}: a record is a JSON object")
        yield record


@dataclass(frozen=True)
class Inconsistency:
    """Where a record and the referee part ways."""

    hand: int
    action: int
    message: str

    def __str__(self) -> str:
        where = f"hand {self.hand + 1}"
        if self.action >= 0:
            where += f", action {self.action + 1}"
        return f"{where}: {self.message}"


def replay(record: dict[str, Any]) -> Inconsistency | None:
    """Replay ``record`` through the referee step by step; the first inconsistency, or None.

    The seed deals every hand again, and each hand's recorded deal must be the one it gives
    (a record without its seed cannot show that its deal is honest, so it is refused); the
    finished game's ``result``, and each hand's in a match, must be the referee's."""
    try:
        game, hands = _start(record)
    except ValueError as error:
        return Inconsistency(0, -1, f"unreadable record: {error}")
    if "hands" in record and (record.get("deal") != hands[0]["deal"]
                              or record.get("actions") != hands[0]["actions"]):
        return Inconsistency(0, -1, "the top-level deal and actions differ from the first hand's")
    for number, hand in enumerate(hands):
        problem = _replay_dealt_hand(game, hand, number)
        if problem is not None:
            return problem
        if number + 1 < len(hands) and len(game.hand_records) != number + 1:
            return Inconsistency(number, len(hand["actions"]), "the hand did not end here")
        if "result" in hand and len(game.hand_records) > number and \
                hand["result"] != game.hand_records[number]["result"]:
            return Inconsistency(number, -1, "the hand's result is not the referee's")
    if not game.over:
        return Inconsistency(len(hands) - 1, -1, "the record ends before the game does")
    if record.get("result") is None:
        return Inconsistency(len(hands) - 1, -1, "the game is over but the record has no result")
    if record["result"] != game.results():
        return Inconsistency(len(hands) - 1, -1,
                             f"result differs: record {clip(str(record['result']))}, "
                             f"referee {clip(str(game.results()))}")
    return None


def resume(record: dict[str, Any]) -> Game:
    """A referee at the point where ``record`` (finished or not) stops: the seed deals again
    and every recorded action is replayed. A ``ValueError`` says where the record fails."""
    game, hands = _start(record)
    for number, hand in enumerate(hands):
        problem = _replay_dealt_hand(game, hand, number)
        if problem is not None:
            raise ValueError(str(problem))
    if record.get("touched") is True:
        try:
            game.touch()
        except IllegalMoveError as error:
            raise ValueError(f"'touched': {error.reason}") from None
    return game


def _start(record: Any) -> tuple[Game, list[dict]]:
    """The referee the record's seed deals, and the record's hands (each a dict with a
    ``deal`` and a list of ``actions``); a ``ValueError`` names what is missing or wrong."""
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    for key in ("variant", "seed", "players"):
        if key not in record:
            raise ValueError(f"no {key!r}")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("'options' is an object")
    try:
        variant = Variant.from_name(record["variant"], **options)
    except TypeError:  # an option named like a parameter of from_name
        raise ValueError("'options' holds an option the variant does not have") from None
    players = record["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or \
            not variant.min_players <= len(players) <= variant.max_players:
        raise ValueError(f"'players' is a list of {variant.min_players} to "
                         f"{variant.max_players} names")
    seed = arguments.seed("'seed'", record["seed"])
    hands = record["hands"] if "hands" in record else [
        {"deal": record.get("deal"), "actions": record.get("actions")}]
    if not isinstance(hands, list) or not hands or len(hands) > MAX_HANDS:
        raise ValueError("'hands' is a list of hands")
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or not isinstance(hand.get("actions"), list) or \
                not all(isinstance(entry, dict) for entry in hand["actions"]):
            raise ValueError(f"hand {number}: 'actions' is a list of objects")
    return Game(variant, list(players), seed), hands


def _replay_dealt_hand(game: Game, hand: dict, number: int) -> Inconsistency | None:
    """Check the hand's deal against the one the seed gave, then replay its actions."""
    if game.over:
        return Inconsistency(number, -1, "a hand after the end of the game")
    if len(game.hand_records) != number:
        return Inconsistency(number, -1, "a hand that starts before the previous one ended")
    if game.deal_record != hand.get("deal"):
        return Inconsistency(number, -1, "the deal is not the one the seed gives")
    return _replay_hand(game, hand["actions"], number)


def _replay_hand(game: Game, actions: list[dict], number: int) -> Inconsistency | None:
    at = 0
    while at < len(actions):
        entry = actions[at]
        if game.over or len(game.hand_records) > number:
            return Inconsistency(number, at, "actions after the end of the hand")
        if entry.get("player") != game.current_player:
            return Inconsistency(number, at, f"player {clip(repr(entry.get('player')))} acts, "
                                             f"but it is player {game.current_player}'s turn")
        try:
            action = _action(entry, actions[at + 1] if at + 1 < len(actions) else None)
        except (KeyError, PositionError) as error:
            return Inconsistency(number, at, f"unreadable action: {clip(str(error))}")
        log = game.actions
        before = len(log)
        try:
            _apply_insisting(game, action)
        except IllegalMoveError as error:
            return Inconsistency(number, at, f"illegal {entry.get('type')}: {error.reason}")
        done = log[before:]
        expected = actions[at:at + len(done)]
        if done != expected:
            return Inconsistency(number, at, f"referee logged {clip(str(done))}, record says "
                                             f"{clip(str(expected))}")
        at += len(done)
    return None


def replay_steps(record: dict[str, Any]) -> Iterator[tuple[Game, list[dict]]]:
    """Step through a record that ``replay`` accepts: the referee after the deal (with no
    entries), then after each recorded action with the entries it logged (a play and its
    knock come together). The same ``Game`` is yielded each time: read it before the next."""
    game, hands = _start(record)
    yield game, []
    for hand in hands:
        actions = hand["actions"]
        at = 0
        while at < len(actions):
            log = game.actions
            before = len(log)
            following = actions[at + 1] if at + 1 < len(actions) else None
            _apply_insisting(game, _action(actions[at], following))
            done = log[before:]
            at += max(len(done), 1)
            yield game, done


def _apply_insisting(game: Game, action: Draw | Pass | GiveUp | Play) -> None:
    """Apply ``action``; after a forced-play refusal the player insisted, so apply again."""
    try:
        game.apply(action)
    except ForcedPlayHint:
        game.apply(action)


def _action(entry: dict, following: dict | None):
    kind = entry["type"]
    if not isinstance(kind, str):
        raise KeyError("an action's 'type' is a text")
    if kind == "play":
        knock = bool(following and following.get("type") == "knock"
                     and following.get("player") == entry["player"])
        return Play.make(_list(entry, "played"), _list(entry, "table"), knock)
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "penalty":
        return GiveUp()
    raise KeyError(f"unknown action type {clip(kind)!r}")


def _list(entry: dict, key: str) -> list:
    """A play's ``played`` or ``table``: a list (texts would be read too leniently)."""
    value = entry[key]
    if not isinstance(value, list):
        raise KeyError(f"a play's {key!r} is a list")
    return value


__all__ = ["Inconsistency", "dumps", "parse_cards", "read_records", "replay", "replay_steps",
           "resume"]
