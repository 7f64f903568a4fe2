"""The expert's rollouts model every variant (issue 14): jokers are dealt, drawn and played,
carousel's turns (draws, knock, last turns) are followed, and the expert searches within its
work in the joker variants too."""

from __future__ import annotations

import numpy as np
import pytest

from bots.players.expert import OVERRUN, ExpertBot, unseen_pool
from bots.players.sim import STOCK_JOKER, SimState
from bots.players.work import work_done
from bots.referee.actions import Draw
from bots.referee.game import Game, build_deck
from solver import api
from solver.cards import parse_cards
from solver.constants import N_CARD_TYPES
from solver.limit import Limit
from solver.position import Position
from solver.variants import Variant


def counts(text: str) -> np.ndarray:
    hand = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card in parse_cards(text):
        hand[card.index] += 1
    return hand


def codes(text: str) -> tuple[int, ...]:
    return tuple(card.code for card in parse_cards(text))


def state(variant: str, hands: list[str], jokers: list[int], table=(), stock=()) -> SimState:
    return SimState(Variant.parse(variant), [counts(h) for h in hands], list(table),
                    list(stock), 0, [True] * len(hands), jokers=list(jokers))


@pytest.mark.parametrize("variant", ["vatican", "tahiti", "carousel"])
def test_a_hand_joker_completes_a_run(variant):
    world = state(variant, ["5H 6H 9C", "2S 2D"], [1, 0])
    best = world.best_play(0, world.hands[0], world.jokers[0])
    assert best is not None and best.jokers == 1 and int(best.played.sum()) == 2
    world.play(0, best)
    assert world.jokers[0] == 0 and world.cards_held(0) == 1
    # the joker lies on the table under a name (its code is past the real cards)
    assert any(code >= N_CARD_TYPES for group in world.table for code in group)


def test_a_table_joker_is_played_around_and_a_drawn_joker_is_held():
    table = [codes("5H 6H *7H")]
    world = state("vatican", ["7H 8H", "KS"], [0, 0], table, stock=[STOCK_JOKER])
    best = world.best_play(0, world.hands[0])
    assert best is not None and int(best.played.sum()) == 2  # 7H frees the joker, 8H goes on
    world.draw(1)
    assert world.jokers[1] == 1 and world.cards_held(1) == 2


def test_going_out_with_a_joker_wins():
    world = state("tahiti", ["9S 10S", "2C 3D"], [1, 0])
    world.step()
    assert world.over and world.winner == 0 and world.outcome(0) == 1.0


def test_a_carousel_turn_draws_until_it_can_play_and_knocks_on_a_low_hand():
    # the first draw (AS) gives nothing to play, the second (4D) completes 2D 3D 4D; AS
    # (1 point) is left: a knock, and player 0's lowest hand value wins the hand
    world = state("carousel", ["2D 3D", "KS KH 9C"], [0, 0],
                  stock=[counts("7C").argmax(), counts("4D").argmax(), counts("AS").argmax()])
    world.step()
    assert world.over and world.winner is None
    assert world.cards_held(0) == 1 and len(world.stock) == 1
    assert world.outcome(0) == 1.0 and world.outcome(1) == 0.0


def test_carousel_gives_every_player_one_last_turn_once_the_stock_is_empty():
    world = state("carousel", ["KS", "QH"], [0, 0], stock=[counts("2C").argmax()])
    world.step()  # draws the last card, cannot play: the last turns begin
    assert not world.over and world.last_turns == 2
    world.step()
    world.step()
    assert world.over and world.winner is None
    assert world.outcome(1) == 1.0  # 2C KS (12) against QH (10)


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_a_deal_holds_every_unseen_joker(variant):
    game = Game(variant, ["a", "b"], 3)
    observation = game.observation(game.current_player)
    deck_jokers = sum(card.joker for card in build_deck(observation.variant, 2))
    seen = sum(card.joker for card in observation.hand) + sum(
        card.joker for group in observation.table for card in group)
    assert int((unseen_pool(observation) == STOCK_JOKER).sum()) == deck_jokers - seen
    world = ExpertBot(1).deal(observation)
    dealt = sum(world.jokers) + world.stock.count(STOCK_JOKER)
    assert dealt == deck_jokers - sum(card.joker for group in observation.table
                                      for card in group)
    assert world.jokers[observation.player] == sum(card.joker for card in observation.hand)


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_the_expert_searches_the_joker_variants_within_its_work(variant):
    game = Game(variant, ["a", "b"], 5)
    rival = 1 - game.current_player
    game.hands[rival] = game.hands[rival][:3]  # near the end: the rollouts decide
    observation = game.observation(game.current_player)
    if "play" not in observation.legal:  # carousel: the turn starts with a draw
        game.apply(Draw())
        observation = game.observation(game.current_player)
    before = work_done()
    action = ExpertBot(2, work=300).choose(observation)
    spent = work_done() - before
    game.apply(action)  # legal
    assert 0 < spent <= OVERRUN * 300 + 400  # the evaluation's searches come on top


def test_a_work_limit_caps_tahitis_certifying_search():
    # two free jokers in tahiti: the kernel's answer is used once a search certifies it; that
    # search now keeps to the caller's limit (it ran uncapped, seconds in a rollout), and a
    # search cut short certifies nothing: CP-SAT answers within the limit
    position = Position.make("5C 6C 7C | 9D 9S 9H", "* * 8C 10C JH QH 2S 3D", "tahiti")
    exact = api.solve_position(position)
    assert exact.backend == "kernel" and exact.optimal and exact.score == 6
    capped = api.solve_position(position, limit=Limit(work=1))
    assert capped.backend == "cpsat" and not capped.optimal


@pytest.mark.parametrize("variant, stock, searches", [
    ("bga", 20, True), ("bga", 40, False), ("machiavelli", 20, False)])
def test_the_bga_expert_searches_once_the_stock_is_nearly_drawn(monkeypatch, variant, stock,
                                                                 searches):
    """BGA's hand ends with the stock (docs/rules.md §4.3): at 24 cards left or fewer
    (``expert.STOCK_CLOCK``) the expert plays its options out though both hands are full; with
    more left, and in other variants, nobody holding few cards, it does not."""
    called = []

    def search(self, observation, plans, meter):
        called.append(len(plans))
        return [[] for _ in plans]

    monkeypatch.setattr(ExpertBot, "_search", search)
    for seed in range(4):
        game = Game(variant, ["a", "b"], seed)
        game.stock = game.stock[:stock]
        observation = game.observation(0)
        assert observation.stock_size == stock and min(observation.hand_sizes) > 6
        ExpertBot(seed).choose(observation)
    assert bool(called) == searches
