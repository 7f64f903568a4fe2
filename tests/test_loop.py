"""The one play loop (bots/arena/loop.py): forced-play hints, one error type naming the seat,
one move cap that always raises, and selfplay, tournaments and sessions all going through it."""

from __future__ import annotations

import pickle

import pytest

import bots.app.session as session_module
import bots.arena.selfplay as selfplay_module
import bots.arena.tournament as tournament_module
from bots.app.session import PERSON, Session
from bots.arena import loop
from bots.arena.loop import BotError, run_bots
from bots.arena.selfplay import play_game
from bots.arena.tournament import play_one
from bots.players import make_bot
from bots.referee.actions import Action, Draw, Play
from bots.referee.game import Game
from bots.referee.observation import Observation


class Cheat:
    """Plays its first hand card alone as a new group: never a legal play."""

    name = "cheat"

    def choose(self, observation: Observation) -> Action:
        card = observation.playable_hand[0]
        return Play((card,), observation.table + ((card,),))


class Drawer:
    """Always draws, and notes the seat and forced-play hint of every observation it gets."""

    name = "drawer"

    def __init__(self, seen: list[tuple[int, str | None]]) -> None:
        self.seen = seen

    def choose(self, observation: Observation) -> Action:
        self.seen.append((observation.player, observation.hint))
        return Draw()


def cheats(*_args, **_kwargs) -> Cheat:
    return Cheat()


def test_an_illegal_bot_move_is_a_bot_error_naming_seat_variant_seed_and_reason():
    game = Game("machiavelli", ["greedy-1", "cheat-2"], 4)
    bots = [make_bot("greedy", 1), Cheat()]
    with pytest.raises(BotError) as caught:
        run_bots(game, bots)
    error = caught.value
    assert (error.seat, error.variant, error.seed) == ("cheat-2", "machiavelli", 4)
    assert error.reason.startswith("proposed an illegal move: ")
    assert str(error).startswith("cheat-2 in machiavelli seed 4: proposed an illegal move")
    assert isinstance(error, RuntimeError)


def test_the_move_cap_raises_a_bot_error_and_is_never_a_finished_game():
    game = Game("machiavelli", ["a", "b"], 2)
    with pytest.raises(BotError, match="made 5 proposals without the game ending") as caught:
        run_bots(game, [make_bot("greedy", 0), make_bot("greedy", 1)], max_actions=5)
    assert not game.over
    assert caught.value.seat == game.players[game.current_player]


def test_a_game_that_ends_within_the_cap_returns():
    game = Game("machiavelli", ["a", "b"], 2)
    assert run_bots(game, [make_bot("greedy", 0), make_bot("greedy", 1)]) is None
    assert game.over


def test_a_bot_error_survives_a_process_pool():
    error = pickle.loads(pickle.dumps(BotError("random-2", "carousel", 9, "why")))
    assert (error.seat, error.variant, error.seed, error.reason) == \
        ("random-2", "carousel", 9, "why")


def test_a_forced_play_refusal_passes_its_hint_to_the_same_seat_and_asking_again_insists():
    game = Game("manipulation", ["a", "b"], 0)
    seen: list[tuple[int, str | None]] = []
    chosen, applied = [], []
    run_bots(game, [Drawer(seen), Drawer(seen)],
             on_choose=lambda seat, ms: chosen.append(seat),
             on_action=lambda seat, action: applied.append(seat),
             until=lambda g: len(g.actions) >= 12)
    hinted = [i for i, (_, hint) in enumerate(seen) if hint is not None]
    assert hinted, "no draw was refused: pick a deal where a play exists"
    assert len(chosen) == len(seen) == len(applied) + len(hinted)  # each refusal once
    for i in hinted:  # the refused seat is asked again with the hint, and its draw goes through
        assert seen[i][0] == seen[i - 1][0] and seen[i - 1][1] is None
        assert i + 1 == len(seen) or seen[i + 1][1] is None


def test_the_loop_stops_when_told_and_hands_back_the_pending_hint():
    game = Game("machiavelli", ["a", "b", "c"], 1)
    bots = [make_bot("greedy", seed) for seed in range(3)]
    start = game.current_player
    stop = (start + 2) % 3
    assert run_bots(game, bots, until=lambda g: g.current_player == stop, hint="x") is None
    assert game.current_player == stop and len(game.actions) >= 2
    assert run_bots(game, bots, until=lambda g: True, hint="kept") == "kept"


def test_move_times_cover_every_choose_call_and_nothing_else():
    game = Game("machiavelli", ["a", "b"], 3)
    times: list[float] = []
    applied: list[int] = []
    run_bots(game, [make_bot("random", 0), make_bot("random", 1)],
             on_choose=lambda seat, ms: times.append(ms),
             on_action=lambda seat, action: applied.append(seat))
    assert len(times) == len(applied) and all(ms >= 0 for ms in times)


@pytest.mark.parametrize("caller", ["selfplay", "tournament", "session"])
def test_every_caller_raises_the_loops_bot_error_for_an_illegal_move(caller, monkeypatch):
    # the arena seats levels through bots.envs.levels.make_level; sessions use make_bot
    for module, factory in ((selfplay_module, "make_level"), (tournament_module, "make_level"),
                            (session_module, "make_bot")):
        monkeypatch.setattr(module, factory, cheats)
    with pytest.raises(BotError, match="proposed an illegal move") as caught:
        _run(caller)
    assert caught.value.variant == "machiavelli" and caught.value.seed == 7


@pytest.mark.parametrize("caller", ["selfplay", "tournament", "session"])
def test_every_caller_shares_the_one_move_cap(caller, monkeypatch):
    monkeypatch.setattr(loop, "MAX_ACTIONS", 3)
    with pytest.raises(BotError, match="made 3 proposals without the game ending"):
        _run(caller)


def test_a_session_runs_bots_until_a_person_is_to_move_with_an_event_per_action():
    session = Session("machiavelli", ["greedy", PERSON, "random"], 7)
    seen = []
    events = session.run_bots(seen.append)
    assert session.person_to_move() and events and events == seen
    assert [event.player for event in events] == [a["player"] for a in session.game.actions]


def _run(caller: str) -> None:
    """One seeded game of machiavelli, seed 7, through ``caller``."""
    if caller == "selfplay":
        play_game("machiavelli", ["greedy"], 2, 7)
    elif caller == "tournament":
        play_one("machiavelli", ["greedy", "random"], 2, 7, 0)
    else:
        Session("machiavelli", ["greedy", "random"], 7).run_bots()
