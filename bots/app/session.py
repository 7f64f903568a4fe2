"""A game between people (or a front end) and bots, driven one command at a time.

The terminal game (``machiavelli play``) and the engine protocol (``machiavelli engine``) both
drive a ``Session``: bots move by themselves; the other seats move by command. A person's
play is *staged* first (named hand cards, for which the engine finds an arrangement, or the
whole new table), shown, and only carried out on ``commit``; ``reset`` drops it. Every move
goes through the referee, which never trusts the session. A session saves as a game record
plus its seats and resumes from it by replaying the record.

Under ``incomplete=penalty`` (docs/rules.md §3) a staged whole table that the referee refuses
but the player could lay out touches the turn, as an illegal ``move`` does: ``reset`` then
takes the table back, but the turn ends only with a legal play or ``give_up``. Naming hand
cards for which the engine finds no arrangement touches nothing: no table was proposed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bots.arena.loop import run_bots
from bots.players import REGISTRY, make_bot
from bots.referee.actions import Action, Draw, GiveUp, Pass, Play, play_from_solution
from bots.referee.game import ForcedPlayHint, Game, IllegalMoveError
from bots.referee.observation import Observation
from bots.referee.record import resume
from solver.arguments import MAX_SEED
from solver.cards import Card, parse_cards, parse_groups
from solver.errors import cannot, clip
from solver.variants import Variant

PERSON = "human"  # a seat that moves by command (a person, or an engine client)


class SessionError(ValueError):
    """A command that cannot be carried out now; the game is untouched."""


@dataclass(frozen=True)
class Event:
    """One thing that happened: who did what (for the log of a turn)."""

    player: int
    name: str
    action: Action

    def __str__(self) -> str:
        s = "" if self.name == "you" else "s"  # "you play", "greedy plays"
        if isinstance(self.action, Play):
            return f"{self.name} play{s} {' '.join(map(str, self.action.played))}" + (
                f" and knock{s}" if self.action.knock else "")
        if isinstance(self.action, GiveUp):
            return f"{self.name} give{s} up"
        return f"{self.name} {self.action}{s}"


class Session:
    """A seeded game; ``seats`` names each seat's bot level, or ``human``."""

    def __init__(self, variant: str | Variant, seats: Sequence[str], seed: int = 0,
                 budget: float | None = None, names: Sequence[str] | None = None) -> None:
        self.seats = seat_levels(seats, PERSON)
        self.seed = int(seed)
        self.budget = budget
        self.names = list(names) if names else _seat_names(self.seats)
        try:
            self.game = Game(variant, self.names, self.seed)
        except ValueError as error:
            raise SessionError(str(error)) from None
        seeds = np.random.SeedSequence(self.seed).spawn(len(seats))
        self.bots = {i: make_bot(seat, int(seeds[i].generate_state(1)[0]), budget)
                     for i, seat in enumerate(self.seats) if seat != PERSON}
        self.staged: Play | None = None
        self.hint_text: str | None = None  # the referee's forced-play hint, if any

    # -- state ---------------------------------------------------------------------------
    @property
    def current(self) -> int:
        return self.game.current_player

    @property
    def over(self) -> bool:
        return self.game.over

    def person_to_move(self) -> bool:
        return not self.over and self.seats[self.current] == PERSON

    def observation(self, player: int | None = None) -> Observation:
        return self.game.observation(self.current if player is None else player, self.hint_text)

    # -- bots ----------------------------------------------------------------------------
    def run_bots(self, on_event: Callable[[Event], None] | None = None) -> list[Event]:
        """Let bot seats move until a person is to move or the game is over, through the play
        loop (``bots.arena.loop``): a bot's illegal move, or bots that never let the game
        end, raise its ``BotError``."""
        events: list[Event] = []

        def record(player: int, action: Action) -> None:
            event = Event(player, self.names[player], action)
            events.append(event)
            if on_event:
                on_event(event)

        self.hint_text = run_bots(self.game, self.bots, until=lambda _: self.person_to_move(),
                                  on_action=record, hint=self.hint_text)
        return events

    def suggest(self, level: str, budget: float | None = None) -> Action:
        """What the bot ``level`` would do for the player to move (nothing is applied)."""
        if self.over:
            raise SessionError("the game is over")
        bot = make_bot(level, derived_seed(self.seed, len(self.game.actions)), budget)
        return bot.choose(self.observation())

    # -- a person's move -----------------------------------------------------------------
    def stage_cards(self, text: str | Sequence[Card]) -> Play:
        """Stage a play of the named hand cards (added to any staged ones); the engine finds
        an arrangement of the whole table, or says why there is none."""
        self._require_person_turn()
        cards = parse_cards(text) if isinstance(text, str) else list(text)
        if not cards:
            raise SessionError("name the hand cards to play, e.g. 'play 8D 8H'")
        play = self.arrange(list(self.staged.played if self.staged else ()) + cards)
        self._propose(play)
        self.staged = play
        return play

    def arrange(self, wanted: Sequence[Card]) -> Play:
        """A play of the hand cards ``wanted`` by the player to move: the engine finds an
        arrangement of the whole table, or ``SessionError`` says why there is none. Nothing
        is staged or proposed (a front end's auto-place shows it first)."""
        position = self.observation().position()
        missing = Counter(map(_plain, wanted)) - Counter(map(_plain, position.hand))
        if missing:
            raise SessionError(f"not in your hand (playable now): {' '.join(missing)}")
        from solver.api import solve_position
        from solver.position import Position

        trial = Position(position.table, tuple(wanted), position.variant, position.opened)
        solution = solve_position(trial)
        if len(solution.played) < len(wanted):
            best = " ".join(map(str, solution.played)) or "none of them"
            raise SessionError(f"no arrangement places all of {' '.join(map(str, wanted))}; "
                               f"the most that fit: {best}")
        return play_from_solution(solution)

    def stage_table(self, text: str | list) -> Play:
        """Stage the whole new table; the hand cards it adds are the play."""
        self._require_person_turn()
        table = parse_groups(text)
        before = Counter(map(_plain, (c for group in self.game.table for c in group)))
        after = Counter(map(_plain, (c for group in table for c in group)))
        if before - after:
            lost = " ".join(sorted((before - after).elements()))
            raise SessionError(f"table cards missing from the new table: {lost}")
        added = after - before
        hand = {_plain(card): card for card in self.game.hands[self.current]}
        played = [hand.get(text) or Card.parse(text) for text in added.elements()]
        play = Play(tuple(played), tuple(tuple(group) for group in table))
        self._propose(play)
        self.staged = play
        return play

    def reset(self) -> None:
        """Drop the staged play: the table is as the turn began."""
        self.staged = None

    def commit(self, knock: bool = False) -> list[Event]:
        """Carry out the staged play (knocking if asked), then let the bots move."""
        self._require_person_turn()
        if self.staged is None:
            raise SessionError("nothing staged: name hand cards ('play 8D 8H') or give a table")
        play = Play(self.staged.played, self.staged.table, knock)
        return self.apply(play)

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` for the person to move, then let the bots move; a refused
        move raises ``SessionError`` and changes nothing (a forced-play refusal carries the
        hint: asking again insists), but for the touch of ``incomplete=penalty``."""
        self._require_person_turn()
        player = self.current
        try:
            action = self.game.apply(action)
        except ForcedPlayHint as refusal:
            self.hint_text = refusal.hint
            raise SessionError(f"{refusal.reason}; hint: {refusal.hint}") from None
        except IllegalMoveError as error:
            raise SessionError(error.reason) from None
        self.staged = None
        self.hint_text = None
        return [Event(player, self.names[player], action)]

    def draw(self) -> list[Event]:
        return self.apply(Draw())

    def pass_turn(self) -> list[Event]:
        return self.apply(Pass())

    def give_up(self) -> list[Event]:
        return self.apply(GiveUp())

    @property
    def touched(self) -> bool:
        """The person to move has touched the table (``incomplete=penalty``): play or give up."""
        return not self.over and self.game.turn.touched

    def _propose(self, play: Play) -> None:
        """The referee judges the staged play as a proposal (it may touch the turn)."""
        try:
            self.game.propose(play)
        except IllegalMoveError as error:
            raise SessionError(error.reason) from None

    def _require_person_turn(self) -> None:
        if self.over:
            raise SessionError("the game is over")
        if self.seats[self.current] != PERSON:
            raise SessionError(f"it is {self.names[self.current]}'s turn")

    # -- save and resume -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "names": self.names, "budget": self.budget,
                "record": self.game.record_so_far()}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()) + "\n")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        """Resume: a new session whose referee replays the saved record's actions."""
        try:
            record = data["record"]
            game = resume(record)
            session = cls(game.variant, data["seats"], game.seed, data.get("budget"),
                          record["players"])
        except (KeyError, TypeError, AttributeError) as error:
            raise SessionError(f"not a saved game: missing or bad {error}") from None
        except ValueError as error:
            raise SessionError(f"the saved game does not replay: {error}") from None
        if len(session.seats) != len(game.players):
            raise SessionError("the saved game's seats and players differ")
        session.game = game
        return session

    @classmethod
    def load(cls, path: str | Path) -> Session:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise SessionError(cannot(f"read {path}", error)) from None
        except json.JSONDecodeError as error:
            raise SessionError(f"{path} is not JSON: {error.msg} at line {error.lineno}") \
                from None
        except (UnicodeDecodeError, RecursionError):
            raise SessionError(f"{path} is not a saved game (not UTF-8 text, or nested too "
                               "deeply)") from None
        if not isinstance(data, dict):
            raise SessionError(f"{path} is not a saved game")
        return cls.from_json(data)


def derived_seed(seed: int, offset: int) -> int:
    """A seed derived from ``seed`` and ``offset``: their sum, wrapped into ``0..MAX_SEED``
    (a seed near the top of the range would otherwise overflow it)."""
    return (seed + offset) % (MAX_SEED + 1)


def seat_levels(names: Sequence[str], person: str) -> list[str]:
    """A front end's seat names as a ``Session``'s seats: ``person`` (what that front end
    calls a seat that moves by command: ``client`` for the engine, ``person`` for the web)
    becomes ``PERSON``, a bot level stays; anything else is a ``SessionError`` listing the
    names this front end accepts (``PERSON`` itself is the session's own name, not theirs)."""
    for name in names:
        if name != person and name not in REGISTRY:
            raise SessionError(f"unknown seat {clip(repr(name))} (a bot level: "
                               f"{', '.join(REGISTRY)}; or {person!r})")
    return [PERSON if name == person else name for name in names]


def _seat_names(seats: Sequence[str]) -> list[str]:
    people = sum(seat == PERSON for seat in seats)
    names: list[str] = []
    count: Counter[str] = Counter()
    for seat in seats:
        count[seat] += 1
        if seat == PERSON:
            names.append("you" if people == 1 else f"player {count[seat]}")
        else:
            names.append(seat if list(seats).count(seat) == 1 else f"{seat}-{count[seat]}")
    return names


def _plain(card: Card) -> str:
    """A hand card's text (a joker played under a name is still the hand's joker)."""
    return "*" if card.joker else str(card)

