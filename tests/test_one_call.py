"""``solve()`` from card texts in one numba call (``solver.one_call``) against the general
path it stands in for (``Position.make`` then the general solve): the same answers, laid out
the same way, and on bad or unusual input the same error with the same message. The same for
a pre-built ``Position`` (``solve_position``, the CLI's and the protocol's call)."""

from __future__ import annotations

import copy
import random
import time

import numpy as np
import pytest

from solver import Position, PositionError, api, solve, solve_position
from solver.cards import CODE_OF
from solver.generate import random_position
from solver.one_call import Answer
from solver.position import card_codes
from solver.position_arrays import joined_texts, parse_texts

ACES = ("low", "high", "both")
# Tokens that may replace a card: other spellings, no cards, and texts holding the bytes
# ``joined_texts`` puts between cards, groups, and the table and the hand.
ODD_TOKENS = ("10h", "th", "TH", "A♠", "q♥\ufe0f", "*", "*7H", "*7h", " 7H", "1H", "ZZ", "",
              "10", "*X", "K", "7H,", "-", "7H\x008H", "7H\x01", "\x02", "7\x00H", "*\x00")


def _fields(solution):
    return (solution.played, solution.table, solution.changed, solution.score,
            solution.optimal, solution.backend, solution.objective, solution.position)


def _general_solution(position, objective="cards", backend="auto"):
    """The general path's solution (``solver.one_call`` not asked)."""
    return api._solve_position(position, objective, backend, None, 1, time.perf_counter(),
                               one_call_ok=False)


def _general(table, hand, variant, objective="cards", opened=True):
    """What the general path gives: the error (type and message), or the solution's fields."""
    try:
        position = Position.make(table, hand, variant, opened)
        return _fields(_general_solution(position, objective))
    except PositionError as error:
        return type(error).__name__, str(error)


def _quick(table, hand, variant, objective="cards", opened=True):
    """What ``solve()`` gives on the same input, and whether ``one_call`` answered."""
    try:
        solution = solve(table, hand, variant, objective, opened=opened)
    except PositionError as error:
        return (type(error).__name__, str(error)), False
    return _fields(solution), "_source" in solution.__dict__


def _as_texts(position: Position) -> tuple[list[list[str]], list[str]]:
    return [[str(card) for card in group] for group in position.table], \
        [str(card) for card in position.hand]


@pytest.mark.parametrize("variant", [f"machiavelli:ace={ace}" for ace in ACES]
                         + ["machiavelli:helpers=4", "guadalupe", "machiavelli:opening=36"])
def test_one_call_answers_as_the_general_path_on_random_positions(variant):
    rng = np.random.default_rng(12)
    answered = 0
    for n in range(60):
        position = random_position(rng, variant, int(rng.integers(0, 70)),
                                   int(rng.integers(0, 15)))
        table, hand = _as_texts(position)
        objective = ("cards", "points")[n % 2]
        quick, one_call = _quick(table, hand, variant, objective)
        assert quick == _general(table, hand, variant, objective), position
        answered += one_call
    assert answered == 60  # every one of them the usual request


def test_odd_tokens_give_the_general_paths_answer_or_error():
    rng = random.Random(5)
    position = Position.parse("5C 6C 7C 8C | 8S 8D 8H / 8C 9C KS KD 4H / machiavelli")
    table, hand = _as_texts(position)
    for token in ODD_TOKENS:
        for _ in range(4):
            new_table = [list(group) for group in table]
            new_hand = list(hand)
            if rng.random() < 0.5:
                group = rng.randrange(len(new_table))
                new_table[group][rng.randrange(len(new_table[group]))] = token
            else:
                new_hand[rng.randrange(len(new_hand))] = token
            quick, _ = _quick(new_table, new_hand, "machiavelli")
            assert quick == _general(new_table, new_hand, "machiavelli"), (token, new_table,
                                                                             new_hand)


