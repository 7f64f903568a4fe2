"""Every rule set of docs/rules.md §4 as frozen data.

A ``Variant`` is a named rule set plus its options, with every rule the referee and the solver
need spelled out as a field. Its text form is ``name[:option=value,...]`` listing only options
that differ from the defaults, so ``Variant.parse(str(v)) == v``.

Choices where the rules book is silent:

- ``ace`` is an option of every variant (house rules differ; the default is the book's).
- ``machiavelli`` ``deal`` accepts 3..15 (the book names 12, 13 and 15, and "never below 3").
- ``rounds`` accepts 1..99 hands per match; shanghai has it too (the book gives shanghai no
  fixed end: "hands go on while the players want"), default 1.
- shanghai has manipulation's ``forced_check`` option (``hint`` by default; the book: "as
  manipulation").
- Options that contradict each other are an error, never a silent override: ``helpers=4``
  deals 6 cards each (docs/rules.md §4), so it takes no other ``deal`` (``deal=6`` is
  accepted and changes nothing). An option given twice is an error too, so no value is
  silently dropped unchecked. Messages quote at most ~80 characters of the input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from solver.errors import (
    ConflictingOptionsError,
    InvalidOptionError,
    UnknownOptionError,
    UnknownVariantError,
    clip,
)

ACE_MODES = ("low", "high", "both")


@dataclass(frozen=True)
class _Option:
    """One option: its default and how its text parses and prints."""

    default: Any
    parse: Callable[[str], Any]
    choices: str

    def value(self, name: str, text: Any) -> Any:
        try:
            return self.parse(str(text).strip().lower())
        except (ValueError, KeyError):
            raise InvalidOptionError(
                f"option {name}={clip(repr(text))} is not allowed (choose {self.choices})"
            ) from None


def _choice(*values: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in values:
            raise ValueError(text)
        return text

    return parse


def _int_in(lo: int, hi: int, allowed: tuple[int, ...] | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()):  # int() takes "+5", other digits
            raise ValueError(text)
        number = int(text)
        if not lo <= number <= hi or (allowed is not None and number not in allowed):
            raise ValueError(text)
        return number

    return parse


def _bool(text: str) -> bool:
    return {"true": True, "yes": True, "1": True, "on": True,
            "false": False, "no": False, "0": False, "off": False}[text]


def _opening(text: str) -> int:
    return {"none": 0, "0": 0, "36": 36}[text]


_ACE = _Option("both", _choice(*ACE_MODES), "low, high or both")
_INCOMPLETE = _Option("reset", _choice("reset", "penalty"), "reset or penalty")
_FORCED_CHECK = _Option("hint", _choice("hint", "trust"), "hint or trust")
HELPERS_DEAL = 6  # seed 001's alternative deal: 6 cards each and 4 face-up singles

# Options of each variant (name -> spec); the default ace differs per variant.
_OPTIONS: dict[str, dict[str, _Option]] = {
    "machiavelli": {
        "ace": _ACE,
        "incomplete": _INCOMPLETE,
        "rounds": _Option(1, _int_in(1, 99), "1..99"),
        "deal": _Option(13, _int_in(3, 15), "3..15, usually 12, 13 or 15"),
        "opening": _Option(0, _opening, "none (or 0) or 36"),
        "draw_first": _Option(False, _bool, "true or false"),
        "helpers": _Option(0, _int_in(0, 4, (0, 4)), "0 or 4"),
    },
    "bga": {"ace": _ACE},
    "manipulation": {
        "ace": replace(_ACE, default="high"),
        "forced_check": _FORCED_CHECK,
        "target": _Option(200, _int_in(200, 300, (200, 300)), "200 or 300"),
    },
    "shanghai": {"ace": replace(_ACE, default="low"),
                 "forced_check": _FORCED_CHECK,
                 "rounds": _Option(1, _int_in(1, 99), "1..99")},
    "guadalupe": {"ace": _ACE, "incomplete": _INCOMPLETE},
    "carousel": {"ace": _ACE},
    "vatican": {"ace": _ACE},
    "tahiti": {"ace": _ACE, "incomplete": _INCOMPLETE},
}

VARIANT_NAMES = tuple(_OPTIONS)


@dataclass(frozen=True)
class Variant:
    """A rule set: the variant's name, its options, and every rule they imply."""

    name: str
    options: Mapping[str, Any] = field(compare=False, hash=False, repr=False)
    ace: str
    decks: int
    """Standard decks shuffled together (the most the variant uses, whatever the players)."""
    jokers: int
    """Jokers in the pack (the most the variant uses)."""
    min_players: int
    max_players: int
    deal: int
    """Cards dealt to each player."""
    deal_pattern: tuple[int, ...]
    """How many cards each player gets per pass round the table."""
    turn: str
    """``play_or_draw``, ``forced`` (draw until able), ``guadalupe`` or ``carousel``."""
    incomplete: str
    """``reset``, ``penalty`` or ``bga`` (reset, draw one, end the turn)."""
    scoring: str
    """``cards``, ``manipulation``, ``tahiti``, ``carousel`` or ``winner``."""
    joker_rule: str
    """``none``, ``carousel``, ``vatican`` or ``tahiti`` (docs/rules.md §8)."""
    singles: int
    """Face-up singles dealt onto the table before play (§5)."""
    opening_points: int
    """Points of hand-only groups the first play needs (0: no such rule)."""
    opening_run: bool
    """Vatican: the first play must contain a 3-card suited run from the hand."""
    draw_first: bool
    rounds: int
    """Hands in a match (``machiavelli``); see ``target`` for point targets."""
    target: int
    """Match ends when someone reaches this total (0: no target)."""
    forced_check: str
    """``hint``, ``trust`` or ``none`` (variants without forced play)."""
    end_on_empty_stock: bool
    """``bga``: the game ends as soon as the stock is empty."""
    key: tuple[tuple[str, Any], ...] = field(default=(), repr=False)
    """The options as a sorted tuple: what equality and hashing use."""

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_name(cls, name: str = "machiavelli", /, **options: Any) -> Variant:
        """The variant ``name`` with ``options`` (texts or values) over its defaults."""
        return _from_pairs(name, list(options.items()))

    @classmethod
    def parse(cls, text: str | Variant) -> Variant:
        """Parse ``name[:option=value,...]``, e.g. ``machiavelli:opening=36,deal=15``."""
        if isinstance(text, Variant):
            return text
        return cls.parse_with(text, {})

    @classmethod
    def parse_with(cls, text: str, options: Mapping[str, Any]) -> Variant:
        """Parse ``text`` as ``parse`` does, plus ``options`` (a JSON position's ``options``
        object): an option given in both is an error, never a silent override."""
        if not isinstance(text, str):
            raise UnknownVariantError(f"unknown variant {clip(repr(text))}")
        name, _, rest = text.strip().partition(":")
        pairs = []
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise InvalidOptionError(f"option {clip(repr(item))} in {clip(repr(text))} "
                                         "is not key=value")
            pairs.append((key.strip(), value.strip()))
        return _from_pairs(name, pairs + list(options.items()))

    def with_options(self, /, **options: Any) -> Variant:
        """A copy with some options changed (the new values replace the old ones)."""
        merged = dict(self.changed_options())
        for key, value in options.items():
            merged.pop(_option_key(key), None)
            merged[key] = value
        return _from_pairs(self.name, list(merged.items()))

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        """A variant is immutable: a deep copy (a game or an OpenSpiel state cloned) shares
        it (its ``options`` mapping proxy cannot be copied anyway)."""
        return self

    # -- text ---------------------------------------------------------------------------
    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the variant's defaults."""
        spec = _OPTIONS[self.name]
        return {k: v for k, v in self.options.items() if v != spec[k].default}

    def __str__(self) -> str:
        changed = self.changed_options()
        if not changed:
            return self.name
        options = ",".join(f"{k}={_format(k, v)}" for k, v in sorted(changed.items()))
        return f"{self.name}:{options}"

    def __repr__(self) -> str:
        return f"Variant.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and (self.name, self.key) == (other.name, other.key)

    def __hash__(self) -> int:
        return hash((self.name, self.key))

    # -- rules that depend on the table ---------------------------------------------------
    def decks_for(self, players: int) -> tuple[int, int]:
        """(decks, jokers) for a game of ``players``: carousel uses 1 + 1 heads-up."""
        if self.name == "carousel" and players <= 2:
            return 1, 1
        return self.decks, self.jokers

    @property
    def has_jokers(self) -> bool:
        return self.jokers > 0


