"""Bots against bots through the referee: the loop behind ``machiavelli selfplay`` and the
bench. Every game is seeded; the same seed and bots give the same record, byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from bots.players import make_bot
from bots.referee.game import ForcedPlayHint, Game, IllegalMoveError

MAX_ACTIONS = 20_000


class BotError(RuntimeError):
    """A bot proposed an illegal move (a bug in the bot; the referee refused it)."""


def seat_names(bot_names: Sequence[str], players: int) -> list[str]:
    """Seat labels like ``greedy-1``: the bot list cycled over the seats."""
    return [f"{bot_names[i % len(bot_names)]}-{i + 1}" for i in range(players)]


def play_game(variant, bot_names: Sequence[str], players: int, seed: int,
              check: bool = False, on_action: Callable[[Game], None] | None = None) -> Game:
    """Play one seeded game; ``check`` verifies the referee's invariants after every action."""
    seeds = np.random.SeedSequence(seed).spawn(players)
    bots = [make_bot(bot_names[i % len(bot_names)], int(seeds[i].generate_state(1)[0]))
            for i in range(players)]
    game = Game(variant, seat_names(bot_names, players), seed)
    hint = None
    for _ in range(MAX_ACTIONS):
        if game.over:
            return game
        player = game.current_player
        action = bots[player].choose(game.observation(player, hint))
        try:
            game.apply(action)
            hint = None
        except ForcedPlayHint as refusal:
            hint = refusal.hint
            continue
        except IllegalMoveError as error:
            raise BotError(f"{game.players[player]} proposed an illegal move in "
                           f"{game.variant} seed {seed}: {error.reason} ({action})") from None
        if check:
            game.check_invariants()
        if on_action is not None:
            on_action(game)
    raise BotError(f"game {game.variant} seed {seed} did not end in {MAX_ACTIONS} actions")
