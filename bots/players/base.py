"""The bot interface and helpers shared by the bots."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from bots.players import work
from bots.referee.actions import Action, Draw, GiveUp, Pass, Play, play_from_solution
from bots.referee.observation import Observation
from bots.referee.scoring import can_knock, knock_open
from solver import arguments
from solver.codes import codes_of, play_cards
from solver.constants import JOKER_CODE, N_CARD_TYPES
from solver.errors import InvalidArgumentError
from solver.limit import Limit, resolve_limit
from solver.validate import physical


class Bot(Protocol):
    """A computer player: proposes an action for an observation."""

    name: str

    def choose(self, observation: Observation) -> Action: ...


def knock_allowed(observation: Observation, play: Play) -> bool:
    """Whether the player may knock after ``play``: the referee's own rule
    (``bots.referee.scoring.can_knock``, docs/rules.md §4.3) on the hand the play leaves."""
    variant, draws, last = observation.variant, observation.draws_this_turn, observation.last_turn
    if not knock_open(variant, draws, last):
        return False  # most turns: no need to work out the hand left
    left = list(observation.hand)
    for card in play.played:
        left.remove(physical(card))
    return can_knock(variant, draws, last, left)


def best_play(observation: Observation, objective: str = "cards") -> Play | None:
    """The solver's best play from this observation, or None if nothing can be played.

    Joker-free positions go through the counts-level entry point (``solver.counts``) on the
    table's code rows: the same play ``solve_position`` gives, without building the position
    again; the rest through ``solve_position``. Both are counted as one search of the bot's work
    (``bots.players.work``)."""
    hand = codes_of(observation.playable_hand)
    if max(hand, default=0) < JOKER_CODE:
        rows, lengths = observation.rows()
        answer = work.best_play(rows, lengths, np.bincount(hand, minlength=N_CARD_TYPES),
                                  observation.variant, observation.opened[observation.player],
                                  objective)
        if answer is not None:
            if not answer.played.any():
                return None
            played, table = play_cards(answer.played, answer.rows, answer.lengths)
            return Play(played, table)
    from bots.players.work import solve

    solution = solve(observation.position(), objective)
    if not solution.played:
        return None
    return play_from_solution(solution)


def fallback(observation: Observation) -> Action:
    """Draw if the turn allows it, else pass; in a turn touched under ``incomplete=penalty``
    (only a play or a give-up is open: docs/rules.md §3), give up."""
    if "draw" in observation.legal:
        return Draw()
    if "pass" not in observation.legal and "give_up" in observation.legal:
        return GiveUp()
    return Pass()


def move_seconds(budget: float | None, limit: Limit | None, default: float | None = None
                 ) -> float | None:
    """A searching bot's seconds per move, from ``budget`` (seconds) or ``limit`` (a
    ``Limit``: ``budget=S`` means ``limit=Limit(time=S)``; both is an error), else
    ``default``. A bot's search spans many solver calls on a clock, so only the limit's
    ``time`` applies: a ``work`` limit is refused rather than ignored."""
    if budget is not None and limit is not None:
        raise InvalidArgumentError("give either limit or budget, not both "
                                   "(budget=S means limit=Limit(time=S))")
    resolved = resolve_limit(limit, arguments.seconds("budget", budget))
    if resolved is None:
        return default
    if resolved.work is not None:
        raise InvalidArgumentError(f"a bot's limit is its time per move, not work: "
                                   f"{resolved!r} (use Limit(time=S))")
    return resolved.time if resolved.time is not None else default