@pytest.mark.parametrize(("table", "hand"), [
    ([], []), ([], ["7H", "8H", "9H"]), ([[]], ["7H"]), ([["7H", "8H", "9H"], []], []),
    ([["7H", "8H"]], ["9H"]), ([["KH"], ["KH"], ["KH"]], []), ("7H 8H 9H | KS KD KC", "QS"),
    ([("7H", "8H", "9H")], ("10H",)), (["7H 8H 9H"], ["10H"]), ([["7H", "8H", "9H"]], "10H"),
    ([["*7H", "8H", "9H"]], ["7H"]), ([["7H", "8H", "9H"]], ["*"]), (7, ["7H"]),
    ([["7H", "8H", 9]], []), ([["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]], ["KH"]),
])
def test_edge_inputs_give_the_general_paths_answer_or_error(table, hand):
    quick, _ = _quick(table, hand, "machiavelli:ace=both")
    assert quick == _general(table, hand, "machiavelli:ace=both")


def test_other_requests_go_the_general_way():
    table, hand = [["5C", "6C", "7C", "8C"]], ["8D", "8H", "8S"]
    for variant, opened in (("carousel", True), ("machiavelli:opening=36", False)):
        quick, one_call = _quick(table, hand, variant, opened=opened)
        assert not one_call and quick == _general(table, hand, variant, opened=opened)
    assert "_source" not in solve(table, hand, backend="cpsat").__dict__
    assert "_source" not in solve(table, hand, time_limit=1.0).__dict__


def test_plain_texts_are_read_as_the_dict_lookup_reads_them():
    plain = [text for text in CODE_OF if isinstance(text, str) and text.isascii()
             and text == text.upper() and "T" not in text]
    rng = random.Random(3)
    for _ in range(200):
        table = [rng.sample(plain, rng.randrange(1, 5)) for _ in range(rng.randrange(0, 6))]
        hand = rng.sample(plain, rng.randrange(0, 6))
        ok, codes, lengths, hand_codes = parse_texts(*joined_texts(table, hand))
        assert ok
        expected = card_codes(table, hand)
        assert expected is not None
        for got, want in zip((codes, lengths, hand_codes), expected, strict=True):
            assert got.tolist() == want.tolist()


def test_a_deferred_solution_reads_compares_and_copies_as_an_eager_one():
    table, hand = [["5C", "6C", "7C", "8C"], ["KH"], ["2C"]], ["8D", "8H", "8S", "KS", "KD"]
    variant = "machiavelli:helpers=4"
    quick = solve(table, hand, variant)
    assert "_source" in quick.__dict__
    general = _general_solution(Position.make(table, hand, variant))
    assert repr(quick).split("elapsed_ms")[0] == repr(general).split("elapsed_ms")[0]
    quick_json, general_json = quick.to_json(), general.to_json()
    del quick_json["elapsed_ms"], general_json["elapsed_ms"]
    assert quick_json == general_json
    assert str(quick) == str(general)
    fresh = solve(table, hand, variant)
    assert _fields(copy.copy(fresh)) == _fields(general)
    assert isinstance(quick.__dict__["_source"], Answer)


def test_the_position_is_the_one_given_even_if_the_lists_change_afterwards():
    table, hand = [["5C", "6C", "7C", "8C"]], ["8D", "8H", "8S"]
    solution = solve(table, hand)
    table[0][0], hand[0] = "KS", "KD"
    assert str(solution.position) == "5C 6C 7C 8C / 8D 8H 8S / machiavelli"


def test_one_kernel_version_whatever_the_input_form():
    """Card texts read in numba and codes looked up in Python reach ``solve_codes`` as one
    argument type: a second version would be compiled inside a timed solve."""
    from solver.one_call import solve_codes

    solve([["5C", "6C", "7C"]], ["8C"])
    solve("5C 6C 7C", "8C")
    solve([["5c", "6C", "7C"]], ["8C"])
    solve_position(Position.parse("5C 6C 7C / 8C / machiavelli"))
    assert len(solve_codes.signatures) == 1


@pytest.mark.parametrize("variant", [f"machiavelli:ace={ace}" for ace in ACES]
                         + ["machiavelli:helpers=4", "guadalupe"])
def test_a_prebuilt_position_is_answered_in_one_call_as_the_general_path(variant):
    """``solve_position`` on a ``Position`` (parsed, made from lists, or with its groups in
    another order than reading order) answers from its codes, as the general path."""
    rng = np.random.default_rng(21)
    for n in range(40):
        made = random_position(rng, variant, int(rng.integers(0, 70)), int(rng.integers(0, 15)))
        table = [tuple(reversed(group)) if rng.random() < 0.3 else group for group in made.table]
        for position in (made, Position.parse(str(made)), Position(tuple(table), made.hand,
                                                                     made.variant)):
            objective = ("cards", "points")[n % 2]
            solution = solve_position(position, objective)
            assert "_source" in solution.__dict__ and solution.position is position
            assert _fields(solution) == _fields(_general_solution(position, objective))
            assert solution.to_json()["table"] == \
                _general_solution(position, objective).to_json()["table"]


def test_prebuilt_positions_that_are_not_the_usual_request_go_the_general_way():
    usual = Position.parse("5C 6C 7C 8C / 8D 8H 8S / machiavelli")
    others = [(Position.parse("5C 6C 7C 8C / 8D 8H * / carousel"), {}),
              (Position.parse("5C 6C 7C 8C / 8D 8H 8S / machiavelli:opening=36 / unopened"), {}),
              (usual, {"backend": "cpsat"}), (usual, {"time_limit": 1.0})]
    for position, options in others:
        assert "_source" not in solve_position(position, **options).__dict__
    for bad in ({"objective": "pts"}, {"backend": "fast"}, {"workers": 0}):
        with pytest.raises(ValueError) as quick:
            solve_position(usual, **bad)
        with pytest.raises(ValueError) as general:
            api._solve_position(usual, bad.get("objective", "cards"), bad.get("backend", "auto"),
                                None, bad.get("workers", 1), 0.0, one_call_ok=False)
        assert str(quick.value) == str(general.value)
    with pytest.raises(ValueError, match="position"):
        solve_position("5C 6C 7C / 8C / machiavelli")  # type: ignore[arg-type]


def test_the_packed_automaton_tables_read_back_as_built():
    """``automaton_tables()`` packs the kernel's tables for one and two copies into one
    array (one numba argument); ``kernel_tables`` gives back each table as ``solver.automaton``
    built it (``accept`` as booleans)."""
    from solver import automaton
    from solver.one_call import DECKS, automaton_tables, kernel_tables

    packed = automaton_tables()
    for copies in range(1, DECKS + 1):
        built = (*automaton.run_automaton(copies), automaton.set_vectors(copies),
                 automaton.suit_states(copies))
        read = kernel_tables(packed, copies - 1)
        for want, got in zip(built, read, strict=True):
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(got, want)


def test_an_answer_unpacks_to_the_general_paths_fields():
    """The packed answer (``solver.one_call.HEAD``) read back: the played counts, the rows,
    their lengths and which changed, as the general path lays them out."""
    table, hand = [["5C", "6C", "7C", "8C"], ["KH"], ["9S", "9H", "9D"]], ["8D", "8H", "9C"]
    variant = "machiavelli:helpers=4"
    answer = solve(table, hand, variant).__dict__["_source"]
    general = _general_solution(Position.make(table, hand, variant))
    assert isinstance(answer, Answer) and answer.score == general.score == 3
    assert answer.played.tolist() == np.bincount(
        [card.index for card in general.played], minlength=52).tolist()
    assert answer.lengths.tolist() == [len(group) for group in general.table]
    assert answer.changed.tolist() == general.changed
    assert [[code for code in row if code >= 0] for row in answer.rows.tolist()] == \
        [[CODE_OF[str(card)] for card in group] for group in general.table]
