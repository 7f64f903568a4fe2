"""Many seeded games through the referee (a sample of bench/selfplay.py): no error, no card
lost or duplicated, every table valid after every action, every record replays."""

import hashlib
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


#: sha256 (first 16 hex digits) of the records of seeded games, written by the referee and bots
#: of 2026-11-30 before the referee judged plays on card codes and greedy solved through
#: solver.counts (issue 12): the same seed must give the same record, byte for byte. A change
#: that alters a bot's moves on purpose updates these and says why. The six vatican and tahiti
#: records changed when their joker positions went from CP-SAT (with generated cuts) to the
#: kernel: at the first differing move each game's new play holds as many cards as the old one
#: (another best play of equal value; issue 12).
RECORD_HASHES = {
    ("machiavelli", ("greedy",), 2, 1): "fb99881fa3fe7c6a",
    ("machiavelli", ("random", "greedy"), 3, 2): "c01bfc82d39fd647",
    ("machiavelli", ("beginner", "greedy"), 2, 3): "4a7f82e0c65e03f8",
    ("bga", ("greedy",), 2, 1): "d5e50adebb8d06f8",
    ("bga", ("random", "greedy"), 3, 2): "2827696e3f820a6e",
    ("bga", ("beginner", "greedy"), 2, 3): "962c7e12c7f634d8",
    ("manipulation", ("greedy",), 2, 1): "52e4e23b601b5f31",
    ("manipulation", ("random", "greedy"), 3, 2): "a79a480d9a54115d",
    ("manipulation", ("beginner", "greedy"), 2, 3): "c214649a0f5bec2b",
    ("shanghai", ("greedy",), 2, 1): "502c985eaf4dae05",
    ("shanghai", ("random", "greedy"), 3, 2): "4f34c1251317de7c",
    ("shanghai", ("beginner", "greedy"), 2, 3): "8896f404e0491cf2",
    ("guadalupe", ("greedy",), 2, 1): "18145e3fe143ee54",
    ("guadalupe", ("random", "greedy"), 3, 2): "f4a361cceca7c4fd",
    ("guadalupe", ("beginner", "greedy"), 2, 3): "1158f7a5f4561bd1",
    ("carousel", ("greedy",), 2, 1): "5b3459b7644d39e6",
    ("carousel", ("random", "greedy"), 3, 2): "c79b7b197000bf90",
    ("carousel", ("beginner", "greedy"), 2, 3): "c97e76228f210c65",
    ("vatican", ("greedy",), 2, 1): "bb4967aa104eb706",
    ("vatican", ("random", "greedy"), 3, 2): "036534a9e5ea3452",
    ("vatican", ("beginner", "greedy"), 2, 3): "7813428984c8e370",
    ("tahiti", ("greedy",), 2, 1): "5466034d9ffc408e",
    ("tahiti", ("random", "greedy"), 3, 2): "90aa6adc97c77bcc",
    ("tahiti", ("beginner", "greedy"), 2, 3): "812e3d7fd40f13c8",
}


@pytest.mark.parametrize("case", sorted(RECORD_HASHES))
def test_seeded_records_stay_byte_for_byte_the_same(case):
    variant, bots, players, seed = case
    record = dumps(play_game(variant, list(bots), players, seed).record())
    assert hashlib.sha256(record.encode()).hexdigest()[:16] == RECORD_HASHES[case]
