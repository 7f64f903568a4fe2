import pytest

from solver.errors import (
    ConflictingOptionsError,
    InvalidOptionError,
    PositionError,
    UnknownOptionError,
    UnknownVariantError,
    clip,
)
from solver.position import Position
from solver.variants import VARIANT_NAMES, Variant


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_variant_round_trips(name):
    variant = Variant.from_name(name)
    assert str(variant) == name
    assert Variant.parse(str(variant)) == variant


@pytest.mark.parametrize("name, ace, deal, decks, jokers, singles", [
    ("machiavelli", "both", 13, 2, 0, 0), ("bga", "both", 15, 2, 0, 0),
    ("manipulation", "high", 7, 2, 0, 0), ("shanghai", "low", 10, 2, 0, 0),
    ("guadalupe", "both", 5, 2, 0, 0), ("carousel", "both", 10, 2, 2, 0),
    ("vatican", "both", 13, 2, 2, 0), ("tahiti", "both", 5, 2, 4, 4),
])
def test_rules_table_of_section_4(name, ace, deal, decks, jokers, singles):
    v = Variant.from_name(name)
    assert (v.ace, v.deal, v.decks, v.jokers, v.singles) == (ace, deal, decks, jokers, singles)


def test_variant_specific_rules():
    assert Variant.parse("shanghai").deal_pattern == (3, 3, 3, 1)
    assert Variant.parse("carousel").decks_for(2) == (1, 1)
    assert Variant.parse("carousel").decks_for(4) == (2, 2)
    assert Variant.parse("vatican").opening_run
    assert Variant.parse("bga").end_on_empty_stock and Variant.parse("bga").incomplete == "bga"
    assert Variant.parse("manipulation").turn == "forced"
    assert Variant.parse("tahiti").joker_rule == "tahiti"


def test_options_parse_and_print_canonically():
    v = Variant.parse("Machiavelli: opening=36, deal=15, draw_first=yes")
    assert (v.opening_points, v.deal, v.draw_first) == (36, 15, True)
    assert str(v) == "machiavelli:deal=15,draw_first=true,opening=36"
    assert Variant.parse(str(v)) == v
    assert v.with_options(opening="none").opening_points == 0
    assert Variant.from_name("machiavelli", helpers=4).singles == 4
    assert Variant.parse("manipulation:target=300,forced_check=trust").target == 300
    assert hash(Variant.parse("machiavelli:ace=both")) == hash(Variant.parse("machiavelli"))


def test_bad_variants_name_the_token():
    with pytest.raises(UnknownVariantError, match="'rummy'"):
        Variant.parse("rummy")
    with pytest.raises(UnknownOptionError, match="'jokers'"):
        Variant.parse("machiavelli:jokers=2")
    with pytest.raises(InvalidOptionError, match="deal='99'"):
        Variant.parse("machiavelli:deal=99")
    with pytest.raises(InvalidOptionError, match="ace='middle'"):
        Variant.parse("machiavelli:ace=middle")
    with pytest.raises(InvalidOptionError, match="'deal'"):
        Variant.parse("machiavelli:deal")
    with pytest.raises(UnknownOptionError):
        Variant.parse("bga:opening=36")


@pytest.mark.parametrize("value", ["+13", "\u0661\u0663", "\uff11\uff13", "1_3"])
def test_number_options_take_ascii_digits_only(value):
    """int() reads these as 13; an option's number is written in ASCII digits."""
    assert int(value) == 13
    with pytest.raises(InvalidOptionError, match="deal="):
        Variant.parse(f"machiavelli:deal={value}")


