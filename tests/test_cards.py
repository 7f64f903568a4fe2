import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import Card, format_groups, parse_cards, parse_groups
from solver.errors import InvalidCardError

ALL_CARDS = [Card.from_index(i) for i in range(52)]


@pytest.mark.parametrize("text, rank, suit", [
    ("10H", 10, "H"), ("th", 10, "H"), ("T♥", 10, "H"), ("as", 1, "S"), ("A♠", 1, "S"),
    ("qc", 12, "C"), ("K♦", 13, "D"), ("2♣", 2, "C"), ("J♡", 11, "H"), (" 7d ", 7, "D"),
    ("♥️5", None, None),
])
def test_parse_forms(text, rank, suit):
    if rank is None:
        with pytest.raises(InvalidCardError):
            Card.parse(text)
        return
    card = Card.parse(text)
    assert (card.rank, card.suit, card.joker) == (rank, suit, False)


@pytest.mark.parametrize("bad", ["1H", "11H", "10", "H", "ZZ", "", "AX", "10HH", "**", "*7"])
def test_parse_rejects_and_names_the_token(bad):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad, kind", [(5, "int"), (None, "NoneType"), (b"5C", "bytes")])
def test_parse_of_something_not_text_names_it_and_its_type(bad, kind):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(bad)
    assert str(info.value) == f"not a card: {bad!r} ({kind}; a card is text such as '10H')"


def test_every_card_round_trips_in_both_forms():
    for card in ALL_CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.text(symbols=True)) == card
        assert eval(repr(card)) == card
        assert Card.from_index(card.index) == card


def test_jokers():
    joker = Card.parse("*")
    assert joker.joker and not joker.is_named and str(joker) == "*"
    named = Card.parse("*7h")
    assert named.joker and named.real == Card.parse("7H") and str(named) == "*7H"
    with pytest.raises(InvalidCardError):
        joker.index  # noqa: B018


def test_points():
    assert [Card.parse(t).points for t in ("AS", "2S", "10S", "JS", "QS", "KS")] == [
        1, 2, 10, 10, 10, 10]


@given(st.lists(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=6), max_size=8))
def test_table_text_round_trips(groups):
    text = format_groups(groups)
    assert parse_groups(text) == groups
    assert parse_groups(format_groups(groups, symbols=True)) == groups


def test_list_forms_and_separators():
    assert parse_cards("8D, 8H  9s") == [Card.parse("8D"), Card.parse("8H"), Card.parse("9S")]
    assert parse_cards(["8D", Card.parse("8H")]) == [Card.parse("8D"), Card.parse("8H")]
    assert parse_cards("-") == [] and parse_groups("-") == []
    with pytest.raises(InvalidCardError):
        parse_groups("5C 6C 7C | | 8D 8H 8S")
    with pytest.raises(InvalidCardError):
        parse_cards("8D | 8H")


def test_sorting_is_by_suit_then_rank():
    cards = parse_cards("KC 2S AH 10S 5D")
    assert [str(c) for c in sorted(cards)] == ["2S", "10S", "AH", "5D", "KC"]
