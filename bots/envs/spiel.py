"""OpenSpiel game ``python_machiavelli``: one hand of any variant, with chance for the cards.

``pyspiel.load_game("python_machiavelli", {"variant": "machiavelli", "players": 2})`` (after
``import bots.envs``; ``plays`` < 16 keeps only the first play generators of
``bots.envs.actions``, a cheaper game for searches). The game is one hand (one deal) of the
variant (docs/environments.md):

- Chance deals every card: each hand card, then the variant's face-up singles (docs/rules.md
  §5), one chance node per card, the outcome being the card (``Card.index``, 52 a joker) with
  probability proportional to its copies left. The last seat deals, so seat 0 moves first.
- Players choose slots of ``bots.envs.actions``. A move that takes cards from the stock (a
  draw, guadalupe's draw after a play, a give-up's penalty) is followed by one chance node per
  card taken, choosing it among the cards left in the stock; then the referee applies it.
- The referee (``bots.referee.game.Game``) judges every move, so the rules are exactly those of
  the other front ends. Returns are +1 for each winner of the hand, -1 for the others.

``resample_from_infostate`` deals the cards the player cannot see (the other hands and the
stock) again at random, keeping every hand's size and the player's own cards: what OpenSpiel's
IS-MCTS needs. Observations and information states come from ``bots.envs.encoding``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from bots.envs.actions import NUM_ACTIONS, PLAY_SLOTS, Candidates, candidates, describe
from bots.envs.encoding import (
    CARD_SLOTS,
    HISTORY,
    INFO_HISTORY,
    JOKER_SLOT,
    card_counts,
    encode,
    tensor_size,
)
from bots.envs.episode import MAX_STEPS, apply_insisting
from bots.envs.options import env_variant
from bots.referee.actions import Action, Draw, GiveUp, Play
from bots.referee.game import Game, build_deck
from solver import arguments
from solver.cards import CARDS, Card
from solver.validate import JOKER
from solver.variants import Variant

SHORT_NAME = "python_machiavelli"
DEFAULTS = {"variant": "machiavelli", "players": 2, "plays": PLAY_SLOTS}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Machiavelli (one hand of any variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def slot_card(slot: int) -> Card:
    """The physical card of a chance outcome: ``Card.index`` order, 52 the joker."""
    return JOKER if slot == JOKER_SLOT else CARDS[slot]


def card_slot(card: Card) -> int:
    return JOKER_SLOT if card.joker else card.index


class MachiavelliGame(pyspiel.Game):
    """The game for one variant and number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.rules = env_variant(str(params["variant"]), int(params["players"]))
        self.seats = int(params["players"])
        self.plays = arguments.integer("plays", params["plays"], 1, PLAY_SLOTS)
        decks, jokers = self.rules.decks_for(self.seats)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=CARD_SLOTS,
            num_players=self.seats, min_utility=-1.0, max_utility=1.0, utility_sum=None,
            max_game_length=MAX_STEPS + 2 * (52 * decks + jokers))
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> MachiavelliState:
        return MachiavelliState(self, self.rules, self.seats, self.plays)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(INFO_HISTORY if perfect_recall else HISTORY, perfect_recall)


