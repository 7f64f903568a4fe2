"""``machiavelli learn``: a short lesson in the terminal on real positions.

It teaches the chosen variant step by step: how cards are written, sets, runs, the ace rule,
adding to a group, splitting a run, then the worked examples of docs/rules.md §9 as puzzles. In a
puzzle the learner names the hand cards to play (or gives the whole new table, or says
``none``); the solver checks the answer against the best play and explains a wrong one;
``hint`` gives the short hint, then the whole plan. The lesson ends with a first game against
the ``beginner`` bot.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from bots.app.render import table_lines
from bots.app.session import PERSON, Session
from bots.app.terminal import TerminalGame
from solver.api import solve_position
from solver.cards import Card, format_cards, parse_cards, parse_groups
from solver.errors import PositionError
from solver.groups import is_valid_group
from solver.hint import hint_position
from solver.position import Position
from solver.validate import play_problems
from solver.variants import Variant


@dataclass(frozen=True)
class Quiz:
    """A yes/no question: is ``cards`` a valid group under this variant?"""

    cards: str
    why: str


@dataclass(frozen=True)
class Puzzle:
    """Play as many hand cards as the table allows."""

    table: str
    hand: str
    lesson: str


def chapters(variant: Variant) -> list[tuple[str, str, list[Quiz | Puzzle]]]:
    """(title, text, exercises) for ``variant``, in the order taught."""
    ace = variant.ace
    ace_text = {
        "low": "an ace is low only: A 2 3 is a run, Q K A is not",
        "high": "an ace is high only: Q K A is a run, A 2 3 is not",
        "both": "an ace may be low (A 2 3) or high (Q K A), but never in the middle: "
                "K A 2 is not a run",
    }[ace]
    ace_quizzes: list[Quiz | Puzzle] = [
        Quiz("AH 2H 3H", "A 2 3 of one suit"), Quiz("QS KS AS", "Q K A of one suit"),
        Quiz("KD AD 2D", "K A 2: a run never wraps round the ace")]
    return [
        ("Cards", "A card is its rank then its suit: 10H is the ten of hearts, AS the ace of "
                  "spades, QC the queen of clubs (suits S H D C). A joker in a hand is *. "
                  f"{variant.name.capitalize()} is played with {variant.decks} pack(s), so "
                  "a card may exist twice.", []),
        ("Sets", "A set is 3 or 4 cards of one rank, all of different suits.",
         [Quiz("7H 7D 7S", "three sevens of different suits"),
          Quiz("7H 7H 7D", "two 7H: a set never holds two equal cards"),
          Puzzle("-", "7H 7D 7S 2C", "Lay a set from your hand.")]),
        ("Runs", "A run is 3 or more cards of one suit in a row of ranks.",
         [Quiz("4C 5C 6C 7C", "four clubs in a row"),
          Quiz("4C 5C 7C", "6C is missing"),
          Puzzle("-", "4C 5C 6C 9D", "Lay a run from your hand.")]),
        ("Aces", f"In {variant.name}, {ace_text}.", ace_quizzes),
        ("Adding to a group", "The table is shared: on your turn you may add your cards to "
                              "any group on it, as long as every group stays valid.",
         [Puzzle("5C 6C 7C | 9H 9S 9D", "8C 9C KD", "Add to the groups on the table.")]),
        ("Splitting a run", "You may also take groups apart and build new ones, so long as "
                            "every card on the table ends in a valid group.",
         [Puzzle("3H 4H 5H 6H 7H 8H 9H", "6D 6S", "Split the run to make room for a set.")]),
        ("Worked examples", "Four positions from the rule book: play as many cards as you "
                            "can (or answer 'none').",
         [Puzzle("5C 6C 7C 8C", "8D 8H", "Example 1."),
          Puzzle("6C 7C 8C", "8D 8H", "Example 1, a shorter run."),
          Puzzle("KH KD KC | QH QD QC | JH JD JC", "AC", "Example 2."),
          Puzzle("10H 10D 10S | JH JD JS | QH QD QC", "9S", "Example 3."),
          Puzzle("10H 10D 10S | JH JD JS | QH QD QC", "9S QD QS", "Example 3, more cards."),
          Puzzle("3C 4C 5C 6C | QH QD QS", "5C 7C 8C QC JH KH", "Example 4.")]),
    ]


PUZZLE_HELP = ("answer with the hand cards to play ('8D 8H'), the whole new table "
               "('table 5C 6C 7C | 8C 8D 8H'), or 'none'; 'hint' helps, 'skip' moves on")


class Lesson:
    """Runs the chapters, then the first game."""

    def __init__(self, variant: str | Variant = "machiavelli", seed: int = 0,
                 colour: bool = False, read: Callable[[str], str] = input,
                 out: TextIO | None = None) -> None:
        self.variant = Variant.parse(variant)
        self.seed = seed
        self.colour = colour
        self.read = read
        self.out = sys.stdout if out is None else out  # at the call: stdout may be redirected
        self.solved = 0
        self.wrong = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        try:
            return self.read(prompt).strip()
        except EOFError:
            return None

    def run(self) -> int:
        self.say(f"Learn {self.variant.name}: a few rules on real positions, then a first "
                 "game. Type 'quit' to stop at any time.")
        for number, (title, text, exercises) in enumerate(chapters(self.variant), start=1):
            self.say(f"\n== {number}. {title} ==\n{text}")
            for exercise in exercises:
                done = self.quiz(exercise) if isinstance(exercise, Quiz) \
                    else self.puzzle(exercise)
                if done is None:
                    return 0
        tries = "try" if self.wrong == 1 else "tries"
        self.say(f"\nLesson done: {self.solved} right answers, {self.wrong} wrong {tries}. "
                 "Now a first game against the beginner bot.")
        answer = self.ask("play it? [Y/n] ")
        if answer is None or answer.lower().startswith("n"):
            self.say("Start one any time with: machiavelli play --bots beginner")
            return 0
        session = Session(self.variant, [PERSON, "beginner"], self.seed)
        return TerminalGame(session, self.colour, read=self.read, out=self.out).run()

    def quiz(self, quiz: Quiz) -> bool | None:
        cards = parse_cards(quiz.cards)
        valid = is_valid_group(cards, self.variant.ace)
        while True:
            answer = self.ask(f"is {quiz.cards} a valid group? [y/n] ")
            if answer is None or answer == "quit":
                return None
            if answer.lower() not in ("y", "yes", "n", "no"):
                self.say("answer y or n")
                continue
            if answer.lower().startswith("y") == valid:
                self.solved += 1
                self.say(f"right: {'it is' if valid else 'it is not'} ({quiz.why})")
                return True
            self.wrong += 1
            self.say(f"not quite: {quiz.cards} {'is' if valid else 'is not'} a valid group "
                     f"({quiz.why})")
            return True

    def puzzle(self, puzzle: Puzzle) -> bool | None:
        position = Position.make(puzzle.table if puzzle.table != "-" else [], puzzle.hand,
                                 self.variant)
        best = solve_position(position)
        hints_given = 0
        self.say(f"\n{puzzle.lesson}")
        self.say("table:")
        for line in table_lines(position.table, None, self.colour):
            self.say(line)
        self.say(f"your hand: {format_cards(sorted(position.hand))}")
        while True:
            answer = self.ask("your play> ")
            if answer is None or answer == "quit":
                return None
            if not answer:
                continue
            if answer == "help":
                self.say(PUZZLE_HELP)
                continue
            if answer == "skip":
                self.say(f"the best play: {best}")
                return True
            if answer == "hint":
                result = hint_position(position)
                self.say(result.short() if hints_given == 0 else str(result))
                hints_given += 1
                continue
            try:
                verdict = self.check(position, best.score, answer)
            except PositionError as error:
                self.say(f"error: {error}; {PUZZLE_HELP}")
                continue
            if verdict is None:
                self.solved += 1
                self.say("right!" + (f" {best}" if best.played else
                                     " nothing can be played here: you would draw"))
                return True
            self.wrong += 1
            self.say(f"not yet: {verdict} (try again, or 'hint')")

    def check(self, position: Position, best: int, answer: str) -> str | None:
        """None for a right answer, else what is wrong with it."""
        if answer.lower() in ("none", "draw", "nothing", "-"):
            return None if best == 0 else f"there is a play of {best} card(s)"
        if answer.lower().startswith("table "):
            table = parse_groups(answer[6:])
            before = [c for group in position.table for c in group]
            added = list(_minus([c for group in table for c in group], before))
            problems = play_problems(position, added, [tuple(g) for g in table]) if added \
                else ["it adds no card from your hand"]
            if problems:
                return problems[0]
            return None if len(added) == best else \
                f"a valid play, but {best} cards can be played, not {len(added)}"
        words = answer.split()
        if words[0].lower() == "play":
            words = words[1:]
        cards = parse_cards(" ".join(words))
        if not cards:
            return "name the cards to play"
        trial = Position(position.table, tuple(cards), position.variant, position.opened)
        missing = [str(c) for c in _minus(cards, list(position.hand))]
        if missing:
            return f"not in your hand: {' '.join(missing)}"
        fitted = solve_position(trial)
        if len(fitted.played) < len(cards):
            return (f"no arrangement places all of {format_cards(cards)}"
                    + (f"; at most {format_cards(fitted.played)}" if fitted.played else ""))
        if len(cards) < best:
            return f"those fit, but {best} cards can be played, not {len(cards)}"
        return None


def _minus(cards: list[Card], taken: list[Card]) -> list[Card]:
    """``cards`` without one copy of each card in ``taken`` (multisets)."""
    left = list(cards)
    for card in taken:
        for i, c in enumerate(left):
            if str(c) == str(card):
                del left[i]
                break
    return left
