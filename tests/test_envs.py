"""The research environments (bots.envs, docs/environments.md): the action slots and the
observation tensor, and the OpenSpiel, PettingZoo and Gymnasium environments run through those
libraries' own checkers on every variant. The checkers need the ``rl`` extra; without it those
tests skip (CI installs the extra in a step of its own, .ci/run)."""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

import numpy as np
import pytest

from bots.envs.actions import (
    DRAW,
    FIRST_KNOCK,
    FIRST_PLAY,
    NUM_ACTIONS,
    PLAY_SLOTS,
    IllegalSlotError,
    candidates,
)
from bots.envs.encoding import CARD_SLOTS, encode, tensor_size
from bots.envs.episode import Episode
from bots.envs.levels import LEVELS, MissingExtraError, check_level
from bots.referee.actions import Play
from bots.referee.game import Game
from bots.referee.record import dumps, replay
from solver.variants import VARIANT_NAMES, Variant

VARIANTS = [(name, Variant.parse(name).min_players) for name in VARIANT_NAMES]
#: Every variant at its fewest players, and a few at more seats (up to five).
SEATINGS = VARIANTS + [("machiavelli", 5), ("guadalupe", 4), ("carousel", 3),
                       ("manipulation", 3)]


def _deal(opponent: list[str], stock: list[str]) -> dict:
    return {"dealer": 1, "hands": [["5H", "5D", "9C", "KS", "2D"], opponent],
            "table": [], "stock": stock}


