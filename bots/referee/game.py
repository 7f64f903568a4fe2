"""The referee: deals, runs the turns of every variant, checks every move, scores, records.

It never trusts a player: a proposed play is judged by ``solver.validate.play_problems``
(the rules of docs/rules.md §2-§8) plus the turn rules here, and an illegal proposal raises
``IllegalMoveError`` with the reason, leaving the game exactly as it was. The state machine
follows OpenSpiel's shape: ``current_player``, ``legal_types``, ``apply``, ``is_over``,
``results``; ``observation(player)`` is what that player may see.

Rulings where the book is terse (the rest are in ``solver.validate`` and ``bots.referee.scoring``):

- A turn that ends without a play and without drawing is a pass; when every player in turn
  order has passed in a row, the hand is deadlocked.
- docs/rules.md §3, stock empty: ``draw`` on an empty stock is a pass, whatever the turn
  (a pass is always open then, carousel's last turns and the rest of a ``draw_first`` turn
  included): it is logged as ``pass`` and checked as one (a forced-play hint may refuse it
  once; a touched turn refuses it). ``legal_types`` lists ``pass`` there, not ``draw``.
- docs/rules.md §3, ``incomplete=penalty``: a play proposal that the rules refuse although it
  is made of cards the player may play and holds the table's cards plus those (a table the
  player could lay out: the groups, the jokers or the opening are wrong) *touches* the turn.
  A malformed proposal (a card not held, or drawn this turn under ``draw_first``, table cards
  missing or from nowhere, an unnamed joker) costs nothing, nor does a legal play refused only
  for a knock. Once touched, the turn ends only with a legal play or a give-up: draw and pass
  are refused, and ``legal_types`` is ``play`` and ``give_up``. The give-up draws 3 cards
  (fewer if the stock is short) in place of the turn's draw: cards drawn earlier in the turn
  (``draw_first``) count among the three. A give-up is legal without a touch too (the player
  may have tried on the physical table), so a record replays without logging attempts; a
  saved game in progress keeps the touch as ``"touched": true``. ``reset`` and ``bga`` are
  unchanged (bga's give-up draws 1 and ends the turn).
- ``draw_first``: the draw at the start of the turn is compulsory while the stock lasts; the
  drawn card may not be played that turn; the player then plays or passes.
- Carousel: after drawing, the player must play or draw again (up to three draws; the third
  ends the turn); with the stock empty the player may pass.
- Tahiti / helpers: singles are dealt from the top of the stock, skipping jokers.
- Forced play (manipulation, shanghai) with ``forced_check=hint``: a draw or pass while a play
  exists is refused once with a hint; the refusal resets after each draw.
- A match stops after 100 hands whatever its rules say (a guard, never reached in practice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bots.referee.actions import Action, Draw, GiveUp, Pass, Play
from bots.referee.judge import TableCodes, Verdict, quick_verdict, table_codes
from bots.referee.observation import Observation
from bots.referee.scoring import (
    KNOCK_LIMIT,
    HandResult,
    can_knock,
    final_totals,
    knock_open,
    match_over,
    match_winners,
    score_hand,
)
from solver.cards import CARDS, Card
from solver.codes import CARD_OF_CODE as CODE_CARDS
from solver.codes import TEXTS, codes_of, physical_counts
from solver.constants import ACE_CODES
from solver.position import Position
from solver.validate import JOKER, card_problems, physical, play_problems
from solver.variants import Variant

MAX_HANDS = 100
PENALTY_DRAW = 3
CAROUSEL_MAX_DRAWS = 3


class IllegalMoveError(ValueError):
    """A proposal the rules do not allow; the game is unchanged. ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ForcedPlayHint(IllegalMoveError):
    """Forced play: a draw or pass refused once because a play exists (``hint`` shows one).
    Asking again goes through."""

    def __init__(self, reason: str, hint: str) -> None:
        super().__init__(reason)
        self.hint = hint


@dataclass
class Turn:
    """What has happened in the current turn."""

    draws: int = 0
    drawn: list[Card] = field(default_factory=list)
    refused: bool = False
    last_turn: bool = False  # carousel's final turns: play or pass, no draw, no knock
    touched: bool = False  # incomplete=penalty: an illegal play was proposed (play or give up)


