"""What one player may see: their own hand, the table, everyone's hand sizes, the stock size
and the public history. Built as plain data by the referee (``Game.observation``); it holds
no reference to the game, so hidden cards (other hands, the stock, others' draws) cannot
reach a bot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.cards import Card
from solver.codes import group_rows
from solver.constants import ACE_CODES
from solver.position import Position
from solver.variants import Variant

if TYPE_CHECKING:
    from bots.referee.game import Game


@dataclass(frozen=True)
class Observation:
    """One player's view of the game at their decision point."""

    variant: Variant
    player: int
    players: tuple[str, ...]
    hand: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    history: tuple[dict[str, Any], ...]
    """This hand's public actions: plays with their tables, knocks, passes, and draws and
    penalties with how many cards were taken (which cards only for this player's own)."""
    legal: frozenset[str]
    """Kinds of action open now: ``play``, ``draw``, ``pass``, ``give_up``."""
    draws_this_turn: int
    drawn_this_turn: tuple[Card, ...]
    playable_hand: tuple[Card, ...]
    """The hand without cards drawn this turn that may not be played this turn."""
    opened: tuple[bool, ...]
    last_turn: bool
    """Carousel: one of the last turns after the stock ran out (no draw, no knock)."""
    can_knock_value: int
    """Carousel: knocking is open after a play that leaves at most this many points (-1: no)."""
    totals: tuple[int, ...]
    hand_number: int
    dealer: int
    hint: str | None = None
    """The forced-play hint after a refused draw or pass."""
    table_rows: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False,
                                                             repr=False)
    """The table as the solver takes it (``rows()``), when the referee has it at hand."""

    def position(self) -> Position:
        """The position to solve: table, the playable hand, the variant, opening state."""
        return Position(self.table, self.playable_hand, self.variant, self.opened[self.player])

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The table as padded rows of card codes in reading order, and their lengths
        (``solver.codes.group_rows``, read-only): what the counts-level solver takes."""
        if self.table_rows is not None:
            return self.table_rows
        return group_rows(self.table, ACE_CODES[self.variant.ace])

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": str(self.variant), "player": self.player, "players": list(self.players),
            "hand": [str(c) for c in self.hand],
            "table": [[str(c) for c in group] for group in self.table],
            "hand_sizes": list(self.hand_sizes), "stock_size": self.stock_size,
            "history": list(self.history), "legal": sorted(self.legal),
            "draws_this_turn": self.draws_this_turn,
            "drawn_this_turn": [str(c) for c in self.drawn_this_turn],
            "opened": list(self.opened), "last_turn": self.last_turn,
            "totals": list(self.totals), "hand_number": self.hand_number,
            "dealer": self.dealer, "hint": self.hint,
        }


def observe(game: Game, player: int, hint: str | None = None) -> Observation:
    """``game.observation(player, hint)``: kept as a name for older callers; the view is
    built by the game (``Game.observation``)."""
    return game.observation(player, hint)
