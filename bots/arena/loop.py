"""The one play loop: bots move through a game with the referee.

Selfplay, tournaments and sessions (the app layer) all drive bots here, so they share one set
of rules. Each bot is asked for an action from its own observation (``Game.observation``) and
the referee applies it. A forced-play refusal (``ForcedPlayHint``, docs/rules.md §4.3) is no
error: its hint goes into the same bot's next observation, and asking again insists. An
illegal proposal is a bug in the bot and raises ``BotError`` naming the seat, the variant, the
seed and the referee's reason. ``MAX_ACTIONS`` proposals without the game ending (or the
caller's stop) raise ``BotError`` too: no caller scores an unfinished game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from bots.players.base import Bot
from bots.referee.actions import Action
from bots.referee.game import ForcedPlayHint, Game, IllegalMoveError

MAX_ACTIONS = 20_000
"""Proposals, applied or refused, that one run of the loop asks of the bots at most."""

#: Called after each applied action with the seat and what the referee did (``Game.apply``'s
#: return: a draw from an empty stock comes back as a pass).
ActionHook = Callable[[int, Action], None]
#: Called after each bot's ``choose`` with the seat and the milliseconds it took.
ChooseHook = Callable[[int, float], None]


class BotError(RuntimeError):
    """A bot broke a game: it proposed an illegal move, or the bots kept the game going for
    ``MAX_ACTIONS`` proposals. ``seat``, ``variant``, ``seed`` and ``reason`` say which."""

    def __init__(self, seat: str, variant: str, seed: int, reason: str) -> None:
        super().__init__(f"{seat} in {variant} seed {seed}: {reason}")
        self.seat = seat
        self.variant = variant
        self.seed = seed
        self.reason = reason

    def __reduce__(self) -> tuple[type[BotError], tuple[str, str, int, str]]:
        """Rebuild from the four fields: the error crosses process pools and Ray workers."""
        return (BotError, (self.seat, self.variant, self.seed, self.reason))


def run_bots(game: Game, bots: Mapping[int, Bot] | Sequence[Bot], *,
             until: Callable[[Game], bool] | None = None,
             on_action: ActionHook | None = None,
             on_choose: ChooseHook | None = None,
             hint: str | None = None, max_actions: int | None = None) -> str | None:
    """Let ``bots[seat]`` move for the seat to move until the game is over or ``until(game)``
    holds (a person to move, say). ``hint`` is a forced-play hint already given to the seat to
    move. Returns the hint still pending for the seat to move (None once an action applied).

    ``on_choose`` times only the bot's ``choose`` call (not the observation, not the
    referee). Raises ``BotError`` for an illegal proposal, or when ``max_actions`` proposals
    (default ``MAX_ACTIONS``) have not ended the game nor reached ``until``."""
    cap = MAX_ACTIONS if max_actions is None else max_actions
    for _ in range(cap):
        if _stopped(game, until):
            return hint
        player = game.current_player
        observation = game.observation(player, hint)
        started = time.perf_counter()
        action = bots[player].choose(observation)
        if on_choose is not None:
            on_choose(player, (time.perf_counter() - started) * 1000)
        try:
            done = game.apply(action)
        except ForcedPlayHint as refusal:
            hint = refusal.hint
            continue
        except IllegalMoveError as error:
            raise _bot_error(game, player, f"proposed an illegal move: {error.reason} "
                                           f"({action})") from None
        hint = None
        if on_action is not None:
            on_action(player, done)
    if _stopped(game, until):
        return hint
    raise _bot_error(game, game.current_player,
                     f"the bots made {cap} proposals without the game ending")


def _stopped(game: Game, until: Callable[[Game], bool] | None) -> bool:
    return game.over or (until is not None and until(game))


def _bot_error(game: Game, player: int, reason: str) -> BotError:
    return BotError(game.players[player], str(game.variant), game.seed, reason)
