"""The graded bots: every level plays every variant legally, seeded bots repeat their moves,
and each level's defining behaviour."""

from __future__ import annotations

import pytest

from bots.arena.tournament import play_one
from bots.players import REGISTRY, make_bot
from bots.players.expert import ExpertBot
from bots.players.planner import PlannerBot
from bots.referee.actions import Play
from bots.referee.game import Game
from bots.referee.observation import observe
from solver.variants import VARIANT_NAMES


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_level_plays_every_variant_legally(variant):
    # play_one raises on the first illegal move any bot proposes
    levels = list(REGISTRY)
    for game in range(len(levels)):
        outcome = play_one(variant, levels, 2, seed=31, game=game, budget=0.02)
        assert sum(outcome.winners) >= 1
        assert set(outcome.bots) <= set(levels)


def moves_of(bot_factory, seed: int) -> list[str]:
    game = Game("machiavelli", ["a", "b"], seed)
    bots = [bot_factory(1), make_bot("greedy", 2)]
    moves = []
    while not game.over and len(moves) < 60:
        player = game.current_player
        action = bots[player].choose(game.observation(player))
        moves.append(str(action))
        game.apply(action)
    return moves


@pytest.mark.parametrize("level", ["random", "beginner", "greedy", "planner"])
def test_the_same_seed_gives_the_same_moves(level):
    assert moves_of(lambda s: make_bot(level, s), 5) == moves_of(lambda s: make_bot(level, s), 5)


def test_the_expert_with_a_rollout_count_repeats_its_moves():
    def expert(seed):
        return ExpertBot(seed, rollouts=4)

    assert moves_of(expert, 8) == moves_of(expert, 8)


def test_unknown_level_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown bot 'champion'"):
        make_bot("champion")


def test_greedy_plays_the_most_cards():
    game = Game("machiavelli", ["a", "b"], 3)
    game.hands[0] = list(_cards("7H 7D 7S 8C 9C 10C KD"))
    action = make_bot("greedy").choose(game.observation(0))
    assert isinstance(action, Play) and len(action.played) == 6


def test_beginner_never_rearranges_the_table():
    for seed in range(6):
        game = Game("machiavelli", ["a", "b"], seed)
        bots = [make_bot("beginner", seed), make_bot("greedy", seed)]
        for _ in range(200):
            if game.over:
                break
            player = game.current_player
            before = [tuple(g) for g in game.table]
            action = bots[player].choose(game.observation(player))
            if player == 0 and isinstance(action, Play):
                after = [tuple(g) for g in action.table]
                # every old group lies in the new table, as it was or grown at an end/suit
                for group in before:
                    assert any(set(map(str, group)) <= set(map(str, new)) for new in after)
            game.apply(action)


def test_planner_holds_back_a_card_that_would_feed_the_table():
    # Planner weighs drawing or smaller plays against laying everything; with these weights
    # it lays less than greedy at least once over a few games.
    fewer = 0
    for seed in range(4):
        game = Game("machiavelli", ["a", "b"], seed)
        planner, greedy = PlannerBot(seed), make_bot("greedy")
        for _ in range(120):
            if game.over:
                break
            player = game.current_player
            observation = game.observation(player)
            action = (planner if player == 0 else greedy).choose(observation)
            if player == 0:
                biggest = greedy.choose(observation)
                size = len(action.played) if isinstance(action, Play) else 0
                if isinstance(biggest, Play) and size < len(biggest.played):
                    fewer += 1
            game.apply(action)
    assert fewer > 0


def test_expert_goes_out_when_it_can():
    game = Game("machiavelli", ["a", "b"], 4)
    game.hands[0] = list(_cards("7H 7D 7S 8C 9C 10C"))
    action = ExpertBot(0, budget=0.1).choose(observe(game, 0))
    assert isinstance(action, Play) and len(action.played) == 6


def _cards(text: str):
    from solver.cards import parse_cards

    return parse_cards(text)