# -- issue 9: contradictions, collisions, repeats, long input ------------------------------
def test_conflicting_options_helpers_and_deal_are_an_error_not_an_override():
    with pytest.raises(ConflictingOptionsError, match="helpers=4 and deal=15"):
        Variant.parse("machiavelli:helpers=4,deal=15")
    with pytest.raises(ConflictingOptionsError):
        Variant.parse("machiavelli:deal=12,helpers=4")
    with pytest.raises(ConflictingOptionsError):
        Variant.parse("machiavelli:helpers=4").with_options(deal=15)
    with pytest.raises(ConflictingOptionsError):
        Position.from_json({"variant": "machiavelli:helpers=4", "options": {"deal": 13},
                            "table": [], "hand": ["5C"]})
    assert issubclass(ConflictingOptionsError, ValueError)
    # deal=6 is what helpers=4 deals: no contradiction, and the same variant
    assert Variant.parse("machiavelli:helpers=4,deal=6") == Variant.parse("machiavelli:helpers=4")
    assert Variant.parse("machiavelli:helpers=4,deal=6").deal == 6
    assert str(Variant.parse("machiavelli:helpers=4,deal=6")) == "machiavelli:helpers=4"
    assert Variant.parse("machiavelli:helpers=4").with_options(rounds=3).deal == 6


def test_conflicting_options_between_a_position_text_and_its_options_object():
    with pytest.raises(InvalidOptionError, match="'deal' given twice"):
        Position.from_json({"variant": "machiavelli:deal=15", "options": {"deal": 12},
                            "table": [], "hand": ["5C"]})
    position = Position.from_json({"variant": "machiavelli", "options": {"deal": 12},
                                   "table": [], "hand": ["5C"]})
    assert position.variant.deal == 12


@pytest.mark.parametrize("text", ["machiavelli:name=x", "machiavelli:cls=1",
                                  "machiavelli:self=1", "bga:deal=15", "shanghai:target=300"])
def test_option_names_that_are_not_options_are_unknown_options(text):
    with pytest.raises(UnknownOptionError, match=repr(text.split(":")[1].split("=")[0])):
        Variant.parse(text)


def test_option_named_like_a_parameter_through_from_name_and_with_options():
    with pytest.raises(UnknownOptionError, match="'name'"):
        Variant.from_name("machiavelli", name="x")
    with pytest.raises(UnknownOptionError, match="'self'"):
        Variant.parse("machiavelli").with_options(self=1)


@pytest.mark.parametrize("text, key", [
    ("machiavelli:deal=99,deal=13", "deal"), ("machiavelli:deal=13,deal=13", "deal"),
    ("machiavelli:deal=13,DEAL=15", "deal"),
    ("machiavelli:draw_first=true,draw-first=false", "draw_first")])
def test_repeated_option_key_is_an_error(text, key):
    with pytest.raises(InvalidOptionError, match=f"option '{key}' given twice"):
        Variant.parse(text)


def test_repeated_option_key_through_with_options_replaces_the_old_value():
    assert Variant.parse("machiavelli:deal=15").with_options(Deal=12).deal == 12


def test_option_errors_quote_at_most_about_80_characters_of_input():
    for text in ["machiavelli:deal=" + "9" * 5000, "x" * 100_000,
                 "machiavelli:" + "k" * 5000 + "=1", "machiavelli:" + "z" * 5000]:
        with pytest.raises(PositionError) as info:
            Variant.parse(text)
        assert len(str(info.value)) < 250, str(info.value)
        assert "..." in str(info.value)


def test_clip_keeps_short_text_and_cuts_long_text():
    assert clip("short") == "short"
    assert clip("a" * 80) == "a" * 80
    assert clip("a" * 81) == "a" * 77 + "..."
    assert len(clip("b" * 1000, 20)) == 20


def test_shanghai_forced_check_option_as_manipulation():
    assert Variant.parse("shanghai").forced_check == "hint"
    trust = Variant.parse("shanghai:forced_check=trust")
    assert trust.forced_check == "trust" and str(trust) == "shanghai:forced_check=trust"
    assert Variant.parse(str(trust)) == trust
    with pytest.raises(InvalidOptionError, match="forced_check='maybe'"):
        Variant.parse("shanghai:forced_check=maybe")
