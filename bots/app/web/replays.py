"""``POST /api/replay``: a game record as the positions after each action, for the page
that steps through a record forward and back.

A finished record is replayed through the referee (``bots.referee.record.replay`` must
accept it; every card is public then). A seat's own saved view (``views.seat_record``: no
seed, others' hands hidden) cannot be replayed against a deal it does not hold; it is read
for its form (cards, players, counts) and stepped through as that seat saw it.
"""

from __future__ import annotations

from typing import Any

from bots.referee.record import replay, replay_steps
from solver.cards import Card


class ReplayError(ValueError):
    """A record that cannot be stepped through (the referee or its form refuses it)."""


def record_steps(record: Any) -> list[dict[str, Any]]:
    """The positions of ``record``: the deal, then one step after each action."""
    if not isinstance(record, dict):
        raise ReplayError("'record' is a game record object")
    if "view" in record:
        return _view_steps(record)
    if record.get("result") is None:
        raise ReplayError("only a finished game's record, or a seat's own saved view, can be "
                          "replayed (hands are hidden while the game runs)")
    problem = replay(record)
    if problem is not None:
        raise ReplayError(f"the record does not replay: {problem}")
    steps = []
    for game, entries in replay_steps(record):
        steps.append({
            "table": [[str(card) for card in group] for group in game.table],
            "hands": [[str(card) for card in hand] for hand in game.hands],
            "hand_sizes": [len(hand) for hand in game.hands],
            "stock_size": len(game.stock), "hand": len(game.hand_records),
            "to_move": None if game.over else game.current_player,
            "event": _event(entries),
        })
    return steps


def _event(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One step's event: the action, with ``knock`` when a knock came with the play, and
    ``then``: what the referee logged with it (a knock, guadalupe's draw after a play)."""
    if not entries:
        return None
    event = dict(entries[0])
    if any(entry.get("type") == "knock" for entry in entries[1:]):
        event["knock"] = True
    if len(entries) > 1:
        event["then"] = entries[1:]
    return event


def _view_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    players = record.get("players")
    seat = record.get("view")
    hands = record.get("hands")
    if not isinstance(players, list) or not isinstance(seat, int) or \
            isinstance(seat, bool) or not 0 <= seat < len(players):
        raise ReplayError("a saved view names its 'players' and its seat ('view')")
    if not isinstance(hands, list) or not hands:
        raise ReplayError("a saved view holds its 'hands'")
    steps: list[dict[str, Any]] = []
    for number, hand in enumerate(hands):
        try:
            steps.extend(_view_hand(hand, seat, len(players), number))
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ReplayError(f"hand {number + 1} of the saved view is unreadable: "
                              f"{type(error).__name__} {error}") from None
    return steps


def _view_hand(hand: dict[str, Any], seat: int, players: int,
               number: int) -> list[dict[str, Any]]:
    """The steps of one hand of a saved view (a ValueError, KeyError or TypeError when its
    form is wrong)."""
    deal = hand["deal"]
    sizes = [int(size) for size in deal["hand_sizes"]]
    if len(sizes) != players:
        raise ValueError("one hand size per player")
    own = _cards(deal["hands"][seat])
    table = [_cards(group) for group in deal["table"]]
    stock = int(deal["stock_size"])
    actions = hand["actions"]
    steps = [_view_step(table, own, seat, sizes, stock, number, actions, 0, None)]
    for at, action in enumerate(actions):
        player = action["player"]
        if not isinstance(player, int) or not 0 <= player < players:
            raise ValueError(f"action {at + 1}: no player {player!r}")
        if action["type"] == "play":
            table = [_cards(group) for group in action["table"]]
            played = _cards(action["played"])
            sizes[player] -= len(played)
            if player == seat:
                for card in played:
                    own.remove("*" if card.startswith("*") else card)
        elif action["type"] in ("draw", "penalty"):
            count = int(action["count"])
            sizes[player] += count
            stock -= count
            if player == seat:
                own.extend(_cards(action["drawn"]))
        if min(sizes) < 0 or stock < 0:
            raise ValueError(f"action {at + 1}: more cards than there are")
        steps.append(_view_step(table, own, seat, sizes, stock, number, actions, at + 1,
                                action))
    return steps


def _view_step(table: list[list[str]], own: list[str], seat: int, sizes: list[int],
               stock: int, number: int, actions: list[dict[str, Any]], at: int,
               event: dict[str, Any] | None) -> dict[str, Any]:
    following = actions[at] if at < len(actions) else None
    return {"table": [list(group) for group in table],
            "hands": [list(own) if i == seat else [] for i in range(len(sizes))],
            "hand_sizes": list(sizes), "stock_size": stock, "hand": number,
            "to_move": following["player"] if following else None,
            "event": dict(event) if event is not None else None}


def _cards(texts: Any) -> list[str]:
    """Card texts, each checked (``Card.parse``); a list, never a loose text."""
    if not isinstance(texts, list):
        raise TypeError("cards are a list of card texts")
    return [str(Card.parse(text)) for text in texts]
