"""bench.planner_replay: the kinds of difference, and playouts from one seeded world."""

from __future__ import annotations

from bench.planner_replay import kind, play_out, same
from bots.players.estimate import observation_for
from bots.players.expert import ExpertBot
from bots.referee.actions import Draw, Play
from solver.cards import parse_cards
from solver.position import Position


def _play(cards: str) -> Play:
    return Play(tuple(parse_cards(cards)), ())


def test_each_difference_is_named_by_what_the_planner_did():
    assert kind(Draw(), _play("5H 6H 7H")) == "draws instead"
    assert kind(_play("5H"), _play("5H 6H 7H")) == "fewer cards"
    assert kind(_play("5D 6D 7D"), _play("5H 6H 7H")) == "as many cards"
    assert same(_play("5H 6H"), _play("6H 5H")) and same(Draw(), Draw())
    assert not same(_play("5H"), Draw()) and not same(_play("5H"), _play("5D"))


def test_a_move_that_goes_out_wins_the_hand_in_every_world():
    position = Position.parse("5C 5S 5H | JH QH KH / 5D / shanghai")
    observation = observation_for(position, [6])
    out = Play(tuple(parse_cards("5D")), (tuple(parse_cards("5C 5S 5H 5D")),
                                          tuple(parse_cards("JH QH KH"))))
    world = ExpertBot(3).deal(observation)
    win, points = play_out(observation, world, out)
    assert win == 1.0 and points == -6  # out: 0 points against the opponent's six cards
