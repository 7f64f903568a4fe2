"""A stripped-down game for rollouts: card-count arrays straight into the kernel.

The expert bot imagines how the game may go on after each candidate move. The referee is too
thorough for that (it validates every move, builds observations, keeps a record), so this
simulator keeps only what a rollout needs: hands as count arrays (and each hand's jokers), the
table as card-code groups (a table joker by its code ``52 + card``), the stock, whose turn it
is, and two policies played by the kernel: ``greedy`` (the biggest play, else draw) and
``hoard`` (draw until the whole hand can go out at once, where the turn allows drawing
instead of playing). Each kernel search is capped, so a huge hoarded hand cannot stall a
rollout. It models every variant's turn (play or draw, draw first, forced play, guadalupe,
carousel's draws, knock and last turns: docs/rules.md §4) and opening (§6), and plays jokers
(§8): a search with a joker in the hand or on the table goes to ``solver.api`` (the kernel's
joker branches, the rules of §8), the others straight to the counts-level kernel. It never
judges legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bots.players.work import solve_counts, solve_jokers
from bots.referee.scoring import KNOCK_LIMIT, card_value
from solver.cards import CARDS, CODE_CARDS, CODES, Card
from solver.constants import N_CARD_TYPES
from solver.errors import SolverError
from solver.limit import Limit
from solver.position import Position
from solver.problem import NONE
from solver.variants import Variant

CARD_VALUES: dict[str, tuple[np.ndarray, int]] = {}
SEARCH_LIMIT = Limit(work=4_000)  # per kernel search in a rollout (a few ms at worst)
GREEDY, HOARD = 0, 1
STOCK_JOKER = N_CARD_TYPES  # a joker in the imagined stock (real cards are 0..51)
CAROUSEL_DRAWS = 3  # draws a carousel turn may take before it ends without a play (§4)


def values(variant: Variant) -> tuple[np.ndarray, int]:
    """Penalty value of each card index under the variant's scoring, and of a joker."""
    key = variant.scoring
    if key not in CARD_VALUES:
        CARD_VALUES[key] = (np.array([card_value(variant, c) for c in CARDS], dtype=np.int64),
                            card_value(variant, CODE_CARDS[-1]))
    return CARD_VALUES[key]


@dataclass
class Play:
    """One play in an imagined world: the real cards played (counts), the jokers played from
    the hand, and the whole new table as code groups."""

    played: np.ndarray
    jokers: int
    table: list[tuple[int, ...]]

    @classmethod
    def of(cls, played: Sequence[Card], table: Sequence[Sequence[Card]]) -> Play:
        """A play given as cards (a solver's answer, a referee's move): real cards counted,
        hand jokers apart, the table in codes."""
        counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
        jokers = 0
        for card in played:
            if card.joker:
                jokers += 1
            else:
                counts[card.index] += 1
        return cls(counts, jokers, [tuple(card.code for card in group) for group in table])

    @property
    def size(self) -> int:
        return int(self.played.sum()) + self.jokers