def _option_key(key: Any) -> Any:
    """An option name as the spec spells it (case and ``-``/``_`` do not matter)."""
    return key.strip().lower().replace("-", "_") if isinstance(key, str) else key


def _from_pairs(name: Any, pairs: list[tuple[Any, Any]]) -> Variant:
    """The variant ``name`` with the (option, value) ``pairs`` over its defaults: each option
    known to the variant, given at most once, with an allowed value, none contradicting
    another."""
    if not isinstance(name, str) or name.strip().lower() not in _OPTIONS:
        raise UnknownVariantError(f"unknown variant {clip(repr(name))} "
                                  f"(choose one of {', '.join(VARIANT_NAMES)})")
    name = name.strip().lower()
    spec = _OPTIONS[name]
    given: dict[str, Any] = {}
    for key, text in pairs:
        norm = _option_key(key)
        if norm not in spec:
            raise UnknownOptionError(f"unknown option {clip(repr(key))} for variant {name} "
                                     f"(options: {', '.join(spec) or 'none'})")
        if norm in given:
            raise InvalidOptionError(f"option {norm!r} given twice")
        given[norm] = text
    values = {key: option.default for key, option in spec.items()}
    for key, text in given.items():
        option = spec[key]
        values[key] = text if _is_typed(option, text) else option.value(key, text)
    _check_conflicts(name, values, set(given))
    return _build(name, values)


