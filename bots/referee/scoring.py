"""End of a hand and of a match: hand values, who wins, what each player scores (docs/rules.md §7).

Penalty variants (lower is better) score what is left in each hand; carousel (higher is
better) pays the winner. Rulings where the book is terse:

- A hand that ends without anyone going out (deadlock, bga's empty stock) scores every
  player's cards, and every player tied for the lowest value wins it (a tie shares the win).
- Carousel, when the stock runs out and the last turns are played: the lowest hand value wins
  (ties all win) and each winner scores the sum of the differences to the other players.
- A match's winners are the players with the best total (ties share).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import Card
from solver.variants import Variant

CAROUSEL_OUT_BONUS = 25
CAROUSEL_UNDERCUT_BONUS = 10
CAROUSEL_TARGET_BONUS = 100
CAROUSEL_HAND_WON_BONUS = 25
KNOCK_LIMIT = 5
"""Carousel: a knock leaves at most this many points in hand (docs/rules.md §4.3)."""


def card_value(variant: Variant, card: Card) -> int:
    """What one card left in the hand costs (or is worth, in carousel)."""
    if variant.scoring == "manipulation":
        return 15 if card.rank == 1 else 10 if card.rank >= 10 else 5
    if variant.scoring == "tahiti":
        return 30 if card.joker else 11 if card.rank == 1 else min(card.rank, 10)
    if variant.scoring == "carousel":
        return 25 if card.joker else min(card.rank, 10)
    return 1  # one point per card: machiavelli, bga, shanghai, guadalupe, vatican


def hand_value(variant: Variant, cards: Sequence[Card]) -> int:
    return sum(card_value(variant, card) for card in cards)


def knock_open(variant: Variant, draws: int, last_turn: bool) -> bool:
    """Carousel: may a play this turn knock at all? Only after one or two draws, and not in
    the last turns (docs/rules.md §4.3). The referee, the observation and the bots ask here."""
    return variant.turn == "carousel" and not last_turn and 1 <= draws <= 2


def can_knock(variant: Variant, draws: int, last_turn: bool, hand_after: Sequence[Card]) -> bool:
    """Carousel: may the player knock after a play that leaves ``hand_after``? The knock must
    be open (``knock_open``) and leave a hand, not an empty one, of ``KNOCK_LIMIT`` points or
    less (docs/rules.md §4.3): the one statement of the rule."""
    return (knock_open(variant, draws, last_turn) and len(hand_after) > 0
            and hand_value(variant, hand_after) <= KNOCK_LIMIT)


@dataclass(frozen=True)
class HandResult:
    """How a hand ended, what each player scored in it, and who won it."""

    ended: str
    """``out``, ``deadlock``, ``stock`` (bga's empty stock), ``knock`` or ``last_turns``."""
    scores: tuple[int, ...]
    winners: tuple[bool, ...]


def score_hand(variant: Variant, hands: Sequence[Sequence[Card]], ended: str,
               player: int | None = None) -> HandResult:
    """Score a finished hand; ``player`` went out or knocked (for ``out`` and ``knock``)."""
    values = [hand_value(variant, hand) for hand in hands]
    n = len(hands)
    if variant.scoring == "carousel":
        return _score_carousel(values, ended, player)
    if ended == "out":
        scores = tuple(0 if i == player else values[i] for i in range(n))
        return HandResult(ended, scores, tuple(i == player for i in range(n)))
    best = min(values)
    return HandResult(ended, tuple(values), tuple(v == best for v in values))


def _score_carousel(values: list[int], ended: str, player: int | None) -> HandResult:
    if ended in ("out", "knock"):
        if player is None:
            raise ValueError(f"a carousel hand ended by {ended!r} names the player")
        if ended == "out":
            return _carousel_out(values, player)
        return _carousel_knock(values, player)
    lowest = min(values)
    winners = [v == lowest for v in values]
    scores = [sum(v - lowest for v in values) if won else 0 for won in winners]
    return HandResult(ended, tuple(scores), tuple(winners))


def _carousel_out(values: list[int], player: int) -> HandResult:
    """Carousel: ``player`` went out; they score every hand plus the bonus."""
    n = len(values)
    scores = [0] * n
    scores[player] = sum(values) + CAROUSEL_OUT_BONUS
    return HandResult("out", tuple(scores), tuple(i == player for i in range(n)))


def _carousel_knock(values: list[int], player: int) -> HandResult:
    """Carousel: ``player`` knocked; strictly lowest wins, else the lowest others undercut."""
    n = len(values)
    scores = [0] * n
    others = [values[i] for i in range(n) if i != player]
    lowest = min(others)
    if values[player] < lowest:
        scores[player] = sum(v - values[player] for v in others)
        return HandResult("knock", tuple(scores), tuple(i == player for i in range(n)))
    winners = [i != player and values[i] == lowest for i in range(n)]
    for i in range(n):
        if winners[i]:
            scores[i] = sum(v - lowest for v in values) + CAROUSEL_UNDERCUT_BONUS
    return HandResult("knock", tuple(scores), tuple(winners))


def lower_is_better(variant: Variant) -> bool:
    return variant.scoring != "carousel"


def match_over(variant: Variant, totals: Sequence[int], hands_played: int) -> bool:
    """Whether the match ends after ``hands_played`` hands with these totals."""
    if variant.scoring == "carousel":
        return max(totals) >= variant.target
    if variant.target:  # manipulation: someone reached the target and the lowest is alone
        if max(totals) < variant.target:
            return False
        best = min(totals)
        return sum(total == best for total in totals) == 1
    return hands_played >= max(variant.rounds, 1)


def final_totals(variant: Variant, totals: Sequence[int], hands_won: Sequence[int]) -> list[int]:
    """Totals with the end-of-match bonuses (carousel: 100 for reaching the target, 25 for
    every hand won)."""
    if variant.scoring != "carousel":
        return list(totals)
    return [total + (CAROUSEL_TARGET_BONUS if total >= variant.target else 0)
            + CAROUSEL_HAND_WON_BONUS * won for total, won in zip(totals, hands_won, strict=True)]


def match_winners(variant: Variant, totals: Sequence[int]) -> list[bool]:
    best = min(totals) if lower_is_better(variant) else max(totals)
    return [total == best for total in totals]
