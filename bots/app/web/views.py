"""What one seat of a live game may see, as the JSON the web server sends: the game state
and the saved record of a game in progress.

Everything here is built from ``Game.observation(seat)`` and the public log
(``bots.referee.game.public_action``): other hands, the stock's order, other players' draws
and the seed (which deals every card again) never appear until the game is over, when the
whole record is public.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bots.app.session import PERSON, Session
from bots.referee.game import Game, public_action

PERSON_KIND = "person"  # a seat a person moves for, as the web API names it


def seat_kind(level: str) -> str:
    """A seat's kind in the web API: ``person`` or the bot level."""
    return PERSON_KIND if level == PERSON else level


def seat_state(session: Session, seat: int) -> dict[str, Any]:
    """The game state for ``seat``: the protocol's state from that seat's observation, plus
    ``to_move``, ``seats``, ``hand_sizes``, ``stock_size`` and the ``log`` of this hand."""
    game = session.game
    mine = not session.over and session.current == seat
    observation = game.observation(seat, session.hint_text if mine else None)
    data: dict[str, Any] = {
        "over": session.over, "seat": seat, "to_move": None if session.over else session.current,
        "seats": [{"seat": i, "kind": seat_kind(level), "name": session.names[i]}
                  for i, level in enumerate(session.seats)],
        "hand_sizes": list(observation.hand_sizes), "stock_size": observation.stock_size,
        "observation": observation.to_json(),
        "log": play_log(_start_table(game), observation.history),
    }
    if session.over:
        data["results"] = game.results()
    return data


def play_log(table: list[list[str]], history: tuple[dict[str, Any], ...] | list[dict[str, Any]]
             ) -> list[dict[str, Any]]:
    """The public history of a hand, each play with ``changed``: the 0-based indices of the
    groups of its new table that were not on the table before it (``table``: the hand's
    starting table)."""
    log = []
    before = [list(group) for group in table]
    for event in history:
        entry = dict(event)
        if event.get("type") == "play":
            after = [list(group) for group in event["table"]]
            entry["changed"] = changed_groups(before, after)
            before = after
        log.append(entry)
    return log


def changed_groups(before: list[list[str]], after: list[list[str]]) -> list[int]:
    """Indices of the groups of ``after`` that are not groups of ``before`` (a group that
    only moved, card for card, is unchanged)."""
    left = Counter(tuple(group) for group in before)
    changed = []
    for index, group in enumerate(after):
        key = tuple(group)
        if left[key]:
            left[key] -= 1
        else:
            changed.append(index)
    return changed


def seat_record(game: Game, seat: int) -> dict[str, Any]:
    """The record ``seat`` may keep: the whole record once the game is over; while it runs,
    every hand with only this seat's dealt cards (others' as counts), the table, the stock's
    size and the public log. No seed: it would deal every hidden card again."""
    if game.over:
        return game.record()
    record = game.record_so_far()
    hands = record.get("hands") or [{"deal": record["deal"], "actions": record["actions"]}]
    views = [_hand_view(hand, seat) for hand in hands]
    return {"variant": record["variant"], "options": record["options"],
            "players": record["players"], "view": seat, "deal": views[0]["deal"],
            "actions": views[0]["actions"], "hands": views, "result": None}


def _hand_view(hand: dict[str, Any], seat: int) -> dict[str, Any]:
    deal = hand["deal"]
    view: dict[str, Any] = {
        "deal": {"dealer": deal["dealer"],
                 "hands": [list(cards) if i == seat else [] for i, cards in
                           enumerate(deal["hands"])],
                 "hand_sizes": [len(cards) for cards in deal["hands"]],
                 "table": deal["table"], "stock_size": len(deal["stock"])},
        "actions": [public_action(action, seat) for action in hand["actions"]],
    }
    if "result" in hand:
        view["result"] = hand["result"]
    return view


def _start_table(game: Game) -> list[list[str]]:
    """The table the hand in progress began with (face up for everyone)."""
    table = game.deal_record["table"]
    return [list(group) for group in table] if isinstance(table, list) else []
