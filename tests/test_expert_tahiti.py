"""The tahiti expert (issue 14, docs/rules.md §8.3): its evaluation is the planner level's own,
move for move, and what it adds on top (close calls weighed again over further deals) is gated
to tahiti."""

from __future__ import annotations

import numpy as np

from bots.arena.loop import run_bots
from bots.players import expert
from bots.players.expert import CLOSE_CALLS, CloseCall, ExpertBot
from bots.players.greedy import GreedyBot
from bots.players.planner import PlannerBot, unseen_cards
from bots.players.work import work_done
from bots.referee.actions import Draw
from bots.referee.game import Game
from bots.referee.observation import observe
from bots.referee.record import dumps
from solver.cards import parse_cards


def _record(variant: str, bot, seed: int) -> str:
    game = Game(variant, ["searcher", "greedy"], seed)
    run_bots(game, [bot, GreedyBot(seed)])
    return dumps(game.record())


def test_the_tahiti_experts_evaluation_makes_the_planner_levels_moves(monkeypatch):
    # without its rollouts and close calls the tahiti expert is the planner level, byte for
    # byte: so whatever it adds is a difference against the planner on the same moves
    monkeypatch.setattr(expert, "ENDGAME", -1)
    monkeypatch.setattr(expert, "CLOSE_CALLS", {})
    for seed in (3, 4):
        assert _record("tahiti", ExpertBot(seed), seed) == _record("tahiti", PlannerBot(seed),
                                                                    seed)
    # gated: elsewhere the expert keeps its own weights
    assert _record("machiavelli", ExpertBot(3), 3) != _record("machiavelli", PlannerBot(3), 3)


def _close_position():
    """A tahiti turn with two options to weigh: the biggest play and drawing instead."""
    game = Game("tahiti", ["a", "b"], 5)
    game.hands[0] = list(parse_cards("7H 8H 9H KC 4D QS 2C"))
    game.hands[1] = game.hands[1][:9]
    game.table = [tuple(parse_cards(group)) for group in ("3C 4C 5C", "JS QS KS", "9D *10D JD")]
    game.current = 0
    return observe(game, 0)


def test_a_close_call_is_settled_over_further_deals(monkeypatch):
    observation = _close_position()
    bot = ExpertBot(7, safety=None)
    choice, options, values = bot.level.decide(observation)
    assert len(options) == 2 and isinstance(options[1], Draw)
    # tied values: the further deals alone decide, scored as the planner level scores
    twin = np.random.default_rng()
    twin.bit_generator.state = bot.close_rng.bit_generator.state
    rule = CLOSE_CALLS["tahiti"]
    deals = [twin.permutation(np.asarray(unseen_cards(observation))) for _ in range(rule.deals)]
    again = [PlannerBot(0).value(observation, option, deals) for option in options]
    worse, better = sorted(range(2), key=lambda i: again[i])
    assert again[better] > again[worse]
    # listed second and tied, the option the further deals favour replaces the first
    order = [options[worse], options[better]]
    assert bot._close_call(observation, bot.level, order[0], order, [0.0, 0.0]) == order[1]
    # far apart: no further work, the evaluation's choice stands
    before = work_done()
    assert bot._close_call(observation, bot.level, choice, options, [0.0, -rule.gap]) == choice
    assert work_done() == before
    # out of work part-way: the evaluation's choice stands
    monkeypatch.setitem(CLOSE_CALLS, "tahiti", CloseCall(rule.gap, rule.deals, 1))
    assert bot._close_call(observation, bot.level, options[0], options, [0.0, 0.0]) == options[0]
    assert bot._close_call(observation, bot.level, options[1], options[::-1],
                           [0.0, 0.0]) == options[1]


def test_close_calls_are_weighed_again_in_tahiti_only():
    assert set(CLOSE_CALLS) == {"tahiti"}
    machiavelli = Game("machiavelli", ["a", "b"], 5).observation(0)
    bot = ExpertBot(7)
    before = work_done()
    assert bot._close_call(machiavelli, bot.planner, Draw(), [Draw(), Draw()], [0.0, 0.0]) == \
        Draw()
    assert work_done() == before


def test_a_tahiti_option_whose_weighing_ran_out_of_work_is_not_counted():
    # a 26-card hand weighs five options in 1,901 units; capped at 400 its evaluation runs out
    # within the first, whose last estimates then search with no work left (so it scores
    # -7.22, where over all its estimates -7.58); weighed ``whole`` it keeps minus infinity
    from tests.test_work_budgets import TAHITI_HAND, TAHITI_TABLE

    game = Game("tahiti", ["a", "b"], 0)
    game.hands[0] = list(parse_cards(TAHITI_HAND))[:26]
    game.hands[1] = game.hands[1][:5]
    game.table = [tuple(parse_cards(group)) for group in TAHITI_TABLE]
    game.current = 0
    observation = observe(game, 0)
    _, options, cut = PlannerBot(2).decide(observation, move_work=400)
    _, same, whole = PlannerBot(2).decide(observation, move_work=400, whole=True)
    assert same[0] == options[0] and np.isfinite(cut[0]) and whole == [float("-inf")] * len(same)
    # with the work to finish, ``whole`` changes no value
    assert PlannerBot(2).decide(observation)[2] == PlannerBot(2).decide(observation, whole=True)[2]