def _check_conflicts(name: str, values: dict[str, Any], given: set[str]) -> None:
    """Raise ``ConflictingOptionsError`` for options that contradict each other; an option
    another one fixes goes back to its default, so the text form stays canonical."""
    if name == "machiavelli" and values["helpers"] and "deal" in given:
        if values["deal"] != HELPERS_DEAL:
            raise ConflictingOptionsError(
                f"options helpers={values['helpers']} and deal={values['deal']} contradict "
                f"each other: helpers={values['helpers']} deals {HELPERS_DEAL} cards each "
                "(drop deal, or drop helpers)")
        values["deal"] = _OPTIONS[name]["deal"].default


def _is_typed(option: _Option, value: Any) -> bool:
    """True when ``value`` is already a typed value the option accepts (not text to parse)."""
    if isinstance(value, str) or type(value) is not type(option.default):
        return False
    try:
        return option.value("", _format_value(value)) == value
    except InvalidOptionError:
        return False


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _format(key: str, value: Any) -> str:
    if key == "opening":
        return "none" if value == 0 else str(value)
    return _format_value(value)


_BASE = dict(
    decks=2, jokers=0, min_players=2, max_players=5, deal=13, deal_pattern=(1,),
    turn="play_or_draw", incomplete="reset", scoring="cards", joker_rule="none", singles=0,
    opening_points=0, opening_run=False, draw_first=False, rounds=1, target=0,
    forced_check="none", end_on_empty_stock=False,
)


def _build(name: str, opts: dict[str, Any]) -> Variant:
    rules = dict(_BASE)
    if name == "machiavelli":
        rules.update(
            incomplete=opts["incomplete"], rounds=opts["rounds"], deal=opts["deal"],
            opening_points=opts["opening"], draw_first=opts["draw_first"],
            singles=opts["helpers"],
        )
        if opts["helpers"]:
            rules["deal"] = HELPERS_DEAL
    elif name == "bga":
        rules.update(deal=15, incomplete="bga", end_on_empty_stock=True)
    elif name == "manipulation":
        rules.update(deal=7, turn="forced", scoring="manipulation", target=opts["target"],
                     forced_check=opts["forced_check"], rounds=0)
    elif name == "shanghai":
        rules.update(deal=10, deal_pattern=(3, 3, 3, 1), turn="forced", rounds=opts["rounds"],
                     forced_check=opts["forced_check"])
    elif name == "guadalupe":
        rules.update(deal=5, turn="guadalupe", incomplete=opts["incomplete"])
    elif name == "carousel":
        rules.update(jokers=2, deal=10, turn="carousel", scoring="carousel",
                     joker_rule="carousel", draw_first=True, target=150, rounds=0)
    elif name == "vatican":
        rules.update(jokers=2, scoring="winner", joker_rule="vatican", opening_run=True)
    elif name == "tahiti":
        rules.update(jokers=4, deal=5, scoring="tahiti", joker_rule="tahiti", singles=4,
                     incomplete=opts["incomplete"])
    key = tuple(sorted(opts.items()))
    return Variant(name=name, options=MappingProxyType(dict(opts)), ace=opts["ace"], key=key,
                   **rules)  # type: ignore[arg-type]  # rules: each field's own type


DEFAULT_VARIANT = Variant.from_name("machiavelli")


def option_specs(name: str) -> dict[str, dict[str, Any]]:
    """The options of variant ``name``: each one's ``default`` and its allowed values as
    ``choices`` (the text the error messages use, e.g. ``"low, high or both"``), for front
    ends that offer them (the web lobby, ``machiavelli serve``)."""
    if name not in _OPTIONS:
        raise UnknownVariantError(f"unknown variant {clip(repr(name))} "
                                  f"(choose one of {', '.join(VARIANT_NAMES)})")
    return {key: {"default": option.default, "choices": option.choices}
            for key, option in _OPTIONS[name].items()}