def build_deck(variant: Variant, players: int) -> list[Card]:
    """The pack for a game of ``players``, in a fixed order (shuffled by the caller)."""
    decks, jokers = variant.decks_for(players)
    return [card for _ in range(decks) for card in CARDS] + [JOKER] * jokers


class Game:
    """A match of one variant between named players, from a seed (or recorded deals)."""

    def __init__(self, variant: Variant | str, players: Sequence[str], seed: int = 0,
                 deals: Sequence[dict] | None = None) -> None:
        self.variant = Variant.parse(variant)
        self.players = list(players)
        n = len(self.players)
        if not self.variant.min_players <= n <= self.variant.max_players:
            raise ValueError(f"{self.variant.name} is for {self.variant.min_players}-"
                             f"{self.variant.max_players} players, not {n}")
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self._recorded_deals = list(deals) if deals is not None else None
        self.totals = [0] * n
        self.hands_won = [0] * n
        self.hand_results: list[HandResult] = []
        self.hand_records: list[dict] = []
        self.dealer = int(self.rng.integers(n)) if deals is None else int(deals[0]["dealer"])
        self.over = False
        self._start_hand()

    # -- dealing --------------------------------------------------------------------------
    def _start_hand(self) -> None:
        n = len(self.players)
        number = len(self.hand_records)
        if self._recorded_deals is not None:
            deal = self._recorded_deals[number]
            self.dealer = int(deal["dealer"])
            self.hands = [[Card.parse(c) for c in hand] for hand in deal["hands"]]
            self.table = [tuple(Card.parse(c) for c in group) for group in deal["table"]]
            self.stock = [Card.parse(c) for c in deal["stock"]]
        else:
            if number:
                self.dealer = (self.dealer + 1) % n
            deck = build_deck(self.variant, n)
            order = self.rng.permutation(len(deck))
            pack = [deck[i] for i in order]
            self.hands = [[] for _ in range(n)]
            at = 0
            for packet in _packets(self.variant):
                for step in range(1, n + 1):
                    seat = (self.dealer + step) % n
                    self.hands[seat].extend(pack[at:at + packet])
                    at += packet
            stock = pack[at:]
            self.table = []
            for _ in range(self.variant.singles):
                pick = next(i for i, card in enumerate(stock) if not card.joker)
                self.table.append((stock.pop(pick),))
            self.stock = stock
        self.opened = [not (self.variant.opening_points or self.variant.opening_run)] * n
        self.current = (self.dealer + 1) % n
        self.turn = Turn()
        self.passes_in_row = 0
        self.last_drawer: int | None = None
        self.last_turns_left: list[int] = []
        self.hand_over = False
        self.actions: list[dict] = []
        self._seen: list[list[dict[str, Any]]] = [[] for _ in range(n)]  # public, per seat
        self._codes: tuple[tuple, TableCodes] | None = None  # see table_codes
        self.deal_record = {
            "dealer": self.dealer,
            "hands": [_texts(hand) for hand in self.hands],
            "table": [_texts(group) for group in self.table],
            "stock": _texts(self.stock),
        }
        self._deck = physical_counts(codes_of(self._all_cards()))

    def _all_cards(self) -> list[Card]:
        return [c for hand in self.hands for c in hand] + [c for g in self.table for c in g] + \
            list(self.stock)

    # -- what may happen now -------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.current

    def legal_types(self) -> set[str]:
        """The kinds of action the current player may propose now."""
        if self.over:
            return set()
        if self.turn.touched:
            return {"play", "give_up"}
        types = set()
        if self._may_play():
            types.add("play")
            if self.variant.incomplete in ("penalty", "bga"):
                types.add("give_up")
        if self._may_draw():
            types.add("draw")
        if self._may_pass():
            types.add("pass")
        return types

    def _may_draw(self) -> bool:
        if not self.stock or self.turn.last_turn:
            return False
        turn = self.variant.turn
        if turn == "forced":
            return True
        if turn == "carousel":
            return self.turn.draws < CAROUSEL_MAX_DRAWS
        return self.turn.draws == 0

    def _may_play(self) -> bool:
        turn = self.variant.turn
        if turn == "carousel":
            return self.turn.last_turn or self.turn.draws >= 1 or not self.stock
        if turn == "play_or_draw" and self.variant.draw_first:
            return self.turn.draws == 1 or not self.stock
        return turn == "forced" or self.turn.draws == 0

    def _may_pass(self) -> bool:
        turn = self.variant.turn
        if turn == "carousel":
            return self.turn.last_turn or not self.stock
        if turn == "play_or_draw" and self.variant.draw_first and self.turn.draws == 1:
            return True
        return not self.stock

    def can_knock(self, hand_after: Sequence[Card]) -> bool:
        """Carousel: may the player to move knock after a play that leaves ``hand_after``?
        (``bots.referee.scoring.can_knock`` holds the rule.)"""
        return can_knock(self.variant, self.turn.draws, self.turn.last_turn, hand_after)

    def position(self, player: int | None = None) -> Position:
        """The position the player faces now (cards drawn this turn that may not be played
        are left out of the hand)."""
        player = self.current if player is None else player
        return Position(tuple(self.table), self._playable(player), self.variant,
                        self.opened[player])

    def _playable(self, player: int) -> tuple[Card, ...]:
        """The player's hand without the cards drawn this turn that may not be played."""
        hand = list(self.hands[player])
        if player == self.current and self._drawn_locked():
            for card in self.turn.drawn:
                hand.remove(card)
        return tuple(hand)

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        codes = self.table_codes()
        return codes.rows, codes.row_lengths

    def table_codes(self) -> TableCodes:
        """The table in codes (``bots.referee.judge.TableCodes``): kept from the judge's
        verdict on the last play while the table holds that play's groups (compared group by
        group, so a table changed in place is read again), else built from the cards."""
        table = tuple(self.table)
        if self._codes is None or self._codes[0] != table:
            self._codes = (table, table_codes(table, ACE_CODES[self.variant.ace]))
        return self._codes[1]

    def observation(self, player: int, hint: str | None = None) -> Observation:
        """What ``player`` may see now, as plain data holding no reference to the game;
        ``hint`` is the forced-play hint of a refused draw or pass, for the player to move."""
        mine = self.current == player
        open_ = mine and knock_open(self.variant, self.turn.draws, self.turn.last_turn)
        return Observation(
            variant=self.variant, player=player, players=tuple(self.players),
            hand=tuple(self.hands[player]), table=tuple(self.table),
            hand_sizes=tuple(map(len, self.hands)), stock_size=len(self.stock),
            history=tuple(self._seen[player]),
            legal=frozenset(self.legal_types() if mine else ()),
            draws_this_turn=self.turn.draws if mine else 0,
            drawn_this_turn=tuple(self.turn.drawn) if mine else (),
            playable_hand=self._playable(player), opened=tuple(self.opened),
            last_turn=self.turn.last_turn if mine else False,
            can_knock_value=KNOCK_LIMIT if open_ else -1,
            totals=tuple(self.totals), hand_number=len(self.hand_records), dealer=self.dealer,
            hint=hint, table_rows=self._rows(),
        )

    def _drawn_locked(self) -> bool:
        """A drawn card cannot be played in the same turn (machiavelli family's draw_first)."""
        return self.variant.turn == "play_or_draw"

    # -- applying moves ------------------------------------------------------------------
    def apply(self, action: Action) -> Action:
        """Carry out ``action`` for the current player, or raise ``IllegalMoveError``.
        Returns what was done: ``action``, or ``Pass()`` for a draw from an empty stock."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Draw):
            return self._draw()
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, GiveUp):
            self._give_up()
        else:
            raise IllegalMoveError(f"not an action: {action!r}")
        return action

    def check_play(self, action: Play) -> list[str]:
        """Every reason ``action`` is not a legal play now (empty: legal). It changes
        nothing: ``propose`` is the check that counts as touching the table."""
        if self._passed(action) is not None:
            return []
        return self._malformed(action) or self._rule_problems(action)

    def propose(self, action: Play) -> None:
        """Judge a play proposal as the player to move making it: raise ``IllegalMoveError``
        if it is not legal now, and under ``incomplete=penalty`` mark the turn touched when
        it is a table the player could lay out (docs/rules.md §3; see the rulings above)."""
        self._verdict(action)

    def _verdict(self, action: Play) -> Verdict | None:
        """``propose``: raise ``IllegalMoveError`` unless ``action`` is legal now; the judge's
        ``Verdict`` when its fast check passed the play (None: the validator did)."""
        verdict = self._passed(action)
        if verdict is not None:
            return verdict
        malformed = self._malformed(action)
        if malformed:
            raise IllegalMoveError(malformed[0])
        reasons = self._rule_problems(action)
        if reasons and self.variant.incomplete == "penalty" and not self._knock_only(action):
            self.turn.touched = True
            raise IllegalMoveError(f"{reasons[0]} (you have touched the table: finish a "
                                   f"legal play, or give up and draw {self.give_up_cost()} "
                                   "penalty cards)")
        if reasons:
            raise IllegalMoveError(reasons[0])
        return None

    def _passed(self, action: Play) -> Verdict | None:
        """The judge's fast check (``bots.referee.judge``): a ``Verdict`` only for a play legal
        now, knock included; None leaves the decision to ``_malformed`` and
        ``_rule_problems``."""
        if not isinstance(action, Play) or not action.played or not self._may_play():
            return None
        verdict = quick_verdict(self.position(), action.played, action.table, self.table_codes())
        if verdict is None or (action.knock and not self._may_knock(action)):
            return None
        return verdict

    def _malformed(self, action: Play) -> list[str]:
        """Why ``action`` is no play at all now: costs nothing, whatever the rules."""
        if not self._may_play():
            return ["you may not play now"]
        if not action.played:
            return ["a play adds at least one card from the hand"]
        if self._drawn_locked() and self.turn.drawn:
            free = Counter(self.hands[self.current]) - Counter(self.turn.drawn)
            if Counter(physical(c) for c in action.played) - free:
                return ["a card drawn this turn cannot be played this turn"]
        return card_problems(self.position(), action.played, action.table)

    def _rule_problems(self, action: Play) -> list[str]:
        """Why a well-formed ``action`` breaks the rules (groups, jokers, opening, knock)."""
        reasons = play_problems(self.position(), action.played, action.table)
        if not reasons and action.knock and not self._may_knock(action):
            reasons.append("you may knock only after one or two draws, with 5 points or less "
                           "left, and not in the last turns")
        return reasons

    def _may_knock(self, action: Play) -> bool:
        return self.can_knock(_after(self.hands[self.current], action.played))

    def _knock_only(self, action: Play) -> bool:
        """The play is legal but for its knock (refusing the knock touches nothing)."""
        return action.knock and not play_problems(self.position(), action.played, action.table)

    def _play(self, action: Play) -> None:
        verdict = self._verdict(action)
        player = self.current
        self.hands[player] = _after(self.hands[player], action.played)
        self.table = [tuple(group) for group in action.table]
        if verdict is not None:
            self._codes = (tuple(self.table), verdict.table)
            played, table = verdict.played_texts(), verdict.table.texts()
        else:
            played, table = _texts(action.played), [_texts(group) for group in self.table]
        self.opened[player] = True
        self.passes_in_row = 0
        self._log(player, "play", played=played, table=table)
        if not self.hands[player]:
            self._end_hand("out", player)
            return
        if action.knock:
            self._log(player, "knock")
            self._end_hand("knock", player)
            return
        if self.variant.turn == "guadalupe" and self.stock:
            self._take(player, 1, "draw")
            if self._stock_ended():
                return
        self._end_turn(passed=False)

    def _draw(self) -> Action:
        self._refuse_if_touched("draw")
        if not self.stock:  # docs/rules.md §3: a draw from an empty stock is a pass
            self._pass("draw")
            return Pass()
        if not self._may_draw():
            raise IllegalMoveError("you may not draw now")
        self._forced_check("draw")
        player = self.current
        count = 2 if self.variant.turn == "guadalupe" else 1
        drawn = self._take(player, count, "draw")
        self.turn.draws += 1
        self.turn.drawn.extend(drawn)
        self.turn.refused = False
        self.passes_in_row = 0
        if self._stock_ended():
            return Draw()
        if self.variant.turn == "carousel" and not self.stock and self.last_drawer is None:
            self.last_drawer = player
        turn = self.variant.turn
        if turn in ("guadalupe",) or (turn == "play_or_draw" and not self.variant.draw_first):
            self._end_turn(passed=False)
        elif turn == "carousel" and self.turn.draws == CAROUSEL_MAX_DRAWS:
            self._end_turn(passed=False)
        return Draw()

    def _pass(self, asked: str = "pass") -> None:
        self._refuse_if_touched(asked)
        if not self._may_pass():
            raise IllegalMoveError("you may not pass now: " + (
                "draw a card" if self._may_draw() else "play"))
        self._forced_check(asked)
        self._log(self.current, "pass")
        drew = self.turn.draws > 0
        self._end_turn(passed=not drew)

    def _refuse_if_touched(self, kind: str) -> None:
        if self.turn.touched:
            raise IllegalMoveError(
                f"you may not {kind} now: you proposed a play that leaves the table invalid, "
                f"so finish a legal play or give up (draw {self.give_up_cost()} penalty "
                "cards; docs/rules.md §3)")

    def _penalty_count(self) -> int:
        """Cards a ``penalty`` give-up draws now: 3 less those drawn earlier this turn."""
        return max(PENALTY_DRAW - len(self.turn.drawn), 0)

    def give_up_cost(self) -> int:
        """Cards a give-up would draw now (fewer if the stock is short; 0 under ``reset``)."""
        rule = self.variant.incomplete
        count = self._penalty_count() if rule == "penalty" else int(rule == "bga")
        return min(count, len(self.stock))

    def _give_up(self) -> None:
        """An incomplete move: ``reset`` costs nothing (the turn goes on); ``penalty`` draws
        three cards in place of the turn's draw and ends the turn; ``bga`` draws one."""
        rule = self.variant.incomplete
        if not self._may_play():
            raise IllegalMoveError("you may not give up a play now")
        if rule not in ("penalty", "bga"):
            return
        drawn = self._take(self.current, self.give_up_cost(), "penalty")
        if self._stock_ended():
            return
        self._end_turn(passed=not (drawn or self.turn.drawn))

    def _forced_check(self, kind: str) -> None:
        """Forced play with a hint: refuse a draw or pass once while a play exists."""
        if self.variant.turn != "forced" or self.variant.forced_check != "hint" or \
                self.turn.refused:
            return
        from solver.hint import hint_position

        hint = hint_position(self.position())
        if hint.solution.score > 0:
            self.turn.refused = True
            raise ForcedPlayHint(f"you can play, so you may not {kind} (ask again to insist)",
                                 hint.short())

    def _take(self, player: int, count: int, kind: str) -> list[Card]:
        drawn = self.stock[:count]
        del self.stock[:count]
        self.hands[player].extend(drawn)
        self._log(player, kind, drawn=_texts(drawn))
        return drawn

    def _stock_ended(self) -> bool:
        """bga: the game ends as soon as the stock is empty."""
        if self.variant.end_on_empty_stock and not self.stock and not self.hand_over:
            self._end_hand("stock", None)
            return True
        return False

    def _end_turn(self, passed: bool) -> None:
        n = len(self.players)
        self.passes_in_row = self.passes_in_row + 1 if passed else 0
        if self.variant.turn != "carousel" and self.passes_in_row >= n:
            self._end_hand("deadlock", None)
            return
        if self.variant.turn == "carousel":
            if self.turn.last_turn:
                if not self.last_turns_left:
                    self._end_hand("last_turns", None)
                    return
            elif self.last_drawer is not None:
                drawer = self.last_drawer
                self.last_turns_left = [(drawer + step) % n for step in range(1, n + 1)]
            if self.last_turns_left:
                self.current = self.last_turns_left.pop(0)
                self.turn = Turn(last_turn=True)
                return
        self.current = (self.current + 1) % n
        self.turn = Turn()

    def _end_hand(self, ended: str, player: int | None) -> None:
        result = score_hand(self.variant, self.hands, ended, player)
        self.hand_over = True
        self.hand_results.append(result)
        for i, score in enumerate(result.scores):
            self.totals[i] += score
            self.hands_won[i] += int(result.winners[i])
        self.hand_records.append({
            "deal": self.deal_record,
            "actions": self.actions,
            "result": {"ended": ended,
                       "players": [{"score": s, "winner": w}
                                   for s, w in zip(result.scores, result.winners, strict=True)]},
        })
        if match_over(self.variant, self.totals, len(self.hand_records)) or \
                len(self.hand_records) >= MAX_HANDS or (
                self._recorded_deals is not None
                and len(self.hand_records) >= len(self._recorded_deals)):
            self.over = True
            return
        self._start_hand()

    def _log(self, player: int, kind: str, **fields: Any) -> None:
        """Log an action, and what each seat may see of it (``public_action``)."""
        action = {"player": player, "type": kind, **fields}
        self.actions.append(action)
        for seat, seen in enumerate(self._seen):
            seen.append(public_action(action, seat))

    # -- results, records, invariants ----------------------------------------------------
    def results(self) -> list[dict]:
        """Per player: final ``score`` (with end-of-match bonuses) and ``winner``."""
        totals = final_totals(self.variant, self.totals, self.hands_won)
        winners = match_winners(self.variant, totals)
        return [{"player": name, "score": score, "winner": won}
                for name, score, won in zip(self.players, totals, winners, strict=True)]

    def record(self) -> dict:
        """The game record (see ``bots.referee.record``)."""
        first = self.hand_records[0] if self.hand_records else {
            "deal": self.deal_record, "actions": self.actions}
        record = {
            "variant": self.variant.name,
            "options": self.variant.changed_options(),
            "seed": self.seed,
            "players": list(self.players),
            "deal": first["deal"],
            "actions": first["actions"],
            "result": self.results() if self.over else None,
        }
        if len(self.hand_records) > 1:
            record["hands"] = self.hand_records
        return record

    def record_so_far(self) -> dict:
        """The record, with the hand in progress (a saved game; see ``bots.referee.record.resume``),
        and ``"touched": true`` when the player to move has touched the table."""
        record = self.record()
        if not self.over and self.hand_records:
            record["hands"] = self.hand_records + [{"deal": self.deal_record,
                                                    "actions": self.actions}]
        if not self.over and self.turn.touched:
            record["touched"] = True
        return record

    def touch(self) -> None:
        """Mark the turn in progress touched (resuming a saved game that was)."""
        if self.over or self.variant.incomplete != "penalty" or not self._may_play():
            raise IllegalMoveError("only a turn that may play under incomplete=penalty can be "
                                   "touched")
        self.turn.touched = True

    def check_invariants(self) -> None:
        """Raise AssertionError if a card was lost or duplicated or a table group is invalid."""
        if self.hand_over and self.over:
            return
        now = physical_counts(codes_of(self._all_cards()))
        if not np.array_equal(now, self._deck):
            now_cards, deck = Counter(physical(c) for c in self._all_cards()), _counter(self._deck)
            raise AssertionError(f"cards changed: {dict((now_cards - deck) + (deck - now_cards))}")
        position = Position(tuple(self.table), (), self.variant)
        if quick_verdict(position, (), self.table) is None:
            problems = play_problems(position, (), self.table)
            assert not problems, problems[0]


