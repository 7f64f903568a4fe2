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
from bots.referee.game import ForcedPlayHint, Game, IllegalMoveError
from solver.cards import parse_cards
from solver.errors import PositionError
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


def replay(record: dict[str, Any], check_seed: bool = True) -> Inconsistency | None:
    """Replay ``record`` through the referee step by step; the first inconsistency, or None."""
    try:
        variant = Variant.from_name(record["variant"], **record.get("options", {}))
        players = list(record["players"])
        hands = record.get("hands") or [{"deal": record["deal"], "actions": record["actions"]}]
        deals = [hand["deal"] for hand in hands]
        game = Game(variant, players, int(record.get("seed", 0)), deals=deals)
    except (KeyError, TypeError, PositionError, ValueError) as error:
        return Inconsistency(0, -1, f"unreadable record: {error}")
    if "hands" in record and (record.get("deal") != deals[0]
                              or record.get("actions") != hands[0].get("actions")):
        return Inconsistency(0, -1, "the top-level deal and actions differ from the first hand's")
    if check_seed and "seed" in record:
        fresh = Game(variant, players, int(record["seed"]))
        if fresh.deal_record != deals[0]:
            return Inconsistency(0, -1, "the deal is not the one the seed gives")
    for number, hand in enumerate(hands):
        problem = _replay_hand(game, hand["actions"], number)
        if problem is not None:
            return problem
        if number + 1 < len(hands) and len(game.hand_records) != number + 1:
            return Inconsistency(number, len(hand["actions"]), "the hand did not end here")
    if not game.over:
        return Inconsistency(len(hands) - 1, -1, "the record ends before the game does")
    if record.get("result") is not None and record["result"] != game.results():
        return Inconsistency(len(hands) - 1, -1,
                             f"result differs: record {record['result']}, "
                             f"referee {game.results()}")
    return None


def resume(record: dict[str, Any]) -> Game:
    """A referee at the point where ``record`` (finished or not) stops: the seed deals again
    and every recorded action is replayed. A ``ValueError`` says where the record fails."""
    try:
        variant = Variant.from_name(record["variant"], **(record.get("options") or {}))
        game = Game(variant, list(record["players"]), int(record["seed"]))
        hands = record.get("hands") or [{"deal": record["deal"], "actions": record["actions"]}]
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a game record: missing or bad {error}") from None
    for number, hand in enumerate(hands):
        if not isinstance(hand, dict) or game.deal_record != hand.get("deal"):
            raise ValueError(f"hand {number + 1}: the deal is not the one the seed gives")
        problem = _replay_hand(game, hand.get("actions") or [], number)
        if problem is not None:
            raise ValueError(str(problem))
    if record.get("touched") is True:
        try:
            game.touch()
        except IllegalMoveError as error:
            raise ValueError(f"'touched': {error.reason}") from None
    return game


def _replay_hand(game: Game, actions: list[dict], number: int) -> Inconsistency | None:
    at = 0
    while at < len(actions):
        entry = actions[at]
        if game.over or len(game.hand_records) > number:
            return Inconsistency(number, at, "actions after the end of the hand")
        if entry.get("player") != game.current_player:
            return Inconsistency(number, at, f"player {entry.get('player')} acts, but it is "
                                             f"player {game.current_player}'s turn")
        try:
            action = _action(entry, actions[at + 1] if at + 1 < len(actions) else None)
        except (KeyError, TypeError, PositionError) as error:
            return Inconsistency(number, at, f"unreadable action: {error}")
        log = game.actions
        before = len(log)
        try:
            try:
                game.apply(action)
            except ForcedPlayHint:
                game.apply(action)  # the player insisted after the hint
        except IllegalMoveError as error:
            return Inconsistency(number, at, f"illegal {entry.get('type')}: {error.reason}")
        done = log[before:]
        expected = actions[at:at + len(done)]
        if done != expected:
            return Inconsistency(number, at, f"referee logged {done}, record says {expected}")
        at += len(done)
    return None


def _action(entry: dict, following: dict | None):
    kind = entry["type"]
    if kind == "play":
        knock = bool(following and following.get("type") == "knock"
                     and following.get("player") == entry["player"])
        return Play.make(entry["played"], entry["table"], knock)
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "penalty":
        return GiveUp()
    raise KeyError(f"unknown action type {kind!r}")


__all__ = ["Inconsistency", "dumps", "parse_cards", "read_records", "replay", "resume"]
