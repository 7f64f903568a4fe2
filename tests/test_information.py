"""bench.information: the seeing experts read the true deal; the modes' settings come back."""

from __future__ import annotations

import numpy as np
import pytest

from bench import information
from bench.information import SeeingExpert, main, searching
from bots.players import expert
from bots.players.sim import STOCK_JOKER
from bots.referee.game import Game


def _counts(cards) -> np.ndarray:
    counts = np.zeros(expert.N_CARD_TYPES + 1, dtype=np.int64)
    for card in cards:
        counts[STOCK_JOKER if card.joker else card.index] += 1
    return counts


@pytest.mark.parametrize("variant", ["shanghai", "tahiti"])
def test_the_deal_seen_is_the_referees_and_the_stock_is_drawn_in_its_order(variant):
    game = Game(variant, ["a", "b"], 7)
    world = SeeingExpert(1, game, stock_known=True).deal(game.observation(game.current_player))
    for seat, hand in enumerate(game.hands):
        counts = _counts(hand)
        assert (world.hands[seat] == counts[:-1]).all() and world.jokers[seat] == counts[-1]
    # the simulator draws from the stock's end, the referee from its front
    assert world.stock[-1] == _counts(game.stock[:1]).argmax()
    assert sorted(world.stock) == sorted(np.repeat(np.arange(len(_counts(game.stock))),
                                                   _counts(game.stock)).tolist())


def test_a_hidden_stock_is_the_same_cards_in_another_order():
    game = Game("shanghai", ["a", "b"], 7)
    seen = SeeingExpert(1, game, stock_known=True).deal(game.observation(0)).stock
    guessed = SeeingExpert(1, game, stock_known=False).deal(game.observation(0)).stock
    assert sorted(seen) == sorted(guessed) and seen != guessed


def test_each_mode_sets_the_expert_and_puts_it_back():
    before = expert.ENDGAME, expert.MAX_PLAYS, expert.MIN_SAMPLES
    with searching("deal"):
        assert expert.ENDGAME > 100 and expert.MIN_SAMPLES == 2
    with searching("expert"):
        assert (expert.ENDGAME, expert.MAX_PLAYS, expert.MIN_SAMPLES) == before
    assert (expert.ENDGAME, expert.MAX_PLAYS, expert.MIN_SAMPLES) == before


def test_an_unknown_mode_is_refused_with_a_usage_line(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--modes", "oracle"])
    assert stop.value.code == 2 and "--modes takes" in capsys.readouterr().err


def test_against_the_planner_the_opponent_seat_is_the_planner_level(monkeypatch):
    seated = []

    def run_bots(state, bots):
        seated.extend(type(bot).__name__ for bot in bots)
        state_results = [{"winner": type(bot).__name__ == "ExpertBot"} for bot in bots]
        monkeypatch.setattr(state, "results", lambda: state_results)

    monkeypatch.setattr("bench.information.run_bots", run_bots)
    assert information.play("carousel", "expert", 2026, 0, "planner") == 1.0
    assert information.play("carousel", "expert", 2026, 1, "greedy") == 1.0
    assert sorted(seated) == ["ExpertBot", "ExpertBot", "GreedyBot", "PlannerBot"]