def public_action(action: dict[str, Any], player: int) -> dict[str, Any]:
    """A logged action as ``player`` may see it: a draw or penalty says how many cards it
    took (``count``), and which ones (``drawn``) only when ``player`` took them."""
    if "drawn" not in action:
        return dict(action)
    event = {key: value for key, value in action.items() if key != "drawn"}
    event["count"] = len(action["drawn"])
    if action["player"] == player:
        event["drawn"] = list(action["drawn"])
    return event


def _after(hand: Sequence[Card], played: Sequence[Card]) -> list[Card]:
    """The hand without the played cards (jokers as ``*``): each removes the first card of
    the hand equal to it, found by code."""
    left, codes = list(hand), codes_of(hand)
    for code in codes_of([physical(card) for card in played]):
        at = codes.index(code)
        del left[at], codes[at]
    return left


def _texts(cards: Sequence[Card]) -> list[str]:
    """``str`` of each card, by lookup (``solver.codes.TEXTS``)."""
    return [TEXTS[code] for code in codes_of(cards)]


def _counter(counts: np.ndarray) -> Counter:
    """Per-code counts (``solver.codes.physical_counts``) as a Counter of cards."""
    return Counter({CODE_CARDS[code]: int(n) for code, n in enumerate(counts.tolist()) if n})


def _packets(variant: Variant) -> list[int]:
    """Packet sizes of the deal, round by round: one card at a time unless the variant says."""
    if variant.deal_pattern == (1,):
        return [1] * variant.deal
    return list(variant.deal_pattern)
