"""The carousel knock rule (docs/rules.md §4.3), written once in bots.referee.scoring: the
referee, the observation and the bots all ask the same function."""

from __future__ import annotations

import pytest

from bots.arena.loop import run_bots
from bots.players import make_bot
from bots.players.base import best_play, knock_allowed
from bots.referee.actions import Action
from bots.referee.game import Game
from bots.referee.observation import Observation
from bots.referee.scoring import KNOCK_LIMIT, can_knock, knock_open
from solver.cards import parse_cards
from solver.validate import physical
from solver.variants import Variant

CAROUSEL = Variant.parse("carousel")


@pytest.mark.parametrize("draws, last_turn, left, allowed", [
    (1, False, "2H 3D", True),       # 5 points after one draw
    (2, False, "AH 4D", True),       # 5 points after two draws
    (0, False, "2H", False),         # no draw yet
    (3, False, "2H", False),         # the third draw ended the turn
    (1, True, "2H", False),          # no knock in the last turns
    (1, False, "", False),           # going out is no knock
    (1, False, "2H 4D", False),      # 6 points
    (1, False, "*", False),          # a joker is worth 25
])
def test_the_knock_rule(draws, last_turn, left, allowed):
    hand = parse_cards(left)
    assert can_knock(CAROUSEL, draws, last_turn, hand) is allowed
    assert KNOCK_LIMIT == 5


def test_no_knock_outside_carousel():
    for name in ("machiavelli", "vatican", "tahiti"):
        assert not knock_open(Variant.parse(name), 1, False)
        assert not can_knock(Variant.parse(name), 1, False, parse_cards("2H"))


class Judge:
    """Greedy, but first checks that the bots' knock test agrees with the referee's."""

    name = "judge"

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.bot = make_bot("greedy", seed)
        self.compared = 0

    def choose(self, observation: Observation) -> Action:
        play = best_play(observation) if "play" in observation.legal else None
        if play is not None:
            left = list(observation.hand)
            for card in play.played:
                left.remove(physical(card))
            assert knock_allowed(observation, play) == self.game.can_knock(left)
            assert (observation.can_knock_value >= 0) == knock_open(
                CAROUSEL, observation.draws_this_turn, observation.last_turn)
            self.compared += 1
        return self.bot.choose(observation)


def test_bots_and_referee_agree_on_every_knock_in_carousel_games():
    compared = 0
    for seed in range(2):
        game = Game("carousel", ["a", "b", "c"], seed)
        judges = [Judge(game, seat) for seat in range(3)]
        run_bots(game, judges)
        compared += sum(judge.compared for judge in judges)
        assert any(action["type"] == "knock" for hand in game.hand_records
                   for action in hand["actions"])
    assert compared > 20
