"""A position: the table's groups, the hand to play from, the variant, and the turn context.

Text form (one line, like a chess FEN)::

    5C 6C 7C 8C | 8S 8D 8H / 8D 8H / machiavelli

``table / hand / variant``, with ``-`` for an empty table or hand and an optional fourth field
``unopened`` when the player has not yet made the variant's opening play. A one-card group on
the table is an original single (docs/rules.md §5). JSON form::

    {"variant": "machiavelli", "options": {}, "table": [["5C", "6C", "7C", "8C"]],
     "hand": ["8D", "8H"], "opened": true}

Both forms round-trip. Every constructor validates, raising a ``PositionError`` subclass that
names the offending token.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np

from solver import arguments
from solver.cards import (
    CODE_CARDS,
    CODE_OF,
    Card,
    format_cards,
    format_groups,
    parse_cards,
    parse_groups,
)
from solver.constants import ACE_CODES, ROW_WIDTH
from solver.errors import (
    InvalidCardError,
    InvalidGroupError,
    InvalidTableError,
    MalformedPositionError,
    PositionError,
    TooManyCopiesError,
    clip,
)
from solver.groups import is_valid_group
from solver.position_arrays import PositionArrays, encode, position_arrays
from solver.variants import DEFAULT_VARIANT, Variant

TableLike = str | Iterable[str | Iterable[str | Card]]
HandLike = str | Iterable[str | Card]


@dataclass(frozen=True)
class Position:
    """Table groups + hand + variant (+ whether the player has made the opening play)."""

    table: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    variant: Variant = DEFAULT_VARIANT
    opened: bool = True
    """False while the variant's opening rule (36 points, vatican's run) still binds the player."""

    # -- construction -------------------------------------------------------------------
    @classmethod
    def make(
        cls,
        table: TableLike = (),
        hand: HandLike = (),
        variant: str | Variant = DEFAULT_VARIANT,
        opened: bool = True,
    ) -> Position:
        """Parse and validate a position from texts or lists of cards.

        The usual input (texts or lists of card texts, valid) takes the fast path: a dict
        lookup per card and one numba pass (``solver.position_arrays``); anything else, an
        error above all, goes through the Python parser and check, which name the token."""
        arguments.flag("opened", opened)
        rules = variant_of(variant)
        fast = _fast_make(cls, table, hand, rules, opened)
        return fast if fast is not None else cls.make_in_python(table, hand, rules, opened)

    @classmethod
    def make_in_python(cls, table: TableLike, hand: HandLike, variant: Variant,
                       opened: bool) -> Position:
        """``make``'s reference path: the Python parser and ``validate``, which raise the
        error naming the offending token (the fast path hands every doubt to it)."""
        groups = tuple(tuple(group) for group in parse_groups(table))
        position = cls(groups, tuple(parse_cards(hand)), variant, opened)
        position.validate()
        return position

    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse the one-line text form ``table / hand / variant [/ unopened]``."""
        if not isinstance(text, str):
            raise MalformedPositionError(f"not a position text: a {type(text).__name__}")
        fields = [field.strip() for field in text.split("/")]
        if len(fields) not in (2, 3, 4):
            raise MalformedPositionError(
                f"position {clip(text)!r} needs 'table / hand / variant [/ unopened]'"
            )
        variant = fields[2] if len(fields) > 2 and fields[2] else DEFAULT_VARIANT
        opened = True
        if len(fields) == 4:
            if fields[3].lower() not in ("opened", "unopened"):
                raise MalformedPositionError(
                    f"unknown flag {clip(fields[3])!r} in position (expected 'unopened')"
                )
            opened = fields[3].lower() == "opened"
        return cls.make(fields[0], fields[1], variant, opened)

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> Position:
        """Read the JSON form (a dict, or a JSON text)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as error:
                raise MalformedPositionError(f"broken JSON position: {error.msg} at "
                                             f"character {error.pos}") from None
            except RecursionError:
                raise MalformedPositionError("JSON position nested too deeply") from None
        if not isinstance(data, dict):
            raise MalformedPositionError(f"a JSON position is an object, not {type(data).__name__}")
        unknown = set(data) - {"variant", "options", "table", "hand", "opened"}
        if unknown:
            raise MalformedPositionError(
                f"unknown field {clip(sorted(unknown)[0])!r} in JSON position")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise MalformedPositionError("JSON position: 'options' must be an object")
        variant = Variant.parse_with(data.get("variant", "machiavelli"), options)
        table = data.get("table", [])
        hand = data.get("hand", [])
        if not isinstance(table, (list, str)) or not isinstance(hand, (list, str)):
            raise MalformedPositionError("JSON position: 'table' and 'hand' must be lists")
        if isinstance(table, list) and any(not isinstance(g, (list, str)) for g in table):
            raise MalformedPositionError("JSON position: each table group must be a list")
        opened = data.get("opened", True)
        if not isinstance(opened, bool):
            raise MalformedPositionError("JSON position: 'opened' must be true or false")
        return cls.make(table, hand, variant, opened)

    # -- text ---------------------------------------------------------------------------
    def __str__(self) -> str:
        text = f"{format_groups(self.table)} / {format_cards(self.hand) or '-'} / {self.variant}"
        return text if self.opened else text + " / unopened"

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        """The JSON form as a dict (``json.dumps`` it for text)."""
        return {
            "variant": self.variant.name,
            "options": self.variant.changed_options(),
            "table": [[str(card) for card in group] for group in self.table],
            "hand": [str(card) for card in self.hand],
            "opened": self.opened,
        }

    # -- views (computed once per position; arrays are read-only) --------------------------
    @property
    def singles(self) -> list[Card]:
        """The original singles still alone on the table (one-card groups)."""
        return [group[0] for group in self.table if len(group) == 1]

    @property
    def table_cards(self) -> list[Card]:
        return [card for group in self.table for card in group]

    @cached_property
    def _arrays(self) -> PositionArrays:
        """The counts and reading-order groups, computed once (``solver.position_arrays``)."""
        codes = [CODE_OF[card] for group in self.table for card in group]
        hand = [CODE_OF[card] for card in self.hand]
        lengths = [len(group) for group in self.table]
        if any(n > ROW_WIDTH for n in lengths):
            raise InvalidGroupError(f"a group of {max(lengths)} cards is not a set or a run")
        return position_arrays(encode(_int_array(codes), _int_array(lengths), _int_array(hand),
                                      ACE_CODES[self.variant.ace], 0, 0, 0, False))

    @cached_property
    def has_jokers(self) -> bool:
        return self._arrays.jokers > 0

    @property
    def hand_jokers(self) -> int:
        """Jokers in the hand."""
        return sum(card.joker for card in self.hand)

    @property
    def table_jokers(self) -> list[tuple[Card, tuple[Card, ...]]]:
        """Each joker on the table with the group it lies in."""
        return [(card, group) for group in self.table for card in group if card.joker]

    def table_counts(self) -> np.ndarray:
        """Count of each real card (index 0..51) on the table, jokers excluded."""
        return self._arrays.table_counts

    def hand_counts(self) -> np.ndarray:
        """Count of each real card in the hand, jokers excluded."""
        return self._arrays.hand_counts

    def single_counts(self) -> np.ndarray:
        """Count of each real card that is an original single still alone."""
        return self._arrays.single_counts

    def mandatory_counts(self) -> np.ndarray:
        """Table cards that must end up in a group: all but the original singles."""
        return self._arrays.mandatory_counts

    @cached_property
    def index_groups(self) -> tuple[tuple[int, ...], ...]:
        """The table's groups as card-code tuples in reading order (a joker naming card ``i``
        has code ``52 + i``)."""
        rows, lengths = self.group_array
        return tuple(tuple(row[:n]) for row, n in zip(rows.tolist(), lengths.tolist(),
                                                      strict=True))

    @property
    def group_array(self) -> tuple[np.ndarray, np.ndarray]:
        """The table's groups (singles included) as a padded index array and lengths."""
        return self._arrays.rows, self._arrays.lengths

    # -- validation ---------------------------------------------------------------------
    def validate(self) -> None:
        """Raise a ``PositionError`` naming the offending token if the position is impossible."""
        variant = self.variant
        for card in self.hand:
            if card.joker and card.is_named:
                raise InvalidCardError(f"a joker in a hand is written '*', not {str(card)!r}")
        copies = Counter(card.real for card in self.table_cards + list(self.hand) if not card.joker)
        for card, count in sorted(copies.items(), key=lambda item: item[0].sort_key()):
            if count > variant.decks:
                raise TooManyCopiesError(
                    f"{count} copies of {card} but {variant.name} has {variant.decks} "
                    f"deck{'s' if variant.decks > 1 else ''}"
                )
        jokers = sum(card.joker for card in self.table_cards) + sum(c.joker for c in self.hand)
        if jokers > variant.jokers:
            raise TooManyCopiesError(
                f"{jokers} joker{'s' if jokers > 1 else ''} ('*') but {variant.name} has "
                f"{variant.jokers or 'none'}"
            )
        singles = 0
        for group in self.table:
            lone = len(group) == 1 and not group[0].joker
            singles += lone
            if lone and singles > variant.singles:
                raise InvalidGroupError(
                    f"group {clip(format_cards(group))!r} is a lone card; {variant.name} "
                    + ("has no singles" if not variant.singles
                       else f"has only {variant.singles} singles")
                )
            if not lone:
                _check_group(group, variant)
        if not self.opened and not (variant.opening_points or variant.opening_run):
            raise InvalidTableError(
                f"'unopened' means nothing in {variant.name}: it has no opening rule"
            )


