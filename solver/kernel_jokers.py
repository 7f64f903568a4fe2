"""The joker rules of docs/rules.md §8 as kernel inputs: a few branches, per-cell limits.

The kernel (``solver.kernel``) places jokers as extra copies of the cards they name, counted
per cell (a rank of a suit) and bounded per cell, and keeps its automaton tables per process:
nothing here costs more than building a few arrays. A rule that depends on a choice the
player makes (free a joker or not, which way a locked group grows) becomes one branch per
choice, each an ordinary search; the best branch wins.

- Every joker rule (§8): a table joker named X keeps its name unless the new table holds a
  real X for it: ``DEFICIT`` asks for jokers named X plus hand X played, at least the jokers
  named X less the table's real X (in tahiti the real X must come from the hand). With no
  real X to be had, the joker simply is a copy of X (``FIXED``, counted among ``need``).
- Vatican (§8.2): a joker named X with no real X on the table is *held*. One branch frees it
  (a hand X is played: ``forced``); the other keeps the hand's X out and holds it beside a
  neighbour. All the X on the new table are then jokers, so per cell it is enough that a set
  joker stays a set card (``SET_MIN``: any set of three suits or more then holds one of its
  two or three old partners), a run joker a run card (``RUN_MIN``) whose run goes on from
  the rank below, or into the rank above, when only that neighbour lay next to it
  (``REQUIRED`` at that rank, an input of the run automaton: the runs that go on), an ace
  joker a low or a high ace as it lay (``RUN_MIN`` / ``HIGH_MIN`` at the ace). Hall's
  condition for matching held jokers to runs reduces to these counts.
- Tahiti (§8.3): each locked group either survives, grown from the hand by one of its
  extensions (it then leaves the search: its cards are placed, the hand cards it takes are
  played), or is freed by a real X from the hand: its cards go back into the search and its
  joker must take a new name (``JOKER_MAX`` 0 for X, the hand's X forced). One joker per group
  holds by construction while at most one joker is free to move (``why_not`` says when not).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

import numpy as np

from solver.constants import JOKER_CODE, N_CARD_TYPES, N_RANKS, N_SUITS
from solver.groups import slot_index, slot_window
from solver.problem import Problem, read_only

# Rows of ``KernelInput.joker_rows``: the kernel's cell fields DEFICIT .. JOKER_MAX in order.
DEFICIT, FIXED, REQUIRED, SET_MIN, RUN_MIN, HIGH_MIN, JOKER_MAX, KEPT = range(8)
N_JOKER_ROWS = 8
ANY_NUMBER = 1 << 20  # JOKER_MAX for a card any number of jokers may name
MOST_REQUIRED = 2  # runs that must go on at one rank: vatican has two jokers


@dataclass
class KernelInput:
    """One search: card counts, joker counts and per-card joker rows for ``solver.kernel``,
    and what the branch settled before the search (tahiti's surviving locked groups)."""

    need: np.ndarray
    free: np.ndarray
    hand: np.ndarray
    forced: np.ndarray
    joker_rows: np.ndarray
    wild: int
    """Jokers the search may place: table jokers not fixed to their name, and the hand's."""
    mandatory: int
    """Of ``wild``, the table jokers (all must be placed)."""
    table_all: int
    """Table jokers the search places, fixed ones included."""
    labelled: int
    """Table jokers in play (``table_all`` and the kept groups' ones): the cheapest this
    many joker names on the new table score nothing (docs/rules.md §8, ``solver.api``)."""
    kept: tuple[tuple[int, ...], ...] = ()
    """Locked groups that survive as they are or grown (card codes in reading order)."""
    kept_played: np.ndarray | None = None
    """Hand cards the kept groups took."""

    def __post_init__(self) -> None:
        # One argument type per kernel: every array reaching numba is read-only (read_only).
        for name in ("need", "free", "hand", "forced", "joker_rows"):
            setattr(self, name, read_only(getattr(self, name)))

    @property
    def most_required(self) -> int:
        return int(self.joker_rows[REQUIRED].max(initial=0))


def why_not(problem: Problem) -> str:
    """What joker rule of ``problem`` the kernel cannot answer exactly ('' when none)."""
    if problem.joker_rule == "vatican":
        for name, neighbours in problem.stuck:
            if _held_kind(name, neighbours) == "unknown":
                return "a vatican joker held beside a neighbour it cannot reach"
    if free_jokers(problem) > 1:
        return TWO_FREE_JOKERS
    if problem.table_jokers and problem.hand_jokers and not _rank_weights(problem.weight):
        return "table jokers with weights that are not the same for every card of a rank"
    return ""


TWO_FREE_JOKERS = "tahiti's one joker per group with two or more jokers free to move"


def free_jokers(problem: Problem) -> int:
    """Tahiti: the most jokers one play may move freely (the hand's, and those the hand's real
    cards may free from locked groups); 0 in the other variants, whose groups may hold any
    number of jokers."""
    if problem.joker_rule != "tahiti":
        return 0
    names = {name for name, _ in problem.locked}
    return problem.hand_jokers + sum(
        min(sum(1 for n, _ in problem.locked if n == name), int(problem.hand[name]))
        for name in names)


def _rank_weights(weight: np.ndarray) -> bool:
    """True when a card's weight depends on its rank only and never falls from the ace up to
    the king (as ``cards`` and ``points`` do): then the cheapest joker names come first."""
    by_rank = weight.reshape(N_SUITS, N_RANKS)
    return bool((by_rank == by_rank[0]).all() and (np.diff(by_rank[0]) >= 0).all())


# The last problem asked about and its branches (``why_not`` and ``solve`` ask 2-3 times): a
# tuple swapped whole, so threads sharing the module never see half of one.
_last: list[tuple[Problem | None, list[KernelInput]]] = [(None, [])]


def inputs(problem: Problem) -> list[KernelInput]:
    """The branches of ``problem``: one ``KernelInput`` each (the best answer of any is the
    answer); empty when no branch is possible."""
    asked, branches = _last[0]
    if asked is not problem:
        if problem.joker_rule == "tahiti" and problem.locked:
            branches = _tahiti_branches(problem)
        elif problem.joker_rule == "vatican" and problem.stuck:
            branches = _vatican_branches(problem)
        else:
            branches = [_free_jokers(problem, problem.hand, problem.forced)]
        _last[0] = (problem, branches)
    return branches


def _free_jokers(problem: Problem, hand: np.ndarray, forced: np.ndarray) -> KernelInput:
    """Jokers that may go anywhere under their name, or be renamed with a real card."""
    names = problem.joker_names
    supply = problem.table_real if problem.joker_rule != "tahiti" else 0 * names
    fixed = np.maximum(names - supply - hand, 0)
    rows = np.zeros((N_JOKER_ROWS, N_CARD_TYPES), dtype=np.int64)
    rows[DEFICIT] = np.maximum(names - supply - fixed, 0)
    rows[FIXED] = fixed
    rows[JOKER_MAX] = ANY_NUMBER
    mandatory = problem.table_jokers - int(fixed.sum())
    return KernelInput(problem.need + fixed, problem.free, hand, forced, rows,
                       mandatory + problem.hand_jokers, mandatory, problem.table_jokers,
                       problem.table_jokers)


# -- vatican -----------------------------------------------------------------------------

def _held_kind(name: int, neighbours: tuple[int, ...]) -> str:
    """How a held joker named ``name`` keeps a neighbour (``neighbours``: the kinds that lay
    next to it): ``set``, ``low``/``high`` (an ace), ``below``/``above`` (the only run
    neighbour), ``run`` (both), or ``unknown``."""
    rank = name % N_RANKS
    suit_base = name - rank
    if all(c % N_RANKS == rank for c in neighbours):
        return "set"
    below = suit_base + (rank - 1) % N_RANKS  # for the two: the low ace
    above = suit_base + (rank + 1) % N_RANKS  # for the king: the high ace
    if rank == 0:
        return "low" if neighbours == (above,) else "high" if neighbours == (suit_base + 12,) \
            else "unknown"
    has_below, has_above = below in neighbours, above in neighbours
    if has_below and has_above:
        return "run"
    if has_below:
        return "below"
    if has_above and rank < N_RANKS - 1:
        return "above"
    return "unknown"


def _vatican_branches(problem: Problem) -> list[KernelInput]:
    """Per held name with a real card in the hand, free it or hold it: every combination."""
    names = sorted({name for name, _ in problem.stuck})
    choices = [(True, False) if problem.hand[name] > 0 else (False,) for name in names]
    branches = []
    for frees in product(*choices):
        hand = problem.hand.copy()
        forced = problem.forced.copy()
        for name, free in zip(names, frees, strict=True):
            if free:
                forced[name] = max(forced[name], 1)
            else:
                hand[name] = 0
        branch = _free_jokers(problem, hand, forced)
        held = [(name, _held_kind(name, neighbours)) for name, neighbours in problem.stuck
                if hand[name] == 0 and forced[name] == 0]
        branch = replace(branch, joker_rows=_hold(branch.joker_rows, held))
        if branch.most_required <= MOST_REQUIRED:
            branches.append(branch)
    return branches


def _hold(rows: np.ndarray, held: list[tuple[int, str]]) -> np.ndarray:
    """The per-card rows with the held jokers ``(name, kind)`` written in. At a rank, the runs
    going on from the rank below must serve both the jokers held beside the card below and
    those held beside the card above the rank below (one run can serve one of each)."""
    rows = rows.copy()
    below = np.zeros(N_CARD_TYPES, dtype=np.int64)
    above = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for name, kind in held:
        row = {"set": SET_MIN, "high": HIGH_MIN}.get(kind, RUN_MIN)
        rows[row, name] += 1
        if kind == "below":
            below[name] += 1
        elif kind == "above":
            above[name + 1] += 1  # never the king: ``_held_kind``
    rows[REQUIRED] = np.maximum(below, above)
    return rows


# -- tahiti ------------------------------------------------------------------------------

def _tahiti_branches(problem: Problem) -> list[KernelInput]:
    """Every way the locked groups may go: each survives (as it lies or grown from the hand)
    or, when the hand holds its joker's real card, is freed."""
    options = []
    for name, codes in problem.locked:
        grown = [("keep", option) for option in extensions(problem, codes)]
        options.append(grown + ([("free", codes)] if problem.hand[name] > 0 else []))
    branches = []
    for picks in product(*options):
        branch = _tahiti_branch(problem, picks)
        if branch is not None:
            branches.append(branch)
    return branches


def _tahiti_branch(problem: Problem,
                   picks: tuple[tuple[str, tuple[int, ...]], ...]) -> KernelInput | None:
    """The search left once each locked group's fate is ``picks`` (None: not enough hand
    cards for it)."""
    need = problem.need.copy()
    hand = problem.hand.copy()
    forced = problem.forced.copy()
    kept_played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    rows = np.zeros((N_JOKER_ROWS, N_CARD_TYPES), dtype=np.int64)
    rows[JOKER_MAX] = ANY_NUMBER
    kept, freed = [], 0
    for (name, codes), (fate, option) in zip(problem.locked, picks, strict=True):
        if fate == "free":
            freed += 1
            forced[name] += 1  # one real card from the hand per joker freed
            rows[JOKER_MAX, name] = 0  # the jokers named X left are the kept groups' own
            continue
        kept.append(option)
        rows[KEPT, name] += 1
        for code in codes:
            if code < JOKER_CODE:
                need[code] -= 1
        for code in set(option) - set(codes):
            hand[code] -= 1
            kept_played[code] += 1
    forced = np.maximum(forced - kept_played, 0)  # a hand X grown onto a group frees too
    if (hand < 0).any() or (forced > hand).any():
        return None
    return KernelInput(need, problem.free, hand, forced, rows, freed + problem.hand_jokers,
                       freed, freed, problem.table_jokers, tuple(kept), kept_played)


def extensions(problem: Problem, codes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The locked group ``codes`` (reading order) and every way to grow it from the hand:
    a set by its missing suit, a run at either end (docs/rules.md §8.3)."""
    options = [codes]
    real = [c % JOKER_CODE for c in codes]
    if len({c % N_RANKS for c in real}) == 1:
        missing = set(range(N_SUITS)) - {c // N_RANKS for c in real}
        for suit in sorted(missing) if len(codes) == 3 else ():
            card = suit * N_RANKS + real[0] % N_RANKS
            if problem.hand[card] > 0:
                options.append(tuple(sorted(codes + (card,), key=lambda c: c % JOKER_CODE)))
        return options
    suit = real[0] // N_RANKS
    window = slot_window(problem.ace)
    first = real[0] % N_RANKS
    last = first + len(codes) - 1
    below = _hand_reach(problem, suit, range(first - 1, window.start - 1, -1))
    above = _hand_reach(problem, suit, range(last + 1, window.stop))
    for left in range(len(below) + 1):
        for right in range(len(above) + 1):
            if (left or right) and len(codes) + left + right <= N_RANKS:
                options.append(tuple(reversed(below[:left])) + codes + tuple(above[:right]))
    return options


def _hand_reach(problem: Problem, suit: int, slots: range) -> list[int]:
    """Card indices on ``slots`` of ``suit``, in order, while the hand holds each of them."""
    cards = []
    for slot in slots:
        card = slot_index(suit, slot)
        if problem.hand[card] == 0:
            break
        cards.append(card)
    return cards


def one_joker_per_group(groups: np.ndarray, lengths: np.ndarray) -> bool:
    """Mark the jokers of decoded ``groups`` (card codes, jokers ``JOKER_CODE + c``) so that no
    group holds two, if the copies allow it: a joker naming ``c`` may stand on any copy of
    ``c`` (copies are alike). Rewrites ``groups`` in place; False when no marking does."""
    rows = [list(groups[g, :n]) for g, n in enumerate(lengths.tolist())]
    jokers = [code - JOKER_CODE for row in rows for code in row if code >= JOKER_CODE]
    holder: dict[int, int] = {}  # group -> index in ``jokers`` of the joker it holds

    def place(i: int, seen: set[int]) -> bool:
        """Augmenting path: put joker ``i`` on a group holding its name, moving others."""
        for g, row in enumerate(rows):
            if g in seen or not any(code % JOKER_CODE == jokers[i] for code in row):
                continue
            seen.add(g)
            if g not in holder or place(holder[g], seen):
                holder[g] = i
                return True
        return False

    if not all(place(i, set()) for i in range(len(jokers))):
        return False
    for g, row in enumerate(rows):
        name = jokers[holder[g]] if g in holder else -1
        marked = False
        for j, code in enumerate(row):
            real = code % JOKER_CODE
            groups[g, j] = real + JOKER_CODE if real == name and not marked else real
            marked = marked or real == name
    return True


def shared_joker_names(groups: np.ndarray, lengths: np.ndarray) -> list[int]:
    """The names of the jokers in decoded ``groups`` that share a group with another joker
    (sorted, each once): where a play with jokers as copies breaks tahiti's one joker per
    group. ``one_joker_per_group`` fails only when some group holds two."""
    names: set[int] = set()
    for g, n in enumerate(lengths.tolist()):
        jokers = [int(c) - JOKER_CODE for c in groups[g, :n] if c >= JOKER_CODE]
        if len(jokers) >= 2:
            names.update(jokers)
    return sorted(names)


def barred(branch: KernelInput, names: tuple[int, ...]) -> KernelInput:
    """``branch`` with no free joker naming any card of ``names`` (``JOKER_MAX`` 0): a
    restriction, so its plays are some of the branch's."""
    rows = branch.joker_rows.copy()
    rows[JOKER_MAX, list(names)] = 0
    return replace(branch, joker_rows=rows)


def with_one_more_joker(groups: np.ndarray, lengths: np.ndarray, ace: str,
                        barred_names: frozenset[int] = frozenset(),
                        ) -> tuple[np.ndarray, np.ndarray] | None:
    """Decoded ``groups`` with one more joker laid in a group that holds none (tahiti's one
    joker per group then still holds, docs/rules.md §8.3): a set of three takes it under its
    missing suit, a run at either end within the ace mode's slots. The joker never takes a
    name in ``barred_names``: a joker named like a locked group's joker counts as that joker
    keeping its name, which keeps its group locked (§8.3), so a play that freed it would no
    longer be one. Names compare as card indices (``_card_named``): a run's joker is coded
    by its slot (``slot_index``: an ace-high slot is the ace's index), a locked group's by
    its card. None when no group can."""
    window = slot_window(ace)
    barred_cards = {_card_named(name) for name in barred_names}
    for g, n in enumerate(lengths.tolist()):
        row = [int(c) for c in groups[g, :n]]
        if any(c >= JOKER_CODE for c in row):
            continue
        grown = next((option for option in _grown_by_a_joker(row, window)
                      if _joker_name(option) not in barred_cards), None)
        if grown is not None:
            rows = [list(map(int, groups[i, :m])) for i, m in enumerate(lengths.tolist())]
            rows[g] = grown
            new_groups = np.full((len(rows), max(groups.shape[1], len(grown))), -1,
                                 dtype=np.int64)
            for i, cards in enumerate(rows):
                new_groups[i, : len(cards)] = cards
            return new_groups, np.array([len(r) for r in rows], dtype=np.int64)
    return None


def _joker_name(row: list[int]) -> int:
    """The card index the one joker of ``row`` (card codes, jokers ``JOKER_CODE + c``)
    names."""
    return next(_card_named(c) for c in row if c >= JOKER_CODE)


def _card_named(code: int) -> int:
    """The card index 0..51 a card code names, a card's own or a joker's ``JOKER_CODE + c``
    (``solver.constants``): the one form joker names are compared in."""
    return code % JOKER_CODE


def _grown_by_a_joker(row: list[int], window: range) -> list[list[int]]:
    """Every way to grow the joker-free group ``row`` (card indices in reading order) by one
    joker: a set of three by its missing suit, a run below its first slot or above its
    last (empty when none)."""
    ranks = {c % N_RANKS for c in row}
    if len(ranks) == 1:  # a set
        suits = {c // N_RANKS for c in row}
        if len(row) != 3:
            return []
        return [sorted(row + [JOKER_CODE + suit * N_RANKS + row[0] % N_RANKS],
                       key=lambda c: c % JOKER_CODE)
                for suit in sorted(set(range(N_SUITS)) - suits)]
    suit, first = row[0] // N_RANKS, row[0] % N_RANKS  # a run: slots first .. first + n - 1
    last = first + len(row) - 1
    if len(row) >= N_RANKS:
        return []
    options = []
    if first - 1 in window:
        options.append([JOKER_CODE + slot_index(suit, first - 1)] + row)
    if last + 1 in window:
        options.append(row + [JOKER_CODE + slot_index(suit, last + 1)])
    return options

