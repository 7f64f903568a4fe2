"""Position analysis: the best values, every distinct best play, going out, outs, and why a
card cannot be placed.

- Best values under both objectives (``cards`` and ``points``).
- Distinct best plays (distinct multisets of hand cards reaching the best ``cards`` value):
  CP-SAT with the objective fixed, each answer excluded in turn, up to a cap.
- Outs: for each card not seen (or each card given), how many more hand cards could be
  played with that card in the hand (the card itself included), by solving again.
- A hand card that no play can place is explained: the cards that would complete a group
  for it, or that every such group would break the table.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver import arguments, kernel_backend
from solver.api import solve_position
from solver.cards import CARDS, N_CARD_TYPES, Card, format_cards, parse_cards
from solver.errors import InvalidArgumentError, TooManyCopiesError, clip
from solver.groups import candidate_runs, candidate_sets
from solver.limit import Limit, resolve_limit
from solver.position import HandLike, Position, TableLike
from solver.problem import Problem
from solver.variants import DEFAULT_VARIANT, Variant
from solver.warmup import elapsed_ms, load_cpsat, load_kernels, setup_seconds

if TYPE_CHECKING:  # OR-Tools is imported lazily: it is slow to load
    from solver.cpsat import CpsatModel

MAX_PLAYS = 20  # distinct best plays listed
MOST_PLAYS = 10_000  # the most ``max_plays`` may ask for


@dataclass(frozen=True)
class Analysis:
    """What a position offers the player to move."""

    position: Position
    best_cards: int
    best_points: int
    plays: list[list[Card]]
    """Distinct best plays under ``cards`` (hand cards played), at most ``MAX_PLAYS``."""
    plays_capped: bool
    """True when more best plays exist than are listed."""
    goes_out: bool
    """True when the whole hand can be played now."""
    outs: list[tuple[Card, int]]
    """(card, how many more hand cards it lets the hand play), best first; cards that add
    nothing are left out."""
    stuck: list[tuple[Card, str]] = field(default_factory=list)
    """Hand cards no play can place, each with what would be needed to place it."""
    elapsed_ms: float = 0.0
    optimal: bool = True
    """False when a search stopped at the ``limit`` given to ``analyze`` before proving its
    answer: the values are then what was found, and the lists may miss entries."""

    def to_json(self) -> dict[str, Any]:
        return {
            "best": {"cards": self.best_cards, "points": self.best_points},
            "plays": [[str(card) for card in play] for play in self.plays],
            "plays_capped": self.plays_capped,
            "goes_out": self.goes_out,
            "outs": [{"card": str(card), "more": more} for card, more in self.outs],
            "stuck": [{"card": str(card), "needs": why} for card, why in self.stuck],
            "elapsed_ms": round(self.elapsed_ms, 3),
        }

    def lines(self) -> list[str]:
        """The analysis for people, one fact per line."""
        out = [f"best: {self.best_cards} card(s), {self.best_points} point(s)"
               + ("; the whole hand goes out now" if self.goes_out else "")]
        more = " (more exist)" if self.plays_capped else ""
        out.append(f"best plays ({len(self.plays)}{more}):")
        out += [f"  {format_cards(play) or '(nothing)'}" for play in self.plays]
        if self.outs:
            out.append("outs (card: more cards played with it):")
            out += [f"  {card}: +{more}" for card, more in self.outs]
        else:
            out.append("outs: no single card lets the hand play more")
        for card, why in self.stuck:
            out.append(f"{card} cannot be placed: {why}")
        return out


def analyze(table: TableLike | Position, hand: HandLike = (),
            variant: str | Variant = DEFAULT_VARIANT, *, opened: bool = True,
            unseen: list[Card] | None = None, max_plays: int = MAX_PLAYS,
            limit: Limit | None = None) -> Analysis:
    """Analyze a position (see the module docstring). ``table`` is a table text, a list of
    groups or a whole ``Position``, as for ``solve`` (with a ``Position``, give no ``hand`` or
    ``variant``: ``unseen`` and ``max_plays`` are keywords). ``unseen`` lists the cards whose
    outs to compute (default: every card the packs still hold beyond the table and the hand).
    ``limit`` caps each search the analysis runs (the best values, the outs, each best play
    listed; not the checks of stuck cards): ``Analysis.optimal`` then says whether every one
    finished. Raises a ``PositionError`` (a ``ValueError``) on bad input, an
    ``InvalidArgumentError`` for arguments of the wrong type."""
    load_kernels()
    started, setup = time.perf_counter(), setup_seconds()
    position = _position_of(table, hand, variant, opened)
    arguments.integer("max_plays", max_plays, 1, MOST_PLAYS)
    limit = resolve_limit(limit, None)
    if unseen is not None:
        unseen = _unseen_cards(position, unseen)
    best = solve_position(position, "cards", limit=limit)
    points = solve_position(position, "points", limit=limit)
    plays, capped, listed = (best_plays(position, best.score, max_plays, search_limit=limit)
                             if best.score else ([], False, True))
    hand_size = len(position.hand)
    goes_out = hand_size > 0 and best.score == hand_size
    outs, exact = _outs(position, best.score, not_seen(position) if unseen is None
                        else _distinct(unseen), limit)
    stuck = [(card, needs(position, card)) for card in _distinct(position.hand)
             if not card.joker and not _placeable(position, card, plays)]
    optimal = best.optimal and points.optimal and listed and exact
    return Analysis(position, best.score, points.score, plays, capped, goes_out, outs, stuck,
                    elapsed_ms(started, setup), optimal)


def _unseen_cards(position: Position, unseen: Any) -> list[Card]:
    """``unseen`` (a list of cards or a card text) as cards that fit in the packs beside the
    table and the hand, as a position's own cards must (no more copies of a card than the
    variant has decks, no more jokers than it has); ``TooManyCopiesError`` when not."""
    if isinstance(unseen, bytes) or not isinstance(unseen, (str, Iterable)):
        raise InvalidArgumentError(f"unseen must be a list of cards, not {clip(repr(unseen))}")
    cards = parse_cards(unseen if isinstance(unseen, str) else list(unseen))
    try:
        Position.make(position.table, [*position.hand, *cards], position.variant,
                      opened=position.opened)
    except TooManyCopiesError as error:
        raise TooManyCopiesError(f"unseen cards that do not fit beside the table and the hand: "
                                 f"{error}") from None
    return cards


def _position_of(table: TableLike | Position, hand: HandLike, variant: str | Variant,
                 opened: bool) -> Position:
    """The position to analyze; a ``Position`` with a hand or a variant beside it is the old
    positional form ``analyze(position, unseen, max_plays)``, refused rather than misread."""
    arguments.flag("opened", opened)
    if not isinstance(table, Position):
        return Position.make(table, hand, variant, opened=opened)
    if (isinstance(hand, (list, tuple, str)) and len(hand) == 0) and variant is DEFAULT_VARIANT:
        return table
    raise InvalidArgumentError("analyze(position, ...) takes unseen= and max_plays= as "
                               "keywords, and no hand or variant beside a Position")


def _outs(position: Position, best: int, cards: list[Card], limit: Limit | None
          ) -> tuple[list[tuple[Card, int]], bool]:
    """(card, how many more hand cards it lets the hand play) for each of ``cards`` that
    adds something, best first; and whether every search finished within ``limit``."""
    outs, exact = [], True
    for card in cards:
        solution = solve_position(_with_card(position, card), "cards", limit=limit)
        exact = exact and solution.optimal
        if solution.score - best > 0:
            outs.append((card, solution.score - best))
    outs.sort(key=lambda pair: (-pair[1], pair[0].joker, pair[0].rank, pair[0].suit))
    return outs, exact


def not_seen(position: Position) -> list[Card]:
    """One of each card the packs still hold beyond the table and the hand."""
    left = np.full(N_CARD_TYPES, position.variant.decks, dtype=np.int64)
    left -= position.table_counts() + position.hand_counts()
    cards = [CARDS[i] for i in np.flatnonzero(left > 0)]
    jokers_seen = position.hand_jokers + len(position.table_jokers)
    if position.variant.jokers > jokers_seen:
        cards.append(Card.parse("*"))
    return cards


def best_plays(position: Position, best: int, limit: int, *,
               search_limit: Limit | None = None) -> tuple[list[list[Card]], bool, bool]:
    """Distinct multisets of hand cards that reach ``best`` cards (at most ``limit``),
    whether more exist, and whether the list is complete (False when a CP-SAT solve stopped
    at ``search_limit`` before it could say): CP-SAT with the number of cards played fixed,
    each answer excluded in turn until none is left."""
    load_cpsat()  # OR-Tools' first import is set-up, not the analysis' time
    from solver.cpsat import CpsatModel, Outcome

    problem = Problem.from_position(position, "cards")
    cpsat = CpsatModel(problem)
    jokers = cpsat.hand_jokers_played()
    cpsat.model.add(sum(cpsat.p) + jokers == best)
    in_hand = [c for c in range(N_CARD_TYPES) if problem.hand[c] > 0]
    plays: list[list[Card]] = []
    outcome = None
    while len(plays) <= limit and (outcome := cpsat.solve(search_limit)).found:
        counts = {c: cpsat.value(cpsat.p[c]) for c in in_hand}
        played_jokers = cpsat.value(jokers) if cpsat.hand_name else 0
        plays.append([CARDS[c] for c in in_hand for _ in range(counts[c])]
                     + [Card.parse("*")] * played_jokers)
        _exclude_play(cpsat, counts, played_jokers, len(plays))
    complete = len(plays) > limit or outcome is not Outcome.UNKNOWN
    return plays[:limit], len(plays) > limit, complete


def _exclude_play(cpsat: CpsatModel, counts: dict[int, int], played_jokers: int,
                  number: int) -> None:
    """The next answer differs in some hand card's count (or in the jokers played)."""
    model = cpsat.model
    differs = []
    for c, count in counts.items():
        d = model.new_bool_var(f"differs{number}_{c}")
        model.add(cpsat.p[c] != count).only_enforce_if(d)
        differs.append(d)
    if cpsat.hand_name:
        d = model.new_bool_var(f"differs{number}_jokers")
        model.add(cpsat.hand_jokers_played() != played_jokers).only_enforce_if(d)
        differs.append(d)
    model.add_bool_or(differs)