def _check_group(group: tuple[Card, ...], variant: Variant) -> None:
    """Raise an ``InvalidGroupError`` if a starting table's group of two or more cards (or a
    lone joker) is not a valid group under ``variant``."""
    text = clip(format_cards(group))
    if any(not card.is_named for card in group):
        raise InvalidGroupError(
            f"a joker on the table must be named (e.g. *7H) in group {text!r}"
        )
    if not is_valid_group(group, variant.ace):
        raise InvalidGroupError(f"group {text!r} is not a set or a run (ace {variant.ace})")
    jokers = sum(card.joker for card in group)
    if variant.joker_rule == "tahiti" and jokers > 1:
        raise InvalidGroupError(f"group {text!r} holds {jokers} jokers; {variant.name} allows "
                                "at most one joker per group (docs/rules.md §8)")


def _int_array(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


_VARIANTS: dict[str, Variant] = {}  # variant texts already parsed: parsing is not free


def variant_of(variant: str | Variant) -> Variant:
    """``Variant.parse(variant)``, remembered for texts (a ``Variant`` is immutable)."""
    if isinstance(variant, str):
        rules = _VARIANTS.get(variant)
        if rules is None:
            rules = Variant.parse(variant)
            if len(_VARIANTS) < 1024:
                _VARIANTS[variant] = rules
        return rules
    return Variant.parse(variant)


def _tokens(cards: object) -> list | tuple | None:
    """The card tokens of a group or hand given as a text or a list (None: another kind of
    input, for the Python parser)."""
    if isinstance(cards, str):
        if "|" in cards:
            return None
        tokens = cards.replace(",", " ").split()
        return [] if tokens == ["-"] else tokens
    return cards if isinstance(cards, (list, tuple)) else None


def card_codes(table: object, hand: object) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(codes, lengths, hand)`` as int64 arrays for the usual input (texts, or lists of
    card texts or ``Card``s, spelt as ``solver.cards.CODE_OF`` knows them): every table card's
    code, group after group, each group's length and the hand's codes. None for anything
    else (an empty group, an odd spelling, something that is no card): the Python parser
    then judges it."""
    groups: Sequence[Any]
    if isinstance(table, str):
        stripped = table.strip()
        groups = [] if stripped in ("", "-") else [_tokens(part) for part in stripped.split("|")]
    elif isinstance(table, (list, tuple)):
        groups = table if set(map(type, table)) <= _LISTS else [_tokens(g) for g in table]
    else:
        return None
    tokens = _tokens(hand)
    if tokens is None or None in groups:
        return None
    lengths = list(map(len, groups))
    if 0 in lengths:
        return None
    code_of = CODE_OF.__getitem__
    try:
        codes = list(map(code_of, chain.from_iterable(groups)))
        hand_codes = list(map(code_of, tokens))
    except (KeyError, TypeError):  # an odd spelling, or no card at all
        return None
    return _int_array(codes), _int_array(lengths), _int_array(hand_codes)


_LISTS = {list, tuple}


def position_of_codes(codes: np.ndarray, lengths: np.ndarray, hand: np.ndarray,
                      rules: Variant, opened: bool) -> Position:
    """The ``Position`` of ``card_codes``' arrays, checked already (``encode`` passed them)."""
    cards = CODE_CARDS.__getitem__
    table, at = [], 0
    flat = codes.tolist()
    for n in lengths.tolist():
        table.append(tuple(map(cards, flat[at: at + n])))
        at += n
    return Position(tuple(table), tuple(map(cards, hand.tolist())), rules, opened)


def _fast_make(cls: type[Position], table: object, hand: object, rules: Variant,
               opened: bool) -> Position | None:
    """``Position.make`` for the usual input, or None when the Python path must judge it."""
    given = card_codes(table, hand)
    if given is None or (not opened and not (rules.opening_points or rules.opening_run)):
        return None
    codes, lengths, hand_codes = given
    encoded = encode(codes, lengths, hand_codes, ACE_CODES[rules.ace], rules.decks,
                     rules.jokers, rules.singles, rules.joker_rule == "tahiti")
    if not encoded[0]:
        return None
    position = position_of_codes(codes, lengths, hand_codes, rules, opened)
    if cls is not Position:
        position = cls(position.table, position.hand, rules, opened)
    position.__dict__["_arrays"] = position_arrays(encoded)
    return position


__all__ = ["Position", "PositionError"]