class MachiavelliState(pyspiel.State):
    """A hand in progress: the deal so far, or the referee's game and any pending draw."""

    def __init__(self, game: MachiavelliGame, rules: Variant, seats: int,
                 plays: int = PLAY_SLOTS) -> None:
        super().__init__(game)
        self.rules, self.seats, self.plays = rules, seats, plays
        self.pack = np.zeros(CARD_SLOTS, dtype=np.int64)
        for card in build_deck(rules, seats):
            self.pack[card_slot(card)] += 1
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.singles: list[Card] = []
        self.referee: Game | None = None
        self.pending: Action | None = None
        self.need = 0  # stock cards chance must still choose for the pending move
        self.on_top = 0  # stock cards already chosen, at the top of the referee's stock
        self.taken: list[str] = []  # stock cards taken so far, in order (the record's stock)
        self.steps = 0
        self._found: tuple[int, Candidates] | None = None

    def attach(self, referee: Game) -> None:
        """Start from ``referee``'s game in progress instead of a deal (the ``ismcts`` bot's
        rebuilt view, ``bots.envs.rebuild``)."""
        self.referee = referee
        self.hands = [list(hand) for hand in referee.hands]
        self.pack[:] = card_counts(referee.stock)
        self.taken = []
        self._found = None

    # -- whose turn ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.referee is None or self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        return self.referee.current_player

    def is_terminal(self) -> bool:
        return self.referee is not None and (self.referee.over or self.steps >= MAX_STEPS)

    def returns(self) -> list[float]:
        if self.referee is None or not self.referee.over:
            return [0.0] * self.seats
        return [1.0 if row["winner"] else -1.0 for row in self.referee.results()]

    # -- chance ---------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts = self._chance_counts()
        total = counts.sum()
        return [(int(slot), float(counts[slot] / total)) for slot in np.flatnonzero(counts)]

    def _chance_counts(self) -> np.ndarray:
        if self.referee is None:
            counts = self.pack.copy()
            if self._dealing_singles():
                counts[JOKER_SLOT] = 0  # singles skip jokers (docs/rules.md §5)
            return counts
        return card_counts(self.referee.stock[self.on_top:]).astype(np.int64)

    def _dealing_singles(self) -> bool:
        return sum(map(len, self.hands)) == self.rules.deal * self.seats

    # -- moves ----------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        return self.candidates().legal()

    def candidates(self) -> Candidates:
        """The slots of the player to move (computed once per decision)."""
        assert self.referee is not None
        if self._found is None or self._found[0] != self.steps:
            observation = self.referee.observation(self.referee.current_player)
            self._found = (self.steps, candidates(observation, self.plays))
        return self._found[1]

    def _apply_action(self, action: int) -> None:
        if self.referee is None:
            self._deal(slot_card(action))
        elif self.pending is not None:
            self._choose_stock_card(slot_card(action))
        else:
            move = self.candidates().action(action)
            self.need = self._stock_need(move)
            self.pending = move
            if self.need == 0:
                self._carry_out()

    def _deal(self, card: Card) -> None:
        self.pack[card_slot(card)] -= 1
        if self._dealing_singles():
            self.singles.append(card)
        else:
            self.hands[sum(map(len, self.hands)) // self.rules.deal].append(card)
        if len(self.singles) == self.rules.singles and self._dealing_singles():
            stock = [slot_card(slot) for slot in range(CARD_SLOTS)
                     for _ in range(int(self.pack[slot]))]
            deal = {"dealer": self.seats - 1,
                    "hands": [[str(c) for c in hand] for hand in self.hands],
                    "table": [[str(c)] for c in self.singles],
                    "stock": [str(c) for c in stock]}
            names = [f"player_{i}" for i in range(self.seats)]
            self.referee = Game(self.rules, names, 0, deals=[deal])

    def _stock_need(self, move: Action) -> int:
        """How many stock cards ``move`` takes (the referee's own counts)."""
        game = self.referee
        assert game is not None
        if isinstance(move, Draw):
            return min(2 if self.rules.turn == "guadalupe" else 1, len(game.stock))
        if isinstance(move, GiveUp):
            return game.give_up_cost()
        if isinstance(move, Play) and self.rules.turn == "guadalupe" and game.stock:
            return int(len(game.hands[game.current_player]) > len(move.played))
        return 0

    def _choose_stock_card(self, card: Card) -> None:
        game = self.referee
        assert game is not None
        at = game.stock.index(card, self.on_top)
        game.stock.insert(self.on_top, game.stock.pop(at))
        self.on_top += 1
        self.need -= 1
        if self.need == 0:
            self._carry_out()

    def _carry_out(self) -> None:
        game, move = self.referee, self.pending
        assert game is not None and move is not None
        before = list(game.stock)
        apply_insisting(game, move)
        gone = len(before) - len(game.stock)
        self.taken += [str(c) for c in before[:gone]]
        game.deal_record["stock"] = self.taken + [str(c) for c in game.stock]
        self.on_top = max(0, self.on_top - gone)
        self.pending = None
        self.steps += 1

    # -- text -------------------------------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {slot_card(action)}"
        return describe(action)

    def __str__(self) -> str:
        if self.referee is None:
            return "dealing: " + " / ".join(" ".join(map(str, h)) for h in self.hands)
        from bots.envs.options import render_text

        return render_text(self.referee)

    # -- imperfect information ----------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see (other
        hands, the stock) dealt again at random, every hand keeping its size."""
        clone = self.clone()
        game = clone.referee
        if game is None or clone.pending is not None:
            return clone
        rng = np.random.default_rng(int(probability_sampler() * 2**62))
        others = [seat for seat in range(self.seats) if seat != player_id]
        pool = [c for seat in others for c in game.hands[seat]] + list(game.stock)
        order = rng.permutation(len(pool))
        shuffled = [pool[i] for i in order]
        for seat in others:
            size = len(game.hands[seat])
            game.hands[seat], shuffled = shuffled[:size], shuffled[size:]
        game.stock = sorted(shuffled, key=card_slot)
        mover = game.current_player
        if mover != player_id and game.turn.drawn:
            game.turn.drawn = list(game.hands[mover][:len(game.turn.drawn)])
        if mover != player_id:
            clone._found = None  # the mover's candidates depend on its resampled hand
        clone.on_top = 0
        return clone

    def observation_of(self, player: int, history: int, full: bool) -> tuple[np.ndarray, str]:
        """``player``'s tensor and text (``bots.envs.encoding``)."""
        if self.referee is None:
            tensor = np.zeros(tensor_size(history), dtype=np.float32)
            tensor[:CARD_SLOTS] = card_counts(self.hands[player])
            return tensor, "dealing; hand " + " ".join(map(str, self.hands[player]))
        from bots.envs.encoding import describe as describe_view

        observation = self.referee.observation(player)
        mover = -1 if self.is_terminal() else self.referee.current_player
        found = self.candidates() if player == mover and self.pending is None else None
        text = describe_view(observation, mover, full)
        if self.pending is not None:
            text += f"\npending {self.pending}" if player == mover else "\npending"
        return encode(observation, mover, found, history), text


class Observer:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, history: int, perfect_recall: bool) -> None:
        self.history, self.perfect_recall = history, perfect_recall
        self.tensor = np.zeros(tensor_size(history), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MachiavelliState, player: int) -> None:
        self.tensor[:] = state.observation_of(player, self.history, self.perfect_recall)[0]

    def string_from(self, state: MachiavelliState, player: int) -> str:
        return state.observation_of(player, self.history, self.perfect_recall)[1]


def register() -> None:
    """Register ``python_machiavelli`` with OpenSpiel (once)."""
    if SHORT_NAME not in {game.short_name for game in pyspiel.registered_games()}:
        pyspiel.register_game(GAME_TYPE, MachiavelliGame)