def needs(position: Position, card: Card) -> str:
    """What would place ``card``: the fewest missing cards that complete a 3-card group with
    it, or, when every such group's cards are at hand, that taking them breaks the table."""
    ace = position.variant.ace
    have = Counter(c.index for c in position.table_cards) + Counter(
        c.index for c in position.hand if not c.joker)
    have[card.index] -= 1
    groups = [g for g in candidate_sets(card.rank) if card.index in g]
    groups += [g for g in candidate_runs(ace, 3, 3) if card.index in g]
    missing: list[tuple[int, ...]] = []
    for group in groups:
        left = Counter(have)
        lack = []
        for c in group:
            if c == card.index:
                continue
            if left[c] > 0:
                left[c] -= 1
            else:
                lack.append(c)
        missing.append(tuple(lack))
    fewest = min(len(lack) for lack in missing)
    if fewest == 0:
        return ("the cards to make a group with it are on the table or in the hand, but "
                "taking them leaves other table cards without a valid group")
    options = sorted({lack for lack in missing if len(lack) == fewest})[:4]
    return "needs " + " or ".join(" ".join(str(CARDS[c]) for c in lack) for lack in options)


def _placeable(position: Position, card: Card, plays: list[list[Card]]) -> bool:
    """Whether some play (not only a best one) places ``card``."""
    if any(card in play for play in plays):
        return True
    problem = Problem.from_position(position, "cards")
    forced = np.zeros(N_CARD_TYPES, dtype=np.int64)
    forced[card.index] = 1
    forced_problem = problem.with_forced(forced)
    if kernel_backend.applies(problem) and not problem.hand_only and not problem.run_from_hand:
        return kernel_backend.search(forced_problem) is not None
    partition = load_cpsat().find_play(forced_problem)  # None: the table cannot hold the card
    return partition is not None and bool(partition.played[card.index] > 0)


def _with_card(position: Position, card: Card) -> Position:
    return Position.make(position.table, list(position.hand) + [card], position.variant,
                         opened=position.opened)


def _distinct(cards) -> list[Card]:
    seen: dict[str, Card] = {}
    for card in cards:
        seen.setdefault(str(card), card)
    return list(seen.values())


__all__ = ["Analysis", "analyze", "best_plays", "needs", "not_seen"]
