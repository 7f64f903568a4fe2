"""Text rendering of cards, tables and solutions for the terminal (ANSI colours optional)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from solver.cards import Card

RED = "\033[31m"
BOLD = "\033[1m"
DIM = "\033[2m"
RESET = "\033[0m"


def use_colour(choice: str = "auto", stream: TextIO | None = None) -> bool:
    """Colour on ``always``; on ``auto`` when ``stream`` (default: the current
    ``sys.stdout``, looked up at the call, not at import) is a terminal and NO_COLOR is
    unset."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    stream = sys.stdout if stream is None else stream
    return stream.isatty() and "NO_COLOR" not in os.environ


def card_text(card: Card, colour: bool = False, symbols: bool = False) -> str:
    text = card.text(symbols)
    if colour and card.suit in ("H", "D"):
        return RED + text + RESET
    return text


def cards_text(cards: Sequence[Card], colour: bool = False, symbols: bool = False) -> str:
    return " ".join(card_text(card, colour, symbols) for card in cards)


def table_lines(table: Sequence[Sequence[Card]], changed: Sequence[bool] | None = None,
                colour: bool = False, symbols: bool = False) -> list[str]:
    """One numbered line per group; changed or new groups marked with ``*``."""
    if not table:
        return ["  (empty table)"]
    lines = []
    for number, group in enumerate(table, start=1):
        mark = "*" if changed is not None and changed[number - 1] else " "
        text = cards_text(group, colour, symbols)
        if colour and mark == "*":
            text = BOLD + text + RESET
        lines.append(f"{number:>3}{mark} {text}")
    return lines
