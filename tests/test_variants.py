import pytest

from solver.errors import InvalidOptionError, UnknownOptionError, UnknownVariantError
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
