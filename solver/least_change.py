"""The least-disturbing best play with the kernel as an exact oracle (no CP-SAT).

A hint (``solver.hint``) wants, among the plays that reach the best value, the one that keeps
the most table groups as they lie, then picks up the fewest table cards: it minimizes
``changed * (table cards + 1) + picked up`` over the set ``F`` of table groups the play
frees (docs/rules.md §3: a play may rearrange the whole table). Keeping a group as it lies
removes its cards from the question, so "does freeing ``F`` still reach the best?" is one
kernel solve on the freed groups' cards, the hand and the singles. That answer is monotone
(freeing more never hurts), which makes a small branch and bound over ``F`` exact:

- the kernel's best play on the whole table gives a first ``F`` (the groups it changes);
- every answer is remembered: a set that reaches the best makes each superset reach it, one
  that does not makes each subset fail, and the play a sufficient set gets may keep some of
  its groups after all (a smaller sufficient set, for free);
- sets are enumerated smallest index first; a branch is cut when its cost reaches the best
  so far, when freeing it and *every* remaining group still falls short, or when the groups
  it must still free (disjoint "cores": for each failing superset, one of the groups outside
  it; and, when the best value is every hand card a set or run could hold, for each hand card
  the hand and singles cannot hold alone, one of the groups holding a partner of it: the
  "hand cores") cost too much;
- linking (hands without jokers): the cards of a valid group are tied by "same rank, or a
  common three-card run", so each new group of a play lies inside one cluster of the freed
  cards, the hand and the singles under that relation; a cluster without a hand card or a
  single is rebuilt from table cards alone and may as well be kept as it lay. So freeing
  ``F`` reaches exactly what freeing its groups linked to the hand reaches
  (``_Neighbours.linked``): the question is asked of that smaller set, with fewer cards for
  the kernel and more answers shared between sets.

Only for the kernel's problems without table jokers (kept jokers carry naming rules the
kernel does not see per group); ``solver.hint`` asks CP-SAT otherwise. Without any joker the
whole search runs in one numba call (``solver.freed_search``, its bookkeeping in
``solver.freed_sets``), each question a direct call of the kernel; with hand jokers it runs
here, in Python, on the same bookkeeping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from solver import automaton, freed_search, freed_sets, kernel_backend, kernel_jokers
from solver.cards import N_CARD_TYPES
from solver.constants import ACE_CODES, N_RANKS, N_SUITS
from solver.groups import candidate_runs
from solver.limit import Limit
from solver.problem import Partition, Problem
from solver.tidy import pad


def applies(problem: Problem) -> bool:
    """True when the kernel answers the least-change question for ``problem`` exactly."""
    return (kernel_backend.applies(problem) and not problem.table_jokers
            and not problem.hand_only and not problem.locked)


class _Reach:
    """A cheap upper bound on the value of a play that frees some groups: a hand card counts
    only if some set or three-card run holds it beside cards that would be available (the
    hand, the singles, the freed groups' cards, jokers filling gaps). Sets that fail it need
    no kernel solve."""

    def __init__(self, problem: Problem) -> None:
        runs = np.array(list(candidate_runs(problem.ace, 3, 3)), dtype=np.int64)
        self.triples = np.concatenate([runs[:, [at] + [j for j in range(3) if j != at]]
                                       for at in range(3)])
        self.base = problem.hand + problem.free
        self.wild = problem.hand_jokers
        self.weight = np.where(problem.hand > 0, problem.weight * problem.hand, 0)
        self.joker_value = self.wild * int(problem.weight.max())

    def bound(self, freed: int, kept_counts: np.ndarray) -> int:
        """The most a play can score with the groups of ``freed`` taken up (``kept_counts``:
        each group's card counts)."""
        if self.wild >= 2:
            return int(self.weight.sum()) + self.joker_value
        return freed_sets.reach_bound(freed, kept_counts, self.base, self.weight, self.wild,
                                      self.triples) + self.joker_value


class _Masks:
    """A growable list of bit masks over the table's groups, kept as an antichain by the
    ``solver.freed_sets`` function that adds to it."""

    def __init__(self) -> None:
        self.masks = np.zeros(64, dtype=np.int64)
        self.count = 0

    def add(self, mask: int, adder: Callable[[np.ndarray, int, int], int]) -> None:
        """Add ``mask`` with ``adder`` (``freed_sets.add_failing`` or ``add_reaching``),
        doubling the room when it is full."""
        count = adder(self.masks, self.count, mask)
        while count < 0:
            self.masks = np.concatenate([self.masks, np.zeros_like(self.masks)])
            count = adder(self.masks, self.count, mask)
        self.count = count


class _Oracle:
    """Answers "does freeing these groups reach ``best``?" with the kernel, remembering every
    answer and what follows from it by monotonicity. Sets are bit masks over ``groups``."""

    def __init__(self, problem: Problem, groups: list[tuple[int, ...]], best: int) -> None:
        self.problem = problem
        self.groups = groups
        self.best = best
        self.kept_counts = np.zeros((len(groups), N_CARD_TYPES), dtype=np.int64)
        for i, group in enumerate(groups):
            np.add.at(self.kept_counts[i], list(group), 1)
        self.all_kept = self.kept_counts.sum(axis=0)
        self.reaching = _Masks()  # sets that reach best (each changes all its groups)
        self.failing = _Masks()  # sets that fall short
        self.answers: dict[int, Partition | None] = {}
        self.reach = _Reach(problem)
        self.near = _Neighbours(problem, groups, self.all_kept) if problem.hand_jokers == 0 \
            else None
        self.hand_cores = self.cores_of_hand()
        self.calls = 0
        self.work = 0  # kernel nodes over every solve

    def cores_of_hand(self) -> np.ndarray:
        """Masks every reaching set must meet, known without the kernel: when ``best`` is
        the reach bound with every group freed, each hand card that bound counts must be
        played; one that no set or run could hold with the hand and the singles alone needs
        a freed group holding one of its partners (``_Neighbours.of_card``)."""
        everything = (1 << len(self.groups)) - 1
        if self.near is None or self.reach.bound(everything, self.kept_counts) != self.best:
            return np.zeros(0, dtype=np.int64)
        reach = self.reach
        now = freed_sets.placeable(0, self.kept_counts, reach.base, 0, reach.triples)
        later = freed_sets.placeable(everything, self.kept_counts, reach.base, 0, reach.triples)
        cards = np.flatnonzero(later & ~now & (reach.weight > 0))
        return np.array(sorted({self.near.of_card[int(c)] for c in cards}), dtype=np.int64)

    def reaches(self, freed: int) -> bool:
        """True when freeing the groups of ``freed`` (and keeping the others) reaches best."""
        if self.near is not None:
            freed = self.near.linked(freed)
        if freed_sets.covers_any(self.reaching.masks, self.reaching.count, freed):
            return True
        if freed_sets.inside_any(self.failing.masks, self.failing.count, freed):
            return False
        partition = None
        if self.reach.bound(freed, self.kept_counts) >= self.best:
            partition = self.solve(freed)
        if partition is None:
            self.failing.add(freed, freed_sets.add_failing)
            return False
        self.reaching.add(self.still_changed(freed, partition), freed_sets.add_reaching)
        return True

    def solve(self, freed: int) -> Partition | None:
        """The kernel's best play with only ``freed`` taken up, if it reaches best."""
        if freed in self.answers:
            return self.answers[freed]
        self.calls += 1
        members = self.members(freed)
        sub = replace(self.problem, need=self.freed_cards(freed) + self.problem.need
                      - self.all_kept,
                      table_array=pad([self.groups[i] for i in members]))
        partition = kernel_backend.solve(sub)
        self.work += int(partition.stats.get("nodes", 0))
        answer = partition if partition.score >= self.best else None
        self.answers[freed] = answer
        return answer

    def freed_cards(self, freed: int) -> np.ndarray:
        """Counts of the cards of the groups of ``freed``."""
        return self.kept_counts[self.members(freed)].sum(axis=0)

    def members(self, mask: int) -> list[int]:
        return _bits(mask)

    def still_changed(self, freed: int, partition: Partition) -> int:
        """``freed`` without the groups ``partition`` rebuilds exactly as they lay."""
        made = Counter(tuple(row[:n]) for row, n in
                       zip(partition.groups.tolist(), partition.lengths.tolist(), strict=True))
        changed = 0
        for i in self.members(freed):
            if made[self.groups[i]] > 0:
                made[self.groups[i]] -= 1
            else:
                changed |= 1 << i
        return changed


def _partner_types(ace: str) -> list[set[int]]:
    """Per card type: the other card types that can share a three-card group with it (the
    same rank in another suit, or a common three-card run under ``ace``)."""
    partners: list[set[int]] = [set() for _ in range(N_CARD_TYPES)]
    for card in range(N_CARD_TYPES):
        rank = card % N_RANKS
        partners[card].update(suit * N_RANKS + rank for suit in range(N_SUITS))
    for run in candidate_runs(ace, 3, 3):
        for card in run:
            partners[card].update(run)
    for card in range(N_CARD_TYPES):
        partners[card].discard(card)
    return partners


class _Neighbours:
    """Bit masks over the table's groups: for each card type, the groups holding a partner
    of it (``_partner_types``), and for each group and for the hand, the groups next to it."""

    def __init__(self, problem: Problem, groups: list[tuple[int, ...]],
                 kept: np.ndarray) -> None:
        holders = [0] * N_CARD_TYPES
        for i, group in enumerate(groups):
            for card in group:
                holders[card] |= 1 << i
        self.of_card = [0] * N_CARD_TYPES
        for card, partners in enumerate(_partner_types(problem.ace)):
            for other in partners:
                self.of_card[card] |= holders[other]
        self.of_group = np.array([self.around(set(group)) for group in groups],
                                 dtype=np.int64)
        loose = np.maximum(problem.need - kept, 0)
        anchors = np.flatnonzero(problem.hand + problem.free + loose)
        self.of_hand = self.around({int(card) for card in anchors})

    def linked(self, freed: int) -> int:
        """The groups of ``freed`` linked to the hand (or singles) through freed cards next
        to each other."""
        return freed_sets.linked(freed, self.of_group, self.of_hand)

    def around(self, cards: set[int]) -> int:
        mask = 0
        for card in cards:
            mask |= self.of_card[card]
        return mask


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Search:
    """The branch and bound over freed sets (see the module docstring)."""

    def __init__(self, oracle: _Oracle, first: int, work: int, max_visits: int) -> None:
        self.oracle = oracle
        sizes = [len(group) for group in oracle.groups]
        weight = sum(sizes) + 1
        self.cost = [weight + size for size in sizes]
        self.cost_array = np.array(self.cost, dtype=np.int64)
        self.work = work
        self.visits_left = max_visits
        self.stopped = False  # the caller's limit ran out: the best so far is the answer
        self.gave_up = False  # the visit cap ran out: the caller asks CP-SAT instead
        self.best_set = first
        self.best_cost = self.set_cost(first)
        likely = sorted(oracle.members(first), key=self.cost.__getitem__)
        others = sorted(set(range(len(sizes))) - set(likely), key=self.cost.__getitem__)
        self.order = likely + others
        self.rest = [0] * (len(self.order) + 1)
        for i in range(len(self.order) - 1, -1, -1):
            self.rest[i] = self.rest[i + 1] | 1 << self.order[i]

    def set_cost(self, mask: int) -> int:
        return sum(self.cost[i] for i in self.oracle.members(mask))

    def run(self) -> int:
        self.shrink()
        self.visit(0, 0, 0)
        return self.best_set

    def shrink(self) -> None:
        """Drop groups from the first answer while it still reaches best, the costliest
        first: a tight bound before the search starts."""
        for group in sorted(self.oracle.members(self.best_set), key=self.cost.__getitem__,
                            reverse=True):
            smaller = self.best_set & ~(1 << group)
            if smaller != self.best_set and self.oracle.reaches(smaller):
                self.improve(smaller)

    def visit(self, freed: int, start: int, cost: int) -> None:
        """Every freed set that adds groups from ``order[start:]`` to ``freed``."""
        if cost >= self.best_cost or self.out_of_budget():
            return
        oracle = self.oracle
        if oracle.reaches(freed):
            self.improve(freed)
            return
        rest = self.rest[start]
        bound = self.extra_cost(freed, rest)
        if bound is None or cost + bound >= self.best_cost:
            return
        if not oracle.reaches(freed | rest):
            return
        for j in range(start, len(self.order)):
            group = self.order[j]
            self.visit(freed | 1 << group, j + 1, cost + self.cost[group])

    def improve(self, freed: int) -> None:
        reaching = self.oracle.reaching
        changed, cost = freed_sets.cheapest_inside(reaching.masks, reaching.count, freed,
                                                   self.cost_array)
        if 0 <= cost < self.best_cost:
            self.best_set, self.best_cost = int(changed), int(cost)

    def extra_cost(self, freed: int, rest: int) -> int | None:
        """A lower bound on the cost of the groups of ``rest`` that ``freed`` still needs,
        from disjoint cores; None when some core has no group left in ``rest``."""
        failing = self.oracle.failing
        bound = freed_sets.extra_cost(failing.masks, failing.count, self.oracle.hand_cores,
                                      freed, rest,
                                       self.cost_array)
        return None if bound == freed_sets.NO_BOUND else int(bound)

    def out_of_budget(self) -> bool:
        self.visits_left -= 1
        if self.visits_left < 0:
            self.gave_up = True
        if self.work and self.oracle.work > self.work:
            self.stopped = True
        return self.stopped or self.gave_up


def _numba_applies(problem: Problem) -> bool:
    """True when ``solver.freed_search`` runs the whole search: no jokers, one kernel
    branch."""
    return not (problem.hand_jokers or problem.table_jokers or problem.run_from_hand)


def _in_numba(problem: Problem, search: _Search) -> int:
    """``search.run()`` in one numba call (``solver.freed_search``); its flags and the
    oracle's counts updated as the Python search would."""
    oracle = search.oracle
    assert oracle.near is not None  # no jokers: the linking lemma holds
    copies = max(1, int(np.minimum(problem.need + problem.free + problem.hand,
                                   problem.decks).max(initial=0)))
    init, delta, accept = automaton.run_automaton(copies)
    state, reaching = freed_search.new_state(search.best_set, search.best_cost,
                                             search.visits_left)
    rows, lengths = pad(oracle.groups)
    fs = freed_search.FreedSearch(
        cell_inputs=(problem.need - oracle.all_kept, problem.free, problem.hand,
                     problem.weight, problem.forced),
        joker_rows=kernel_jokers.inputs(problem)[0].joker_rows,
        kernel_tables=(init, delta, accept, automaton.set_vectors(copies),
                       automaton.suit_states(copies)),
        cfg=kernel_backend.search_config(problem.ace, copies,
                                         weight_max=int(problem.weight.max())),
        ace=ACE_CODES[problem.ace], groups=rows, group_len=lengths,
        kept_counts=oracle.kept_counts, of_group=oracle.near.of_group,
        of_hand=oracle.near.of_hand, reach=(oracle.reach.base, oracle.reach.weight),
        triples=oracle.reach.triples, hand_cores=oracle.hand_cores, cost=search.cost_array,
        order=np.array(search.order, dtype=np.int64),
        rest=np.array(search.rest, dtype=np.int64), best=oracle.best,
        work_limit=search.work, reaching=reaching, failing=freed_search.empty_masks(),
        state=state)
    freed_search.run(fs)
    oracle.calls += int(state[freed_search.CALLS])
    oracle.work += int(state[freed_search.WORK])
    search.stopped = bool(state[freed_search.STOPPED])
    search.gave_up = bool(state[freed_search.GAVE_UP])
    return int(state[freed_search.BEST_SET])


def least_change(problem: Problem, groups: list[tuple[int, ...]], best: Partition,
                 limit: Limit | None = None, max_visits: int = 1 << 62) -> Partition | None:
    """The play reaching ``best.score`` that frees the fewest of ``groups`` (the table's
    groups as they lie), then the fewest of their cards; ``best`` is the kernel's best play
    on the whole table. The kept groups come first in the answer. ``optimal`` is False when
    ``limit`` (its kernel work, summed over the kernel solves) stopped the search before the
    least change was proved; None when the search needed more than ``max_visits`` sets
    (or the table has more than ``freed_sets.MAX_GROUPS`` groups)."""
    if len(groups) > freed_sets.MAX_GROUPS:
        return None
    oracle = _Oracle(problem, groups, best.score)
    everything = (1 << len(groups)) - 1
    oracle.answers[everything] = best
    first = oracle.still_changed(everything, best)
    oracle.reaching.add(first, freed_sets.add_reaching)
    search = _Search(oracle, first, 0 if limit is None else limit.kernel_work(), max_visits)
    freed = _in_numba(problem, search) if _numba_applies(problem) else search.run()
    if search.gave_up:
        return None
    play = oracle.solve(freed)
    assert play is not None  # every set the search keeps reached best
    kept = [groups[i] for i in range(len(groups)) if not freed >> i & 1]
    made = [tuple(row[:n]) for row, n in
            zip(play.groups.tolist(), play.lengths.tolist(), strict=True)]
    return Partition.from_groups(kept + made, play.played, play.score,
                                 optimal=not search.stopped, played_jokers=play.played_jokers,
                                 oracle_calls=oracle.calls)
