"""What a player can do on a turn, as small immutable values.

``Play`` carries the hand cards added and the whole new table (jokers named, ``*7H``), and
whether the player knocks after it (carousel). ``Draw`` and ``Pass`` need nothing more: the
referee knows how many cards a draw takes. ``GiveUp`` abandons a move the player could not
finish; the variant's ``incomplete`` rule says what it costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.cards import Card, format_cards, format_groups, parse_cards, parse_groups


@dataclass(frozen=True)
class Play:
    """Add ``played`` from the hand; ``table`` is the whole table after the move."""

    played: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...]
    knock: bool = False

    @classmethod
    def make(cls, played: str | Iterable, table: str | Iterable, knock: bool = False) -> Play:
        return cls(tuple(parse_cards(played)), tuple(tuple(g) for g in parse_groups(table)),
                   knock)

    def __str__(self) -> str:
        text = f"play {format_cards(self.played)} -> {format_groups(self.table)}"
        return text + " (knock)" if self.knock else text


@dataclass(frozen=True)
class Draw:
    """Take the card(s) the turn allows from the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass:
    """End the turn without playing (an empty stock, or after a draw-first draw)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class GiveUp:
    """Abandon a move that cannot be finished (docs/rules.md §3.1, incomplete moves)."""

    def __str__(self) -> str:
        return "give up"


Action = Play | Draw | Pass | GiveUp


def play_from_solution(solution, knock: bool = False) -> Play:
    """A ``Play`` from a solver ``Solution``."""
    return Play(tuple(solution.played), tuple(tuple(g) for g in solution.table), knock)


ACTION_TYPES = ("play", "draw", "pass", "give_up")


def action_to_json(action: Action) -> dict:
    """``{"type": "play", "played": [...], "table": [[...], ...], "knock": bool}``, or
    ``{"type": "draw" | "pass" | "give_up"}``."""
    if isinstance(action, Play):
        return {"type": "play", "played": cards_text(action.played),
                "table": [cards_text(group) for group in action.table], "knock": action.knock}
    return {"type": {Draw: "draw", Pass: "pass", GiveUp: "give_up"}[type(action)]}


def action_from_json(data: object) -> Action:
    """The inverse of ``action_to_json``; a ``ValueError`` naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"an action is a JSON object, not {data!r}")
    kind = data.get("type")
    if kind == "play":
        played, table = data.get("played"), data.get("table")
        if not isinstance(played, (list, str)) or not isinstance(table, (list, str)):
            raise ValueError("a play needs 'played' (cards) and 'table' (the whole new table)")
        return Play.make(played, table, bool(data.get("knock", False)))
    simple: dict[str, type[Draw] | type[Pass] | type[GiveUp]] = {
        "draw": Draw, "pass": Pass, "give_up": GiveUp}
    if kind not in simple:
        raise ValueError(f"unknown action type {kind!r} (choose {', '.join(ACTION_TYPES)})")
    return simple[kind]()


def cards_text(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]
