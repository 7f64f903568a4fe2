"""The referee's fast judge (bots/referee/judge.py) passes exactly the moves the validator
passes: on the plays of seeded games in every variant, and on thousands of tampered ones."""

from __future__ import annotations

import numpy as np
import pytest

from bots.arena.selfplay import play_game
from bots.referee.actions import Play
from bots.referee.game import Game
from bots.referee.judge import quick_verdict
from solver.cards import Card
from solver.validate import JOKER, play_problems
from solver.variants import VARIANT_NAMES

VARIANTS = [*VARIANT_NAMES, "machiavelli:opening=36", "machiavelli:ace=low,draw_first=true"]


def seen_plays(variant: str, games: int) -> list[tuple]:
    """(position, played, table) of every play proposed in a few seeded games."""
    cases = []
    apply = Game.apply

    def spy(game, action):
        if isinstance(action, Play):
            cases.append((game.position(), action.played, action.table))
        return apply(game, action)

    Game.apply = spy
    try:
        for seed in range(games):
            play_game(variant, ["random", "greedy"], 2 + seed % 3, seed)
    finally:
        Game.apply = apply
    return cases


def tampered(rng: np.random.Generator, position, played, table):
    """A few changed versions of a move: most illegal, some still legal."""
    groups = [list(group) for group in table]
    hand = list(position.hand)
    g = int(rng.integers(len(groups)))
    other = int(rng.integers(len(groups)))
    at = int(rng.integers(len(groups[g])))
    yield played, [list(reversed(group)) for group in groups]  # order does not matter
    yield played, groups[:g] + [groups[g][:at] + groups[g][at + 1:]] + groups[g + 1:]
    if other != g:
        moved = [list(group) for group in groups]
        moved[other].append(moved[g].pop(at))
        yield played, [group for group in moved if group]
        merged = [group for i, group in enumerate(groups) if i not in (g, other)]
        yield played, merged + [groups[g] + groups[other]]
    yield played, groups[:g] + [groups[g][:at], groups[g][at:]] + groups[g + 1:]
    if hand:
        card = hand[int(rng.integers(len(hand)))]
        grown = [list(group) for group in groups]
        grown[g].append(card)
        yield (*played, card), grown
        yield (*played, card), groups + [[card]]
    yield (*played, Card.parse("KS")), groups
    jokers = [(i, j) for i, group in enumerate(groups) for j, c in enumerate(group) if c.joker]
    if jokers:
        i, j = jokers[int(rng.integers(len(jokers)))]
        named = [list(group) for group in groups]
        named[i][j] = JOKER
        yield played, named
        renamed = [list(group) for group in groups]
        real = renamed[i][j].real
        renamed[i][j] = Card.named_joker(Card(real.rank % 13 + 1, real.suit))
        yield played, renamed


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_judge_passes_exactly_what_the_validator_passes(variant):
    rng = np.random.default_rng(len(variant))
    cases = seen_plays(variant, 3)
    assert len(cases) > 10
    legal = illegal = 0
    for position, played, table in cases:
        moves = [(played, table), *tampered(rng, position, played, table)]
        for move_played, move_table in moves:
            move_table = tuple(tuple(group) for group in move_table)
            problems = play_problems(position, move_played, move_table)
            verdict = quick_verdict(position, tuple(move_played), move_table)
            assert (verdict is not None) == (not problems), (str(position), move_played,
                                                               move_table, problems)
            legal += not problems
            illegal += bool(problems)
    assert legal > len(cases) and illegal > len(cases)


def test_a_verdict_holds_the_table_as_the_solver_reads_it():
    for position, played, table in seen_plays("tahiti", 2):
        verdict = quick_verdict(position, played, table)
        assert verdict is not None
        after = type(position)(tuple(tuple(g) for g in table), (), position.variant)
        rows, lengths = after.group_array
        assert np.array_equal(verdict.table.rows, rows)
        assert np.array_equal(verdict.table.row_lengths, lengths)
        assert verdict.table.texts() == [[str(c) for c in group] for group in table]
        assert verdict.played_texts() == [str(c) for c in played]


def test_the_judge_reads_only_lists_of_cards():
    position = seen_plays("machiavelli", 1)[0][0]
    assert quick_verdict(position, "7H", [["7H"]]) is None
    assert quick_verdict(position, ["7H"], [("7H", "8H", "9H")]) is None
    assert quick_verdict(position, [], iter([])) is None


def test_the_referee_reads_a_table_changed_in_place_again():
    game = Game("machiavelli", ["a", "b"], 1)
    game.table.append(tuple(Card.parse(c) for c in ("7H", "8H", "9H")))
    game.hands[game.current].append(Card.parse("10H"))
    play = Play.make(["10H"], [["7H", "8H", "9H", "10H"]])
    assert game.check_play(play) == []
    game.table[0] = tuple(Card.parse(c) for c in ("7S", "8S", "9S"))
    assert game.check_play(play)  # judged against the table as it lies now
    game.table[0] = tuple(Card.parse(c) for c in ("7H", "8H", "9H"))
    game.apply(play)
    assert game.record()["actions"][-1]["table"] == [["7H", "8H", "9H", "10H"]]
    assert game.observation(0).rows()[0][0, :4].tolist() == [19, 20, 21, 22]  # 7H..10H


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_a_hand_run_is_any_trio_of_the_cards_that_is_a_run(ace):
    """``has_hand_run`` (vatican's opening, docs/rules.md §6.2) looks up the ace mode's 3-card
    runs; it must say what trying every trio of the cards says, jokers never counted."""
    from itertools import combinations

    from solver.groups import group_kind
    from solver.validate import has_hand_run

    rng = np.random.default_rng(16)
    deck = [Card.from_index(i) for i in range(52)]
    found = 0
    for _ in range(400):
        cards = [deck[i] for i in rng.choice(52, size=int(rng.integers(0, 16)))]
        cards += [Card.named_joker(deck[i]) for i in rng.choice(52, size=int(rng.integers(3)))]
        real = sorted({card for card in cards if not card.joker})
        expected = any(group_kind(trio, ace) == "run" for trio in combinations(real, 3))
        assert has_hand_run(cards, ace) == expected, (ace, cards)
        found += expected
    assert 40 < found < 360  # both answers are common in the sample
