"""Bots against bots through the referee: the games behind ``machiavelli selfplay`` and the
bench, played by the one play loop (``bots.arena.loop``). Every game is seeded; the same seed
and bots give the same record, byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from bots.arena.loop import BotError, run_bots
from bots.envs.levels import make_level
from bots.referee.actions import Action
from bots.referee.game import Game

__all__ = ["BotError", "play_game", "seat_names"]  # BotError: its home is bots.arena.loop


def seat_names(bot_names: Sequence[str], players: int) -> list[str]:
    """Seat labels like ``greedy-1``: the bot list cycled over the seats."""
    return [f"{bot_names[i % len(bot_names)]}-{i + 1}" for i in range(players)]


def play_game(variant, bot_names: Sequence[str], players: int, seed: int,
              check: bool = False, on_action: Callable[[Game], None] | None = None) -> Game:
    """Play one seeded game through the play loop (``bots.arena.loop``); ``check`` verifies
    the referee's invariants after every action, then ``on_action`` sees the game. Raises
    ``BotError`` if a bot proposes an illegal move or the game does not end."""
    seeds = np.random.SeedSequence(seed).spawn(players)
    bots = [make_level(bot_names[i % len(bot_names)], int(seeds[i].generate_state(1)[0]))
            for i in range(players)]
    game = Game(variant, seat_names(bot_names, players), seed)

    def after(player: int, action: Action) -> None:
        if check:
            game.check_invariants()
        if on_action is not None:
            on_action(game)

    run_bots(game, bots, on_action=after)
    return game
