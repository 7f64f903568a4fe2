import json

import pytest

from solver import Position
from solver.errors import (
    InvalidCardError,
    InvalidGroupError,
    InvalidTableError,
    MalformedPositionError,
    TooManyCopiesError,
    UnknownVariantError,
)


@pytest.mark.parametrize("text", [
    "5C 6C 7C 8C | 8S 8D 8H / 8D 8H / machiavelli",
    "- / AS 2S / shanghai",
    "5C | 5D 6D 7D / 9D / tahiti",
    "- / KS KH KD QS / machiavelli:opening=36 / unopened",
    "QS KS AS / - / manipulation",
])
def test_text_and_json_round_trip(text):
    position = Position.parse(text)
    assert str(position) == text
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position
    assert Position.from_json(json.dumps(position.to_json())) == position


def test_singles_are_one_card_groups():
    position = Position.parse("5C | 9H | 5D 6D 7D / - / tahiti")
    assert [str(c) for c in position.singles] == ["5C", "9H"]


@pytest.mark.parametrize("text, error, token", [
    ("5C 6C 7C / 8X / machiavelli", InvalidCardError, "'8X'"),
    ("5C 6C 7C / 8D 8D 8D / machiavelli", TooManyCopiesError, "8D"),
    ("5C 6C 7C 5C 6C 7C | 5C 6C 7C / - / machiavelli", TooManyCopiesError, "5C"),
    ("5C 6C / 8D / machiavelli", InvalidGroupError, "'5C 6C'"),
    ("QH KH AH / - / shanghai", InvalidGroupError, "'QH KH AH'"),
    ("5C / 8D / machiavelli", InvalidGroupError, "'5C'"),
    ("5C | 6C | 7C | 8C | 9C / - / tahiti", InvalidGroupError, "'9C'"),
    ("5C 6C 7C / 8D / rummy", UnknownVariantError, "'rummy'"),
    ("- / * / machiavelli", TooManyCopiesError, "1 joker ('*') but machiavelli has none"),
    ("- / * * * / carousel", TooManyCopiesError, "3 jokers ('*') but carousel has 2"),
    ("- / 8D / machiavelli / unopened", InvalidTableError, "unopened"),
    ("- / 8D / machiavelli / sideways", MalformedPositionError, "'sideways'"),
    ("5C 6C 7C", MalformedPositionError, "'5C 6C 7C'"),
])
def test_impossible_positions_name_the_token(text, error, token):
    with pytest.raises(error) as info:
        Position.parse(text)
    assert token in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("data, token", [
    ("{not json", "broken JSON"),
    ("[1, 2]", "object"),
    ({"table": [["5C", "6C", "7C"]], "hand": "8D", "colour": 1}, "'colour'"),
    ({"table": "5C 6C 7C", "hand": ["8D"], "options": {"deal": 99}}, "deal"),
    ({"table": [5], "hand": []}, "group"),
    ({"table": [], "hand": [], "opened": "no"}, "opened"),
])
def test_bad_json_positions(data, token):
    with pytest.raises(ValueError) as info:
        Position.from_json(data)
    assert token in str(info.value)


def test_counts_exclude_jokers_and_split_singles():
    position = Position.make("5C | 5D 6D 7D | *8D 8S 8C", "AS *", "tahiti")
    assert position.table_counts().sum() == 6
    assert position.single_counts().sum() == 1
    assert position.hand_counts().sum() == 1
    assert position.has_jokers
