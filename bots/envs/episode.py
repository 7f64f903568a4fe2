"""One episode for the PettingZoo and Gymnasium environments: a seeded referee game driven by
action ids (``bots.envs.actions``), its observations as tensors, and its rewards.

The game is the referee's own (``bots.referee.game.Game``, seeded), so an episode's record
(``Episode.record``) replays through ``bots.referee.record.replay`` byte for byte. An episode
is the whole match the variant plays (one hand unless its ``rounds`` or ``target`` say more).
A forced-play refusal (docs/rules.md §4.3) is a hint for people: an environment's draw or pass
insists at once, as a record replays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bots.envs.actions import NUM_ACTIONS, Candidates, candidates
from bots.envs.encoding import HISTORY, describe, encode
from bots.players.base import Bot
from bots.referee.actions import Action
from bots.referee.game import ForcedPlayHint, Game
from bots.referee.observation import Observation

MAX_STEPS = 20_000
"""Applied actions after which an episode is cut short (truncated): the referee's own play
loop allows as many proposals (``bots.arena.loop.MAX_ACTIONS``)."""


def apply_insisting(game: Game, action: Action) -> None:
    """Apply ``action``; a forced-play refusal is insisted on at once (docs/rules.md §4.3)."""
    try:
        game.apply(action)
    except ForcedPlayHint:
        game.apply(action)


class Episode:
    """A seeded game of ``variant`` between ``players`` seats, moved by action ids."""

    def __init__(self, variant: str, players: int, seed: int,
                 names: Sequence[str] | None = None) -> None:
        names = list(names) if names is not None else [f"player_{i}" for i in range(players)]
        self.game = Game(variant, names, seed)
        self.steps = 0
        self._found: tuple[int, Candidates] | None = None

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def truncated(self) -> bool:
        return not self.game.over and self.steps >= MAX_STEPS

    @property
    def current(self) -> int:
        """The seat to move (-1 once the game is over)."""
        return -1 if self.game.over else self.game.current_player

    def candidates(self) -> Candidates:
        """The slots of the seat to move (computed once per decision)."""
        if self._found is None or self._found[0] != self.steps:
            self._found = (self.steps, candidates(self.observation(self.current)))
        return self._found[1]

    def mask(self, player: int) -> np.ndarray:
        """The action mask of ``player``: its legal slots when it is to move, else none."""
        if player != self.current:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.candidates().mask

    def observation(self, player: int) -> Observation:
        return self.game.observation(player)

    def tensor(self, player: int, history: int = HISTORY) -> np.ndarray:
        """``player``'s observation tensor (``bots.envs.encoding``)."""
        found = self.candidates() if player == self.current else None
        return encode(self.observation(player), self.current, found, history)

    def text(self, player: int, full_history: bool = False) -> str:
        return describe(self.observation(player), self.current, full_history)

    def step(self, slot: int) -> Action:
        """Carry out slot ``slot`` for the seat to move; ``IllegalSlotError`` if masked."""
        action = self.candidates().action(slot)
        self.apply(action)
        return action

    def apply(self, action: Action) -> None:
        """Apply a move (a slot's, or a ladder bot's) for the seat to move."""
        apply_insisting(self.game, action)
        self.steps += 1

    def play_bot(self, bot: Bot) -> None:
        """Let ``bot`` move for the seat to move. A forced-play hint reaches it as in the
        arena's loop: it is asked again with the hint, and whatever it answers then goes
        through (the referee refuses a turn's draw or pass once)."""
        action = bot.choose(self.game.observation(self.current))
        try:
            self.game.apply(action)
        except ForcedPlayHint as refusal:
            action = bot.choose(self.game.observation(self.current, refusal.hint))
            apply_insisting(self.game, action)
        self.steps += 1

    def rewards(self) -> list[float]:
        """+1 for each winner of the finished match, -1 for the others (0 while it runs)."""
        if not self.game.over:
            return [0.0] * len(self.game.players)
        return [1.0 if row["winner"] else -1.0 for row in self.game.results()]

    def record(self) -> dict[str, Any]:
        """The referee's record of the game so far (``bots.referee.record``)."""
        return self.game.record() if self.game.over else self.game.record_so_far()

