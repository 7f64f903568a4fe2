"""Many seeded games through the referee (a sample of bench/selfplay.py): no error, no card
lost or duplicated, every table valid after every action, every record replays."""

import json

import pytest

from bots.arena.selfplay import play_game
from bots.referee.record import dumps, replay
from solver.variants import VARIANT_NAMES

GAMES = {name: 28 for name in VARIANT_NAMES}
GAMES.update({"manipulation": 10, "tahiti": 14, "carousel": 20, "vatican": 20})
CASES = [(name, seed) for name in VARIANT_NAMES for seed in range(GAMES[name])]
BOTS = (["random"], ["greedy"], ["random", "greedy"], ["greedy", "random"])


@pytest.mark.parametrize("variant, seed", CASES)
def test_seeded_games_keep_every_invariant_and_replay(variant, seed):
    players = 2 + seed % 4
    bots = BOTS[seed % len(BOTS)]
    game = play_game(variant, bots, players, seed, check=True)
    record = json.loads(dumps(game.record()))
    assert record["result"] is not None
    assert sum(row["winner"] for row in record["result"]) >= 1
    assert replay(record) is None


@pytest.mark.parametrize("variant", ["machiavelli:opening=36,draw_first=true,incomplete=penalty",
                                     "machiavelli:helpers=4,rounds=2", "shanghai:rounds=2",
                                     "manipulation:forced_check=trust,target=300",
                                     "bga", "guadalupe:incomplete=penalty"])
def test_variant_options_play_through(variant):
    for seed in range(3):
        game = play_game(variant, ["random", "greedy"], 2 + seed, seed, check=True)
        assert replay(json.loads(dumps(game.record()))) is None


def test_the_same_seed_replays_the_same_game_byte_for_byte():
    for variant in ("machiavelli", "carousel", "tahiti"):
        first = dumps(play_game(variant, ["random", "greedy"], 3, 11).record())
        again = dumps(play_game(variant, ["random", "greedy"], 3, 11).record())
        other = dumps(play_game(variant, ["random", "greedy"], 3, 12).record())
        assert first == again and first != other


def test_an_observation_holds_no_hidden_card():
    seen = []
    play_game("carousel", ["random", "greedy"], 3, 5,
              on_action=lambda game: seen.append(snapshot(game)))
    assert len(seen) > 20
    public = {"variant", "player", "players", "hand", "table", "hand_sizes", "stock_size",
              "history", "legal", "draws_this_turn", "drawn_this_turn", "opened", "last_turn",
              "totals", "hand_number", "dealer", "hint"}
    for hands, stock, table, observations in seen:
        for player, obs in enumerate(observations):
            data = obs.to_json()
            assert set(data) == public  # no field for other hands or the stock
            assert data["hand"] == [str(c) for c in hands[player]]
            assert data["table"] == [[str(c) for c in group] for group in table]
            assert obs.hand_sizes == tuple(len(h) for h in hands)
            assert obs.stock_size == len(stock)
            for event in data["history"]:
                if event["type"] in ("draw", "penalty"):
                    assert "count" in event
                    # which cards were drawn is shown to the drawer only
                    assert ("drawn" in event) == (event["player"] == player)


def snapshot(game):
    return ([list(h) for h in game.hands], list(game.stock), list(game.table),
            [game.observation(p) for p in range(len(game.players))])


def test_an_observation_carries_no_reference_to_the_game():
    game = play_game("machiavelli", ["greedy"], 2, 1)
    obs = game.observation(0)
    for value in vars(obs).values():
        assert not hasattr(value, "stock")