def _walk(episode: Episode, seed: int, steps: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if episode.over:
            return
        episode.step(int(rng.choice(episode.candidates().legal())))


# -- the action slots -----------------------------------------------------------------------
def test_candidates_depend_only_on_the_players_own_view():
    """Two games that differ only in what player 0 cannot see give it the same slots."""
    first = Game("machiavelli:deal=5", ["a", "b"], deals=[_deal(
        ["5S", "9H", "9D", "3C", "4C"], ["6H", "7H", "8H", "QS", "QD"])])
    second = Game("machiavelli:deal=5", ["a", "b"], deals=[_deal(
        ["QH", "QC", "2S", "JD", "8S"], ["5C", "9S", "AH", "10D", "7C"])])
    one, two = candidates(first.observation(0)), candidates(second.observation(0))
    assert one.actions == two.actions
    assert one.mask.tolist() == two.mask.tolist()


def test_every_unmasked_slot_is_a_move_the_referee_accepts_and_the_list_is_deterministic():
    for name, players in VARIANTS:
        episode = Episode(name, players, 3)
        rng = np.random.default_rng(1)
        for _ in range(6):
            if episode.over:
                break
            found = episode.candidates()
            again = candidates(episode.observation(episode.current))
            assert found.actions == again.actions, name
            assert found.mask.shape == (NUM_ACTIONS,) and found.mask.any()
            for slot in found.legal():
                action = found.action(slot)
                if isinstance(action, Play):
                    assert not episode.game.check_play(action), (name, slot, action)
                    assert action.knock == (slot >= FIRST_KNOCK)
            episode.step(int(rng.choice(found.legal())))


def test_a_masked_slot_is_refused_with_a_value_error():
    episode = Episode("machiavelli", 2, 0)
    masked = [slot for slot in range(NUM_ACTIONS) if not episode.candidates().mask[slot]]
    assert masked
    with pytest.raises(IllegalSlotError):
        episode.step(masked[0])
    assert isinstance(IllegalSlotError("x"), ValueError)


def test_the_first_play_slot_is_the_solvers_biggest_play():
    from solver.api import solve_position

    episode = Episode("machiavelli", 2, 5)
    _walk(episode, 2, 6)
    observation = episode.observation(episode.current)
    play = episode.candidates().actions[FIRST_PLAY]
    best = solve_position(observation.position())
    assert (play is None) == (not best.played)
    if play is not None:
        assert len(play.played) == len(best.played)


# -- the observation tensor ---------------------------------------------------------------------
def test_the_tensor_holds_the_hand_the_sizes_and_the_stock():
    episode = Episode("machiavelli", 3, 7)
    _walk(episode, 0, 5)
    seat = 1
    observation = episode.observation(seat)
    tensor = episode.tensor(seat)
    assert tensor.shape == (tensor_size(),) and tensor.dtype == np.float32
    assert tensor[:CARD_SLOTS].sum() == len(observation.hand)
    sizes = tensor[2 * CARD_SLOTS:2 * CARD_SLOTS + 3].tolist()
    assert sizes == [observation.hand_sizes[(seat + k) % 3] for k in range(3)]
    assert tensor[2 * CARD_SLOTS + 5] == observation.stock_size
    assert tensor.shape == (683,)
    longer = encode(observation, episode.current, None, history=64)
    assert longer.shape == (tensor_size(64),)


# -- the levels the arena seats -------------------------------------------------------------
def test_ismcts_is_a_level_and_a_missing_extra_is_one_clear_error(monkeypatch):
    assert LEVELS[-1] == "ismcts"
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'machiavelli-engine\[rl\]'"):
        check_level("ismcts")
    assert isinstance(MissingExtraError("x"), ValueError)


def test_the_tournament_command_without_the_extra_exits_2_with_one_line(monkeypatch, capsys):
    from bots.app.cli import main

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    code = main(["tournament", "--bots", "ismcts,greedy", "--games", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "rl" in err and "Traceback" not in err


# -- with the rl extra: the libraries' own checkers ----------------------------------------------
def _quiet():
    return contextlib.redirect_stdout(io.StringIO())


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_pettingzoo_api_and_seed_tests_pass(variant, players):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from bots.envs import machiavelli_v0

    with warnings.catch_warnings(), _quiet():
        warnings.simplefilter("ignore")
        api_test(machiavelli_v0.env(variant=variant, players=players, render_mode="ansi"),
                 num_cycles=8)
        seed_test(lambda: machiavelli_v0.env(variant=variant, players=players), num_cycles=8)


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_gymnasium_check_env_passes(variant, players):
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import bots.envs  # noqa: F401  (registers the id)

    env = gymnasium.make("machiavelli/Machiavelli-v0", variant=variant,
                         opponents=["greedy"] * (players - 1), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_openspiel_random_simulation_test_passes(variant, players):
    pyspiel = pytest.importorskip("pyspiel")
    import bots.envs  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_machiavelli", {"variant": variant, "players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_seeded_pettingzoo_episode_replays_to_the_same_record_byte_for_byte():
    pytest.importorskip("pettingzoo")
    from bots.envs import machiavelli_v0

    def play(seed: int) -> str:
        env = machiavelli_v0.env(variant="guadalupe", players=3)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            observation, _, done, cut, _ = env.last()
            action = None if done or cut else int(rng.choice(
                np.flatnonzero(observation["action_mask"])))
            env.step(action)
        record = env.unwrapped.record()
        assert replay(record) is None
        return dumps(record)

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_a_seeded_gymnasium_episode_replays_to_the_same_record_byte_for_byte():
    gymnasium = pytest.importorskip("gymnasium")
    import bots.envs  # noqa: F401

    def play(seed: int) -> tuple[str, float]:
        env = gymnasium.make("machiavelli/Machiavelli-v0", variant="machiavelli",
                             opponents=["random", "greedy"])
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = cut = False
        reward = 0.0
        while not (done or cut):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, done, cut, info = env.step(action)
        record = env.unwrapped.record()
        assert replay(record) is None
        return dumps(record), reward

    first = play(4)
    assert first == play(4) and first[1] in (-1.0, 1.0)


def test_resampling_keeps_the_players_information_state():
    pyspiel = pytest.importorskip("pyspiel")
    import bots.envs  # noqa: F401

    game = pyspiel.load_game("python_machiavelli", {"variant": "carousel", "players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_rebuilt_view_is_the_view_it_was_built_from():
    pytest.importorskip("pyspiel")
    from bots.envs.rebuild import rebuild

    for name, players in VARIANTS:
        episode = Episode(name, players, 9)
        _walk(episode, 9, 12)
        if episode.over:
            continue
        seat = episode.current
        view = episode.observation(seat)
        rebuilt = rebuild(view, np.random.default_rng(0)).observation(seat)
        assert sorted(rebuilt.hand) == sorted(view.hand), name
        assert (rebuilt.table, rebuilt.hand_sizes, rebuilt.stock_size, rebuilt.history,
                rebuilt.legal) == (view.table, view.hand_sizes, view.stock_size, view.history,
                                   view.legal), name
        assert candidates(rebuilt).actions == candidates(view).actions


def test_the_ismcts_level_plays_the_move_openspiel_search_chose(monkeypatch):
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts

    from bots.envs.levels import make_level

    chosen: list[int] = []
    step = ismcts.ISMCTSBot.step

    def spy(self, state):
        chosen.append(int(step(self, state)))
        return chosen[-1]

    monkeypatch.setattr(ismcts.ISMCTSBot, "step", spy)
    game = Game("machiavelli:deal=6", ["ismcts", "greedy"], 2)
    bot = make_level("ismcts", 1)
    bot.simulations = 4  # type: ignore[attr-defined]
    observation = game.observation(game.current_player)
    action = bot.choose(observation)
    found = candidates(observation, 7)
    if len(found.legal()) > 1:
        assert chosen and found.action(chosen[-1]) == action
    assert not isinstance(action, Play) or not game.check_play(action)


def test_a_tournament_seats_ismcts_against_greedy():
    pytest.importorskip("pyspiel")
    from bots.arena.tournament import run_tournament

    summary = run_tournament("machiavelli:deal=3", ["ismcts", "greedy"], 1, 2, seed=3)
    assert [row["name"] for row in summary["bots"]] == ["ismcts", "greedy"]
    assert all(row["games"] == 1 for row in summary["bots"])


def test_the_slots_are_fixed_in_number():
    assert NUM_ACTIONS == FIRST_PLAY + 2 * PLAY_SLOTS and DRAW == 0
