"""``machiavelli play``: a game against the computer (and other people, hot-seat) in the
terminal.

Each turn shows the table (numbered groups) and your hand, sorted. You play by naming hand
cards (``play 8D 8H``, or just ``8D 8H``: the engine finds an arrangement of the whole table,
or says none exists) or by giving the whole new table (``table 5C 6C 7C | 8C 8D 8H``). The play
is staged and shown; ``ok`` carries it out, ``reset`` takes it back. Bad input gets one line
and the game goes on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from bots.app.render import BOLD, DIM, RESET, cards_text, table_lines
from bots.app.session import PERSON, Event, Session, SessionError
from bots.referee.actions import Play
from solver.cards import Card
from solver.errors import PositionError, cannot

HELP = """commands:
  play CARDS     stage a play of these hand cards (or just type the cards): 'play 8D 8H'
  table GROUPS   stage the whole new table: 'table 5C 6C 7C | 8C 8D 8H'
  ok             carry out the staged play         knock   carry it out and knock (carousel)
  reset          take the staged play back (the table is as your turn began)
  hint           the best play that changes the table least, as steps
  draw           draw from the stock               pass    end the turn without playing
  giveup         abandon a play you cannot finish (the variant's penalty applies; under
                 incomplete=penalty, once a table you staged was refused, your turn ends
                 only with a legal play or giveup: +3 cards)
  save FILE      save the game (resume with: machiavelli play --resume FILE)
  help           this list                         quit    leave (save first!)"""


class TerminalGame:
    """The read-show-answer loop around a ``Session``."""

    def __init__(self, session: Session, colour: bool = False, symbols: bool = False,
                 read: Callable[[str], str] = input, out: TextIO | None = None) -> None:
        self.session = session
        self.colour = colour
        self.symbols = symbols
        self.read = read
        self.out = sys.stdout if out is None else out  # at the call: stdout may be redirected
        self.people = sum(seat == PERSON for seat in session.seats)
        self.ready: int | None = None  # the person whose hand is on show (hot-seat)
        self.saved = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        session = self.session
        self.say(f"{session.game.variant.name}: {', '.join(session.names)}; "
                 f"seed {session.seed}. Type 'help' for the commands.")
        hand_number = len(session.game.hand_records)
        while not session.over:
            try:
                session.run_bots(self.show_event)
            except RuntimeError as error:
                self.say(f"error: {error}")
                return 3
            if len(session.game.hand_records) != hand_number:
                self.show_hand_end()
                hand_number = len(session.game.hand_records)
            if session.over:
                break
            if not self.turn():
                return 0
            if len(session.game.hand_records) != hand_number:
                self.show_hand_end()
                hand_number = len(session.game.hand_records)
        self.show_results()
        return 0

    # -- one person's turn -------------------------------------------------------------
    def turn(self) -> bool:
        """Read commands until the person's turn ends; False when they quit."""
        session = self.session
        player = session.current
        if self.people > 1 and self.ready != player:
            self.say("\n" * 3 + f"{session.names[player]}'s turn: pass the terminal to "
                     f"{session.names[player]} and press Enter when ready.")
            if self._read("") is None:
                return False
            self.ready = player
        self.show()
        while session.current == player and not session.over:
            line = self._read(f"{session.names[player]}> ")
            if line is None:
                return False
            line = line.strip()
            if not line:
                continue
            if line in ("quit", "exit", "q"):
                self.say("bye" if self.saved else
                         "bye (not saved: next time type 'save FILE' first)")
                return False
            try:
                events = self.command(line)
            except (SessionError, PositionError) as error:
                self.say(f"error: {error}")
                continue
            if events:
                self.saved = False
            for event in events:
                self.show_event(event)
            if events and session.current == player and not session.over:
                self.show()
        if self.people > 1:
            self.ready = None
        return True

    def command(self, line: str) -> list[Event]:
        """Carry out one command line; the events it caused."""
        session = self.session
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "help":
            self.say(HELP)
            return []
        if word == "hint":
            from solver.hint import hint_position

            result = hint_position(session.observation().position())
            self.say(str(result))
            return []
        if word == "show":
            self.show()
            return []
        if word in ("play", "p"):
            self.show_staged(session.stage_cards(rest))
            return []
        if word in ("table", "t"):
            self.show_staged(session.stage_table(rest))
            return []
        if word in ("ok", "done", "commit"):
            return session.commit()
        if word == "knock":
            return session.commit(knock=True)
        if word == "reset":
            session.reset()
            self.say("reset: the table is as your turn began")
            if session.touched:
                self.say(self.touched_note())
            self.show()
            return []
        if word == "draw":
            return session.draw()
        if word == "pass":
            return session.pass_turn()
        if word in ("giveup", "give"):
            return session.give_up()
        if word == "save":
            if not rest.strip():
                raise SessionError("save needs a file name: 'save game.json'")
            try:
                session.save(rest.strip())
            except OSError as error:
                raise SessionError(cannot(f"save to {rest.strip()}", error)) from None
            self.saved = True
            self.say(f"saved to {rest.strip()} (resume: machiavelli play --resume "
                     f"{rest.strip()})")
            return []
        if _looks_like_cards(line) or _card_like(word):
            self.show_staged(session.stage_cards(line))  # a bad card names itself here
            return []
        raise SessionError(f"unknown command {word!r} (type 'help')")

    # -- showing -----------------------------------------------------------------------
    def show(self) -> None:
        session = self.session
        game = session.game
        observation = session.observation()
        sizes = ", ".join(f"{name} {size}" for name, size in
                          zip(session.names, observation.hand_sizes, strict=True))
        self.say(f"\n{DIM if self.colour else ''}stock {observation.stock_size}; "
                 f"cards in hand: {sizes}{RESET if self.colour else ''}")
        self.say("table:")
        for line in table_lines(game.table, None, self.colour, self.symbols):
            self.say(line)
        self.say(f"your hand: {self.cards(sorted(observation.hand))}")
        if observation.drawn_this_turn:
            self.say(f"drawn this turn: {self.cards(observation.drawn_this_turn)}")
        if not observation.opened[observation.player] and game.variant.opening_points:
            self.say(f"(you have not opened: your first play must be worth "
                     f"{game.variant.opening_points} points from your hand)")
        if session.touched:
            self.say(self.touched_note())
        self.say(f"you may: {', '.join(self.commands(observation.legal))}")

    def commands(self, legal) -> list[str]:
        """The legal kinds of action as the commands that do them (a give-up with its cost)."""
        names = {"give_up": f"giveup (+{self.session.game.give_up_cost()})"}
        return [names.get(kind, kind) for kind in sorted(legal)]

    def touched_note(self) -> str:
        cost = self.session.game.give_up_cost()
        return (f"you have touched the table (incomplete=penalty): play legally, or 'giveup' "
                f"and draw {cost} penalty card{'s' if cost != 1 else ''}")

    def show_staged(self, play: Play) -> None:
        changed = [True] * len(play.table)
        before = [tuple(group) for group in self.session.game.table]
        for i, group in enumerate(play.table):
            if tuple(group) in before:
                before.remove(tuple(group))
                changed[i] = False
        self.say(f"staged: play {self.cards(play.played)} (* = new or changed group)")
        for line in table_lines(play.table, changed, self.colour, self.symbols):
            self.say(line)
        self.say("type 'ok' to play it, 'reset' to take it back, or name more cards")

    def show_event(self, event: Event) -> None:
        text = str(event)
        if isinstance(event.action, Play) and self.session.seats[event.player] != PERSON:
            text += f": table now {len(event.action.table)} groups"
        self.say(f"  {BOLD if self.colour else ''}{text}{RESET if self.colour else ''}")

    def show_hand_end(self) -> None:
        game = self.session.game
        result = game.hand_results[-1]
        scores = ", ".join(f"{name} {score:+d}" for name, score in
                           zip(game.players, result.scores, strict=True))
        winners = [name for name, won in zip(game.players, result.winners, strict=True)
                   if won]
        self.say(f"hand {len(game.hand_results)} over ({result.ended}); won by "
                 f"{', '.join(winners) or 'nobody'}; scores: {scores}")

    def show_results(self) -> None:
        self.say("game over:")
        for row in self.session.game.results():
            self.say(f"  {row['player']}: {row['score']}" + ("  (winner)" if row["winner"]
                                                            else ""))

    def cards(self, cards) -> str:
        return cards_text(list(cards), self.colour, self.symbols) or "(none)"

    def _read(self, prompt: str) -> str | None:
        try:
            return self.read(prompt)
        except EOFError:
            self.say("")
            return None


def _card_like(word: str) -> bool:
    """A word meant as a card (``8X``, ``11H``), so a bad one is reported as a card."""
    return 2 <= len(word) <= 3 and (word[0] in "23456789ajqk*" or word.startswith("1"))


def _looks_like_cards(line: str) -> bool:
    try:
        for token in line.split():
            Card.parse(token)
    except PositionError:
        return False
    return True