@dataclass
class SimState:
    """One imagined world: every hand known, the stock in some order."""

    variant: Variant
    hands: list[np.ndarray]
    table: list[tuple[int, ...]]
    stock: list[int]
    current: int
    opened: list[bool]
    policies: list[int] | None = None
    jokers: list[int] = field(default_factory=list)
    """Jokers in each hand (empty: none anywhere)."""
    passes: int = 0
    winner: int | None = None
    over: bool = False
    last_turns: int = -1
    """Carousel: turns left once the stock is empty (-1: not started), docs/rules.md §4."""

    def __post_init__(self) -> None:
        if not self.jokers:
            self.jokers = [0] * len(self.hands)

    def cards_held(self, player: int) -> int:
        return int(self.hands[player].sum()) + self.jokers[player]

    def hand_value(self, player: int) -> int:
        worth, joker = values(self.variant)
        return int(self.hands[player] @ worth) + joker * self.jokers[player]

    def table_counts(self) -> tuple[np.ndarray, np.ndarray]:
        need = np.zeros(N_CARD_TYPES, dtype=np.int64)
        free = np.zeros(N_CARD_TYPES, dtype=np.int64)
        for group in self.table:
            for code in group:
                (free if len(group) == 1 else need)[code] += 1
        return need, free

    def best_play(self, player: int, hand: np.ndarray, jokers: int = 0) -> Play | None:
        """The kernel's biggest play for ``player`` from ``hand`` (and ``jokers``)."""
        variant = self.variant
        if jokers or (variant.jokers and (
                any(code >= N_CARD_TYPES for group in self.table for code in group)
                or (variant.opening_run and not self.opened[player]))):
            return self._joker_play(player, hand, jokers)
        opening = not self.opened[player]
        hand_only = opening and variant.opening_points > 0
        need, free = (NONE, NONE) if hand_only else self.table_counts()
        part = solve_counts(need, hand, singles=free, ace=variant.ace, decks=variant.decks,
                            opening_points=variant.opening_points if hand_only else 0,
                            limit=SEARCH_LIMIT)
        if part.score <= 0:
            return None
        rows = part.groups.tolist()
        groups = [tuple(rows[g][:n]) for g, n in enumerate(part.lengths.tolist())]
        if hand_only:
            return Play(part.played, 0, self.table + groups)
        used = np.bincount(part.groups[part.groups >= 0], minlength=N_CARD_TYPES)
        lone = free - np.clip(used - need - part.played, 0, None)
        groups += [(int(c),) for c in np.flatnonzero(lone > 0) for _ in range(int(lone[c]))]
        return Play(part.played, 0, groups)

    def _joker_play(self, player: int, hand: np.ndarray, jokers: int) -> Play | None:
        """The biggest play through ``solver.api`` (a joker in the hand or on the table, or
        vatican's opening run): the kernel's joker branches or CP-SAT, capped alike."""
        cards = [CARDS[c] for c in np.repeat(np.arange(N_CARD_TYPES), hand).tolist()]
        cards += [CODE_CARDS[-1]] * jokers
        position = Position(tuple(tuple(CODES[c] for c in group) for group in self.table),
                            tuple(cards), self.variant, self.opened[player])
        try:
            answer = solve_jokers(position, SEARCH_LIMIT)
        except (SolverError, ValueError):  # an imagined table the rules cannot split
            return None
        return Play.of(answer.played, answer.table) if answer.played else None

    def play(self, player: int, move: Play) -> None:
        self.hands[player] = self.hands[player] - move.played
        self.jokers[player] -= move.jokers
        self.table = move.table
        self.opened[player] = True
        self.passes = 0
        if self.cards_held(player) == 0:
            self.winner = player
            self.over = True

    def draw(self, player: int, count: int = 1) -> int:
        taken = 0
        while self.stock and taken < count:
            card = self.stock.pop()
            if card == STOCK_JOKER:
                self.jokers[player] += 1
            else:
                self.hands[player][card] += 1
            taken += 1
        if self.variant.end_on_empty_stock and not self.stock:
            self.over = True
        return taken

    def deficit(self, player: int) -> int:
        """Cards ``player`` could not place with their biggest play now."""
        best = self.best_play(player, self.hands[player], self.jokers[player])
        return self.cards_held(player) - (0 if best is None else best.size)

    def greedy_play(self, player: int, locked: np.ndarray | None = None) -> bool:
        """Play the biggest play (``locked`` cards held back); whether there was one."""
        hand = self.hands[player] if locked is None else self.hands[player] - locked
        best = self.best_play(player, hand, self.jokers[player])
        if best is None:
            return False
        self.play(player, best)
        return True

    def step(self) -> None:
        """One turn of the current player, by their policy (greedy unless told)."""
        player = self.current
        turn = self.variant.turn
        if turn == "carousel":
            moved = self._carousel_turn(player)
        elif self._hoarding(player) and self.stock:
            self._hoard_turn(player)
            moved = True
        elif turn == "forced":
            moved = self._forced_turn(player)
        else:
            moved = self._play_or_draw_turn(player)
        self.passes = 0 if moved else self.passes + 1
        if self.passes >= len(self.hands):
            self.over = True
        self.current = (player + 1) % len(self.hands)

    def _hoarding(self, player: int) -> bool:
        variant = self.variant
        return self.policies is not None and self.policies[player] == HOARD \
            and variant.turn in ("play_or_draw", "guadalupe") and not variant.draw_first

    def _hoard_turn(self, player: int) -> None:
        """Draw until the whole hand can go out at once (then go out)."""
        best = self.best_play(player, self.hands[player], self.jokers[player])
        if best is not None and best.size == self.cards_held(player):
            self.play(player, best)
        else:
            self.draw(player, 2 if self.variant.turn == "guadalupe" else 1)

    def _forced_turn(self, player: int) -> bool:
        """Manipulation and shanghai: play if able, else draw until able (§4)."""
        moved = False
        while True:
            if self.greedy_play(player):
                return True
            if not self.draw(player):
                return moved
            moved = True

    def _play_or_draw_turn(self, player: int) -> bool:
        """Play or draw (guadalupe: play then draw one, or draw two; ``draw_first``: a
        compulsory draw whose card waits a turn)."""
        variant = self.variant
        moved = False
        locked = None
        if variant.draw_first and self.stock:
            before = self.hands[player].copy()
            self.draw(player)
            moved = True
            locked = self.hands[player] - before
        if self.greedy_play(player, locked):
            if variant.turn == "guadalupe" and not self.over:
                self.draw(player)
            return True
        if not variant.draw_first and self.draw(player, 2 if variant.turn == "guadalupe"
                                                else 1):
            return True
        return moved

    def _carousel_turn(self, player: int) -> bool:
        """Carousel (docs/rules.md §4): draw, then play or draw again, up to three draws; a
        play after one or two draws that leaves five points or less knocks and ends the hand.
        Once the stock is empty every player gets one last turn to play or pass."""
        if self.last_turns >= 0:
            self.last_turns -= 1
            moved = self.greedy_play(player)
            if self.last_turns <= 0:
                self.over = True
            return moved
        for draws in range(1, CAROUSEL_DRAWS + 1):
            drew = self.draw(player)
            if self.greedy_play(player):
                if not self.over and drew and draws < CAROUSEL_DRAWS and \
                        self.hand_value(player) <= KNOCK_LIMIT:
                    self.over = True  # a knock: the lowest hand value wins
                break
            if not self.stock:
                break
        if not self.stock and not self.over:
            self.last_turns = len(self.hands)
        return True

    def outcome(self, player: int) -> float:
        """1 for a win, 0 for a loss, a share for a tie. An unfinished game is judged by how
        far each player is from going out: the cards their biggest play would leave."""
        if self.winner is not None:
            return 1.0 if self.winner == player else 0.0
        if self.over:
            points = [self.hand_value(i) for i in range(len(self.hands))]
            best = min(points)
            if points[player] != best:
                return 0.0
            return 1.0 / sum(p == best for p in points)
        mine = self.deficit(player)
        rival = min(self.deficit(i) for i in range(len(self.hands)) if i != player)
        return 1.0 / (1.0 + np.exp((mine - rival) / 1.5))
