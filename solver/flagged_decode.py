"""Groups from a search with tahiti's flagged automaton: jokers laid one per group.

The kernel's moves count, per rank and suit, the copies used, the set cards ``k``, the high
aces ``g``, the jokers ``z`` and, of those, the jokers in sets ``zs`` (``solver.kernel``'s
``moves[t, s]``). The flagged automaton (``solver.automaton_flagged``) accepted each suit's
run cards and run jokers, and the search kept a rank's set jokers to at most one per set;
this module finds groups that show it: sets dealt so that no set holds two jokers, and runs
cut along a path of the flagged automaton with each joker in a run of its own. A joker
naming card ``c`` is written ``JOKER_CODE + c``. Rare and small (two or three free jokers),
so plain Python: a depth-first search with the failed states remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

import numpy as np

from solver.constants import JOKER_CODE, N_RANKS, N_SUITS
from solver.errors import SolverError

USED, SET_CARDS, HIGH_ACES, JOKERS, SET_JOKERS = range(5)  # fields of ``moves[t, s]``


def decode(moves: np.ndarray) -> list[tuple[int, ...]]:
    """Every group of the play ``moves`` (card codes in reading order, jokers as
    ``JOKER_CODE + c``). Raises ``SolverError`` when no layout keeps one joker per group (the
    search's tables promise one)."""
    groups: list[tuple[int, ...]] = []
    for t in range(N_RANKS):
        groups.extend(_sets(t, tuple(int(v) for v in moves[t, :, SET_CARDS]),
                            tuple(int(v) for v in moves[t, :, SET_JOKERS])))
    for s in range(N_SUITS):
        groups.extend(_runs(s, moves[:, s]))
    return groups


def _sets(t: int, k: tuple[int, ...], zs: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The sets of rank ``t``: ``k[s]`` cards of suit ``s``, ``zs[s]`` of them jokers."""
    total = sum(k)
    if total == 0:
        return []
    for n in range(total // 3, -(-total // 4) - 1, -1):
        dealt = _deal(n, k, zs)
        if dealt is not None:
            return [tuple(sorted((JOKER_CODE * joker + s * N_RANKS + t for s, joker in members),
                                 key=lambda code: code % JOKER_CODE))
                    for members in dealt]
    raise SolverError(f"set cards {k} with jokers {zs} do not split one joker per set")


@cache
def _deal(n: int, k: tuple[int, ...], zs: tuple[int, ...]
          ) -> tuple[tuple[tuple[int, bool], ...], ...] | None:
    """``n`` sets of 3-4 cards, each suit's ``k[s]`` cards in different sets, at most one
    joker per set: each set as its ``(suit, joker)`` members, or None."""
    sets: list[list[tuple[int, bool]]] = [[] for _ in range(n)]

    def place(s: int) -> bool:
        if s == N_SUITS:
            return all(3 <= len(members) <= 4 for members in sets)
        for chosen in combinations(range(n), k[s]):
            if any(len(sets[i]) == 4 for i in chosen):
                continue
            free = [i for i in chosen if not any(joker for _, joker in sets[i])]
            for jokers in combinations(free, zs[s]):
                for i in chosen:
                    sets[i].append((s, i in jokers))
                if place(s + 1):
                    return True
                for i in chosen:
                    sets[i].pop()
        return False

    if max(k) > n or not place(0):
        return None
    return tuple(tuple(members) for members in sets)


def _runs(s: int, column: np.ndarray) -> list[tuple[int, ...]]:
    """Suit ``s``'s runs from its moves ``column[t]``: the low aces start runs, the high aces
    end runs through the king, every joker in a run of its own."""
    r = [int(column[t, USED] - column[t, SET_CARDS]) for t in range(N_RANKS)]
    j = [int(column[t, JOKERS] - column[t, SET_JOKERS]) for t in range(N_RANKS)]
    g = int(column[0, HIGH_ACES])
    r[0] -= g
    if sum(r) + g == 0:
        return []
    for j0 in range(min(j[0], r[0]) + 1):
        jg = j[0] - j0
        if jg > g:
            continue
        runs = [(0, 1, 0 if i < j0 else NO_JOKER) for i in range(r[0])]
        found = _follow(1, runs, tuple(r), tuple(j), g - jg, jg, set())
        if found is not None:
            return [codes for run in found for codes in _codes(s, run)]
    raise SolverError(f"suit {s}'s run cards {r} with jokers {j} do not cut into runs")


NO_JOKER = -1  # a run's joker rank when it holds none
Run = tuple[int, int, int]  # (first rank index, length, the joker's rank index or NO_JOKER)
Closed = tuple[int, int, int, int]  # a run and its high ace: 0 none, 1 real, 2 a joker


def _follow(t: int, runs: list[Run], r: tuple[int, ...], j: tuple[int, ...], aces: int,
            joker_aces: int, failed: set) -> list[Closed] | None:
    """The runs from rank ``t`` on, the open ones ``runs`` (``aces`` real and
    ``joker_aces`` joker high aces waiting), or None. ``failed`` holds the states (rank,
    open runs by length class and joker) known to lead nowhere."""
    state = (t, tuple(sorted((min(n, 3), joker != NO_JOKER) for _, n, joker in runs)))
    if state in failed:
        return None
    if t == N_RANKS:
        closed = _close(runs, aces, joker_aces)
        if closed is None:
            failed.add(state)
        return closed
    for done, going in _next_runs(t, runs, r[t], j[t]):
        rest = _follow(t + 1, going, r, j, aces, joker_aces, failed)
        if rest is not None:
            return [(a, n, joker, 0) for a, n, joker in done] + rest
    failed.add(state)
    return None


def _next_runs(t: int, runs: list[Run], r: int, j: int
               ) -> Iterator[tuple[list[Run], list[Run]]]:
    """Every way rank ``t``'s ``r`` run cards (``j`` jokers) go: ``(closed runs, open runs)``.
    Runs of one or two cards go on; complete ones may stop; a joker goes to a run without
    one or starts a run; the other cards start runs."""
    short = [run for run in runs if run[1] < 3]
    whole = [run for run in runs if run[1] >= 3]
    for going_on in range(len(whole) + 1):
        for kept in combinations(range(len(whole)), going_on):
            on = short + [whole[i] for i in kept]
            done = [whole[i] for i in range(len(whole)) if i not in kept]
            new = r - len(on)
            if new < 0:
                continue
            open_slots = [i for i, run in enumerate(on) if run[2] == NO_JOKER]
            for into in range(min(j, len(open_slots)) + 1):
                if j - into > new:
                    continue
                for chosen in combinations(open_slots, into):
                    going = [(a, n + 1, t if i in chosen else joker)
                             for i, (a, n, joker) in enumerate(on)]
                    going += [(t, 1, t if i < j - into else NO_JOKER) for i in range(new)]
                    yield done, going


def _close(runs: list[Run], aces: int, joker_aces: int) -> list[Closed] | None:
    """After the king: each run of two takes a high ace, joker aces only runs without a
    joker (runs of two first); no run of one card is left, no run takes two aces."""
    if any(n < 2 for _, n, _ in runs):
        return None
    order = sorted(range(len(runs)), key=lambda i: (runs[i][1] != 2, runs[i][2] != NO_JOKER))
    ace = [0] * len(runs)
    for i in order:
        if joker_aces and runs[i][2] == NO_JOKER:
            ace[i], joker_aces = 2, joker_aces - 1
    for i in order:
        if aces and not ace[i]:
            ace[i], aces = 1, aces - 1
    if aces or joker_aces or any(n == 2 and not ace[i] for i, (_, n, _) in enumerate(runs)):
        return None
    return [(a, n, joker, ace[i]) for i, (a, n, joker) in enumerate(runs)]


def _codes(s: int, run: Closed) -> list[tuple[int, ...]]:
    """One run's card codes, its joker named by the card it stands for; a run from the low
    ace through the king that also takes a high ace is cut after A 2 3 (no run holds both
    aces)."""
    start, length, joker, ace = run
    cards = [s * N_RANKS + rank + JOKER_CODE * (rank == joker)
             for rank in range(start, start + length)]
    if ace:
        cards.append(s * N_RANKS + JOKER_CODE * (ace == 2))
    if ace and start == 0:
        return [tuple(cards[:3]), tuple(cards[3:])]
    return [tuple(cards)]
