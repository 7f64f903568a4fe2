"""Cards and their text forms (docs/rules.md §1).

A ``Card`` is a small immutable value: rank 1..13 (ace is 1) and suit ``S H D C``, or a joker.
A joker in a hand is unnamed (``*``); a joker on the table stands for a named card (``*7H``).
Text forms round-trip: ``str(Card.parse("10h")) == "10H"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from solver.constants import N_CARD_TYPES
from solver.errors import InvalidCardError, clip

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
# White and other variants of the suit symbols that people paste from the web.
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_NAME_TO_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
for _n in range(2, 11):
    _NAME_TO_RANK[str(_n)] = _n

_CARD_RE = re.compile(r"^(\*)?(?:(10|[2-9]|[AJQKT])([SHDC]))?$")


def rank_text(rank: int) -> str:
    """Text of a rank: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
    return RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card, or a joker (named when on the table, unnamed in a hand)."""

    rank: int
    """1 (ace) .. 13 (king); 0 for an unnamed joker."""
    suit: str
    """One of ``S H D C``; empty for an unnamed joker."""
    joker: bool = False
    """True for a joker; ``rank`` and ``suit`` are then the card it stands for, if named."""

    def __post_init__(self) -> None:
        named = self.rank != 0 or self.suit != ""
        if named and not (1 <= self.rank <= 13 and self.suit in SUITS and len(self.suit) == 1):
            raise InvalidCardError(f"not a card: rank {self.rank!r}, suit {self.suit!r}")
        if not named and not self.joker:
            raise InvalidCardError("a card needs a rank and a suit")

    # -- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10H``, ``th``, ``A♠``, ``*`` (joker) or ``*7H`` (joker standing for 7H)."""
        if not isinstance(text, str):
            raise InvalidCardError(
                f"not a card: {text!r} ({type(text).__name__}; a card is text such as '10H')")
        token = text.strip().replace("\ufe0f", "")
        normal = "".join(_SYMBOL_TO_SUIT.get(ch, ch) for ch in token).upper()
        match = _CARD_RE.match(normal)
        if not normal or match is None or (match.group(1) is None and match.group(2) is None):
            raise InvalidCardError(
                f"not a card: {clip(text)!r} (write e.g. 10H, AS, QC, * or *7H)")
        is_joker = match.group(1) is not None
        if match.group(2) is None:
            return cls(0, "", joker=True)
        return cls(_NAME_TO_RANK[match.group(2)], match.group(3), joker=is_joker)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The real card with kernel index ``index`` (``suit * 13 + rank - 1``)."""
        if not 0 <= index < N_CARD_TYPES:
            raise InvalidCardError(f"not a card index: {index!r}")
        return CARDS[index]

    @classmethod
    def named_joker(cls, card: Card) -> Card:
        """A joker standing for ``card``."""
        return cls(card.rank, card.suit, joker=True)

    # -- properties ---------------------------------------------------------------------
    @property
    def is_named(self) -> bool:
        """True for real cards and for jokers that stand for a card."""
        return self.rank != 0

    @property
    def index(self) -> int:
        """Kernel index 0..51 of the real card (or of the card a named joker stands for)."""
        if not self.is_named:
            raise InvalidCardError("an unnamed joker has no card index")
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def code(self) -> int:
        """Code in solver arrays: the card index, plus 52 for a joker naming that card."""
        return self.index + (N_CARD_TYPES if self.joker else 0)

    @classmethod
    def from_code(cls, code: int) -> Card:
        """Inverse of ``code``: a real card (0..51) or a named joker (52..103)."""
        return CARDS[code] if code < N_CARD_TYPES else NAMED_JOKERS[code - N_CARD_TYPES]

    @property
    def points(self) -> int:
        """Face value for the ``points`` objective and the 36-point opening: A 1, J Q K 10."""
        return min(self.rank, 10)

    @property
    def real(self) -> Card:
        """The real card this card is or stands for."""
        return Card(self.rank, self.suit) if self.joker else self

    def sort_key(self) -> tuple[int, int, int]:
        """Suit order S H D C, then rank; jokers after the real cards they name."""
        if not self.is_named:
            return (len(SUITS), 0, 1)
        return (SUITS.index(self.suit), self.rank, int(self.joker))

    def __lt__(self, other: Card) -> bool:
        return self.sort_key() < other.sort_key()

    # -- text ---------------------------------------------------------------------------
    def text(self, symbols: bool = False) -> str:
        """Text form; ``symbols=True`` writes ♠ ♥ ♦ ♣ instead of S H D C."""
        if not self.is_named:
            return "*"
        suit = SUIT_SYMBOLS[self.suit] if symbols else self.suit
        return ("*" if self.joker else "") + rank_text(self.rank) + suit

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card.parse({self.text()!r})"


#: The 52 real cards by index (cards are immutable values, so these are shared).
CARDS: tuple[Card, ...] = tuple(Card(i % 13 + 1, SUITS[i // 13]) for i in range(N_CARD_TYPES))
#: Jokers naming each of the 52 cards, by index.
NAMED_JOKERS: tuple[Card, ...] = tuple(Card(c.rank, c.suit, joker=True) for c in CARDS)
#: Every code a solver array may hold: 52 real cards, then 52 named jokers.
CODES: tuple[Card, ...] = CARDS + NAMED_JOKERS
UNNAMED_JOKER_CODE = 2 * N_CARD_TYPES
"""The code of a hand joker (``*``) in ``CODE_OF``: after the named jokers."""
#: ``CODES`` plus the unnamed joker: the card of every code ``CODE_OF`` gives.
CODE_CARDS: tuple[Card, ...] = CODES + (Card(0, "", joker=True),)


def _spellings() -> dict[str | Card, int]:
    """Every spelling ``Card.parse`` accepts without surrounding spaces, and every ``Card``,
    mapped to its code (``UNNAMED_JOKER_CODE`` for ``*``): parsing by one dict lookup."""
    ranks = {rank: {rank_text(rank), rank_text(rank).lower()} for rank in range(1, 14)}
    ranks[10] |= {"T", "t"}
    suits = {suit: {suit, suit.lower()} for suit in SUITS}
    for symbol, suit in _SYMBOL_TO_SUIT.items():
        suits[suit] |= {symbol, symbol + "\ufe0f"}
    table: dict[str | Card, int] = {"*": UNNAMED_JOKER_CODE, CODE_CARDS[-1]: UNNAMED_JOKER_CODE}
    for card in CODES:
        table[card] = card.code
        prefix = "*" if card.joker else ""
        for rank in ranks[card.rank]:
            for suit in suits[card.suit]:
                table[prefix + rank + suit] = card.code
    return table


#: Card text (or ``Card``) -> code, for every spelling a card is usually written in; a text
#: that is not here goes through ``Card.parse`` (odd spacing, or an error to report).
CODE_OF: dict[str | Card, int] = _spellings()

_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse a list of cards: text separated by spaces or commas, or an iterable of cards."""
    if isinstance(text, str):
        stripped = text.strip()
        if stripped in ("", "-"):
            return []
        if "|" in stripped:
            raise InvalidCardError(f"not a card: '|' in {clip(text)!r} (a hand has no groups)")
        return [Card.parse(token) for token in _SEPARATORS.split(stripped) if token]
    return [card if isinstance(card, Card) else Card.parse(card) for card in _items(text)]


def parse_groups(text: str | Iterable[str | Iterable[str | Card]]) -> list[list[Card]]:
    """Parse a table: groups separated by ``|``, or an iterable of groups (texts or card lists)."""
    if isinstance(text, str):
        stripped = text.strip()
        if stripped in ("", "-"):
            return []
        groups = []
        for part in stripped.split("|"):
            cards = parse_cards(part)
            if not cards:
                raise InvalidCardError(f"empty group in table {clip(text)!r}")
            groups.append(cards)
        return groups
    groups = []
    for group in _items(text):
        cards = parse_cards(group)
        if not cards:
            raise InvalidCardError("empty group in table")
        groups.append(cards)
    return groups


def _items(value: object) -> Iterable:
    """``value``'s items, or an ``InvalidCardError`` if it is not a list of cards or groups."""
    if isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise InvalidCardError(f"not cards: a {type(value).__name__} (give a text or a list)")
    return value


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards as space-separated text."""
    return " ".join(card.text(symbols) for card in cards)


def format_groups(groups: Iterable[Iterable[Card]], symbols: bool = False) -> str:
    """A table as text: groups separated by `` | ``; ``-`` for an empty table."""
    text = " | ".join(format_cards(group, symbols) for group in groups)
    return text or "-"
