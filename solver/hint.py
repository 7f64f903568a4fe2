"""Hints: the best play that disturbs the table least, told as steps a person can follow.

Among the plays that reach the best objective, a hint prefers the one that changes the fewest
table groups, then picks up the fewest table cards (the cards of the groups it changes): it
minimizes ``changed * (cards on the table + 1) + picked up`` with the objective fixed. Two
engines answer that question exactly:

- the kernel: without jokers, one search with the lexicographic objective ``value * W +
  kept weight`` (``solver.lex_hint``, ``solver.kernel_lex``); with hand jokers, a branch and
  bound over which table groups are freed, one kernel solve per candidate set
  (``solver.least_change``). ``auto`` uses the first wherever it applies, the second on
  tables of at most ``KERNEL_GROUPS`` groups without table jokers, and hands over to CP-SAT
  if a search grows past ``LEX_WORK`` work or ``KERNEL_VISITS`` sets;
- CP-SAT: the kernel finds the best objective, then a CP-SAT model asks for it again with the
  table's groups as extra candidates, each of which may be *kept* exactly as it lies, and
  minimizes the same sum (a lexicographic objective in one solve), warm-started from the
  kernel's play; a table group's cards laid anew count as that group kept
  (``_keep_before_copying``), so no layout is searched twice. It answers everywhere else,
  and is the cross-check of the first.

The answer is laid out and re-checked like any solve.

The module and its verb share a name, and both stay: ``from solver.hint import hint`` (the
README's form) and ``from solver import hint`` (docs/design.md §3.2) are both documented, so
the package attribute ``solver.hint`` is the *function*, like ``solver.solve``, and this
module is reached by its import path: ``from solver.hint import hint_position, explain`` or
``importlib.import_module("solver.hint")`` (never ``solver.hint.<name>`` after
``import solver``). Renaming the module would break the README's import; making the module
callable would be magic. ``solver.analysis`` and ``analyze`` do not collide.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numba import njit

from solver import arguments, kernel_backend, least_change, lex_hint
from solver.api import BACKENDS, Solution, checked_layout, checked_solution, solve_position
from solver.cards import CODE_CARDS, CODE_OF, N_CARD_TYPES, UNNAMED_JOKER_CODE, Card, format_cards
from solver.constants import JOKER_CODE
from solver.errors import SolverError, UnsupportedPositionError
from solver.limit import Limit, resolve_limit
from solver.position import HandLike, Position, TableLike
from solver.problem import OBJECTIVES, Partition, Problem
from solver.variants import DEFAULT_VARIANT, Variant
from solver.warmup import elapsed_ms, load_cpsat, load_kernels, one_time, setup_seconds

if TYPE_CHECKING:  # OR-Tools is imported lazily: it is slow to load
    from solver.cpsat import CpsatModel

KERNEL_GROUPS = 28
"""Where the lexicographic search does not apply (hand jokers), ``auto`` hints with the
freed-set search (``solver.least_change``) on tables of at most this many groups, the most
among the suite's tables of 60+ cards (``python -m bench.hint``); beyond that, unmeasured,
CP-SAT answers. Measured before the lexicographic search, on joker-free tables: with the
search in numba (``solver.freed_search``) the kernel was 3.5x faster than CP-SAT per
position at the median on the suite's 60+-card tables of up to 17 groups, and at 21-28
groups faster on about half of them (both measured side by side, the machine loaded)."""
KERNEL_VISITS = 2000
"""``auto`` hands a freed-set search to CP-SAT after this many candidate sets of freed groups
(measured before the lexicographic search, on joker-free tables): on
the suite's 60+-card tables every one of up to 17 groups finishes within it, and at 21-28
groups the sets a search visits run from 200 to 70,000; a cap of 2,000 gave the lowest
median of 300, 500, 1,000, 2,000, 3,000 and 5,000 (a search stopped at the cap costs about
half a CP-SAT hint before CP-SAT's own)."""
LEX_WORK = 150_000
"""``auto`` hands a hint of the lexicographic search (``solver.lex_hint``) to CP-SAT after this
much kernel work (nodes plus the moves they generate). With ``kernel_lex``'s Lagrangian bound
(``solver.lex_dual``, past ``kernel_lex.DUAL_AFTER`` work) the search's work on the suite's
60+-card tables (``python -m bench.hint``) runs from about 80 to 15,000 (#79, about 15 ms
of search at load ~3, 2026-12-01; CP-SAT alone takes 18-65 ms there), so every one of them
finishes in the kernel. The cap is 10x the suite's worst, for positions the suite does not
hold: a search that long costs about as much as a CP-SAT hint. Before the bound (session 8)
the work ran up to 585,000 and a cap of 30,000 was tuned against hand-overs (22 of 95 went
to CP-SAT, each paying a capped search before CP-SAT's own 4-35 ms)."""

CPSAT_PRESOLVE = False
"""Whether CP-SAT presolves the hint model (``_least_disturbing``). The model is small and
its proof is the LP-guided search; presolve and its probing only added time: on the 20
bench positions the lexicographic search hands over (``python -m bench.hint``), the
hint's CP-SAT model, built and solved, took 0.79-0.82x the time without it (two runs side
by side, the machine loaded), with the same optimum on every one. Without presolve,
linearization level 1, symmetry level 0 and cut level 1 were slower (1.1-1.7x); with it,
the core and LB-tree searches were slower (1.9x), and a complete solution hint or the
hand's cards fixed when all are played no faster."""


@dataclass(frozen=True)
class Hint:
    """A best play, the table groups it changes and how to carry it out."""

    solution: Solution
    """The play: ``solution.table`` is the whole new table, ``solution.changed`` marks new
    and changed groups."""
    changed_groups: list[int]
    """Numbers (1-based, in the table's order) of the table groups the play changes."""
    picked_up: int
    """Table cards of the changed groups."""
    steps: list[str] = field(default_factory=list)
    """The play as steps a person can follow."""
    elapsed_ms: float = 0.0

    @property
    def rearranges(self) -> bool:
        """True when some table card leaves its group (more than adding to groups)."""
        return any(step.startswith("take ") for step in self.steps)

    def short(self) -> str:
        """The short form of forced play (docs/rules.md §4, ``forced_check = hint``): one playable
        card, the groups the play changes, and whether it needs a rearrangement."""
        if not self.solution.played:
            return "no card can be played"
        groups = ", ".join(map(str, self.changed_groups)) or "none (a new group)"
        how = "needs a rearrangement" if self.rearranges else "no rearrangement needed"
        return f"{self.solution.played[0]} can be played; groups changed: {groups}; {how}"

    def to_json(self) -> dict[str, Any]:
        data = self.solution.to_json()
        data.update({
            "changed_groups": self.changed_groups,
            "new_groups": [i + 1 for i, flag in enumerate(self.solution.changed) if flag],
            "picked_up": self.picked_up,
            "steps": self.steps,
            "short": self.short(),
            "elapsed_ms": round(self.elapsed_ms, 3),
        })
        return data

    def __str__(self) -> str:
        if not self.solution.played:
            return "no card can be played: draw"
        lines = [f"play {format_cards(self.solution.played)} "
                 f"({self.solution.score} {self.solution.objective}); "
                 f"changes {len(self.changed_groups)} table group(s)"]
        lines += [f"  {i}. {step}" for i, step in enumerate(self.steps, start=1)]
        return "\n".join(lines)


def hint(table: TableLike | Position, hand: HandLike = (),
         variant: str | Variant = DEFAULT_VARIANT, objective: str = "cards", *,
         opened: bool = True, time_limit: float | None = None,
         limit: Limit | None = None, backend: str = "auto") -> Hint:
    """The best play that changes the fewest table groups (see the module docstring).
    ``table`` is a table text, a list of groups or a ``Position`` (then ``hand``, ``variant``
    and ``opened`` are ignored), as for ``solve``. ``limit`` (or ``time_limit=S``, meaning
    ``Limit(time=S)``) caps the search for the least disturbing play; the best value itself
    is always found exactly. ``backend`` (``auto``, ``kernel`` or ``cpsat``) picks the engine
    of that search (module docstring); ``kernel`` raises an ``UnsupportedPositionError`` where
    it does not apply. Raises a ``PositionError`` (a ``ValueError``) on bad input,
    naming the offending token."""
    arguments.flag("opened", opened)
    if isinstance(table, Position):
        position = table
    else:
        position = Position.make(table, hand, variant, opened=opened)
    return hint_position(position, objective, time_limit, limit=limit, backend=backend)


def hint_position(position: Position, objective: str = "cards",
                  time_limit: float | None = None, *, limit: Limit | None = None,
                  backend: str = "auto") -> Hint:
    """``hint()`` for an already validated ``Position``."""
    load_kernels()
    load_least_change()
    started, setup = time.perf_counter(), setup_seconds()
    arguments.instance("position", position, Position)
    arguments.choice("objective", objective, OBJECTIVES)
    limit = resolve_limit(limit, time_limit)
    arguments.choice("backend", backend, BACKENDS)
    problem = Problem.from_position(position, objective)
    if backend == "kernel" and not least_change.applies(problem):
        raise UnsupportedPositionError(
            f"the kernel cannot find the least-disturbing play of this {position.variant.name} "
            "position (jokers on the table or tahiti's rules); use backend 'cpsat' or 'auto'")
    solution: Laid | None = None
    warm = None
    if backend == "kernel" or (backend == "auto" and kernel_first(problem)):
        solution, warm = _kernel_hint(position, problem, objective, limit, started,
                                      capped=backend == "auto")
    if solution is None:
        solution = _cpsat_hint(position, problem, objective, limit, started, warm)
    play, rows, lengths = solution
    if not play.played:
        return Hint(play, [], 0, [], elapsed_ms(started, setup))
    if rows is None or position.has_jokers:
        changed, picked_up = changed_groups(position.table, play.table)
        steps = explain(position, play, changed)
    else:
        changed, picked_up, steps = _explained(position, play, rows, lengths)
    return Hint(play, changed, picked_up, steps, elapsed_ms(started, setup))


Laid = tuple[Solution, Any, Any]
"""A checked play and the new table's padded rows of codes and lengths
(``api.checked_layout``), or ``(play, None, None)`` where the play came without them."""


@one_time
def load_least_change() -> None:
    """Load the numba code a hint runs once per process: ``solver.least_change``'s search,
    ``solver.lex_hint``'s one call (``solve_and_least_change``; ``lex_hint.least_change``,
    which the hint calls only where that call cannot answer, loads when first called: about
    10-40 ms of set-up saved), ``changed_groups``' and ``_explained``'s, with the kernel
    versions they call (their arrays are built inside numba, so they are not the read-only
    ones of ``solver.warmup.load_kernels``): set-up, not a hint's time, and not loaded by
    processes that never hint."""
    position = Position.parse("5C 6C 7C 8C | 8S 8D 8H / 8D 8H 9C")
    problem = Problem.from_position(position)
    best = kernel_backend.solve(problem)
    least_change.least_change(problem, list(problem.table_groups), best)
    lex_hint.applies(problem)
    lex_hint.solve_and_least_change(problem)
    changed_groups(position.table, position.table)
    rows, lengths = position.group_array  # as _explained passes them: the new ones writable
    _plan_rows(rows, lengths, rows.copy(), lengths.copy(), np.ones(len(lengths), dtype=np.bool_))


def kernel_first(problem: Problem) -> bool:
    """``auto`` asks the kernel first where its search is quick: least-change problems the
    kernel answers exactly, where the lexicographic search applies (``solver.lex_hint``) or
    on tables of at most ``KERNEL_GROUPS`` groups."""
    return least_change.applies(problem) and (
        _table_groups(problem) <= KERNEL_GROUPS or lex_hint.applies(problem))


def _table_groups(problem: Problem) -> int:
    """How many groups (not singles) lie on the table: ``len(problem.table_groups)``, read
    from ``problem.table_array`` without building those tuples."""
    if problem.table_array is None:
        return 0
    return int(np.count_nonzero(problem.table_array[1] > 1))


def _kernel_hint(position: Position, problem: Problem, objective: str, limit: Limit | None,
                 started: float, capped: bool) -> tuple[Laid | None, Partition | None]:
    """The least-disturbing best play found with the kernel alone: one lexicographic search
    (``solver.lex_hint``) where it applies, else the branch and bound over freed groups
    (``solver.least_change``). ``(None, its best play so far, or the kernel's best play)``
    when ``capped`` and the search needs more than ``LEX_WORK`` work or ``KERNEL_VISITS``
    sets: CP-SAT starts from that play and need not solve the position again."""
    if lex_hint.applies(problem):  # the table's groups, none locked: one call does it all
        best, least = lex_hint.solve_and_least_change(problem, None, limit,
                                                      LEX_WORK if capped else 0)
    else:
        best = kernel_backend.solve(problem)
        least = best
        if best.played.any() or best.played_jokers:
            least = least_change.least_change(problem, _keepable(problem), best, limit,
                                              KERNEL_VISITS if capped else 1 << 62)
    if least is None or least.stats.get("capped"):
        return None, least if least is not None else best
    return checked_layout(position, problem, least, "kernel", objective, started), None


def _cpsat_hint(position: Position, problem: Problem, objective: str, limit: Limit | None,
                started: float, warm: Partition | None = None) -> Laid:
    """The best play, then CP-SAT's least-disturbing play of that value, warm-started from
    it. The best play is ``warm`` (a play of the best value from a capped kernel search)
    when given and it passes the re-check, else ``solve``'s."""
    best = None
    if warm is not None:
        try:
            best = checked_solution(position, problem, warm, "kernel", objective, started)
        except SolverError:
            best = None  # a kernel bug: solve answers with its own safety net
    if best is None:
        best = solve_position(position, objective)
    if not best.played or problem.hand_only:
        return best, None, None  # an opening from the hand alone leaves the table as it lies
    partition = _least_disturbing(problem, best, limit)
    return (best, None, None) if partition is None else checked_layout(
        position, problem, partition, "cpsat", objective, started)


def changed_groups(old: list | tuple, new: list | tuple) -> tuple[list[int], int]:
    """Numbers (1-based) of the ``old`` groups that do not lie unchanged in ``new``, and
    their card count. Cards are ``Card``s, codes or texts (compared as texts when they are
    not all ``Card``s)."""
    old_codes, new_codes = _flat_codes(old), _flat_codes(new)
    if old_codes is not None and new_codes is not None:
        old_lengths = np.fromiter(map(len, old), dtype=np.int64, count=len(old))
        changed = _unmatched(np.array(old_codes, dtype=np.int64), old_lengths,
                             np.array(new_codes, dtype=np.int64),
                             np.fromiter(map(len, new), dtype=np.int64, count=len(new)))
        return (changed + 1).tolist(), int(old_lengths[changed].sum())
    old_keys: list[tuple] | None = _code_keys(old)
    new_keys: list[tuple] | None = _code_keys(new)
    if old_keys is None or new_keys is None:
        old_keys = [_text_key(group) for group in old]
        new_keys = [_text_key(group) for group in new]
    left = Counter(new_keys)
    changed, picked_up = [], 0
    for number, (group, group_key) in enumerate(zip(old, old_keys, strict=True), start=1):
        if left[group_key] > 0:
            left[group_key] -= 1
        else:
            changed.append(number)
            picked_up += len(group)
    return changed, picked_up


def _flat_codes(groups: list | tuple) -> list[int] | None:
    """The codes of every card of ``groups``, group after group, when every card is one of
    the shared ``Card`` objects (found by identity, ``_CODE_BY_ID``); else None."""
    codes = list(map(_CODE_BY_ID.get, map(id, chain.from_iterable(groups))))
    return None if None in codes else cast(list[int], codes)


@njit(cache=True)
def _unmatched(old_codes, old_lengths, new_codes, new_lengths):
    """``_unmatched_rows`` of flat groups (their codes one group after the other)."""
    return _unmatched_rows(_rows_of(old_codes, old_lengths), old_lengths,
                           _rows_of(new_codes, new_lengths), new_lengths)


@njit(cache=True)
def _unmatched_rows(old_rows, old_lengths, new_rows, new_lengths):
    """Indices of the ``old`` groups (padded rows of codes) that no ``new`` group matches
    card for card in any order, each new group matching one old group at most, the old
    ones in order: ``changed_groups`` on arrays. Its Python form (a ``Counter`` of sorted
    code tuples, kept for texts and other cards) took about 80 us on a 60+-card hint's
    table, a Python loop over every card (2026-12-01)."""
    old_sorted = _sorted_rows(old_rows, old_lengths)
    new_sorted = _sorted_rows(new_rows, new_lengths)
    taken = np.zeros(new_lengths.shape[0], dtype=np.bool_)
    changed = np.empty(old_lengths.shape[0], dtype=np.int64)
    n_changed = 0
    for i in range(old_lengths.shape[0]):
        found = False
        for j in range(new_lengths.shape[0]):
            if taken[j] or new_lengths[j] != old_lengths[i]:
                continue
            same = True
            for c in range(old_lengths[i]):
                if old_sorted[i, c] != new_sorted[j, c]:
                    same = False
                    break
            if same:
                taken[j] = True
                found = True
                break
        if not found:
            changed[n_changed] = i
            n_changed += 1
    return changed[:n_changed]


@njit(cache=True)
def _rows_of(codes, lengths):
    """Flat groups as padded rows (-1 beyond each group's length)."""
    width = 1
    for n in lengths:
        width = max(width, n)
    rows = np.full((lengths.shape[0], width), -1, dtype=np.int64)
    at = 0
    for g in range(lengths.shape[0]):
        for c in range(lengths[g]):
            rows[g, c] = codes[at + c]
        at += lengths[g]
    return rows


@njit(cache=True)
def _sorted_rows(rows, lengths):
    """A copy of ``rows`` with each group's codes in increasing order (an insertion sort:
    groups are short)."""
    out = rows.copy()
    for g in range(lengths.shape[0]):
        for i in range(1, lengths[g]):
            code = out[g, i]
            j = i - 1
            while j >= 0 and out[g, j] > code:
                out[g, j + 1] = out[g, j]
                j -= 1
            out[g, j + 1] = code
    return out


def _code_keys(groups: list | tuple) -> list[tuple[int, ...]] | None:
    """Each group of ``Card``s as a sorted tuple of codes: the same key for the same cards in
    any order (codes, not card texts: this runs for every group of every hint); None when
    some card is not one of the shared ``Card`` objects (then compare texts)."""
    keys = []
    for group in groups:
        codes = _card_codes(group)
        if codes is None:
            return None
        keys.append(tuple(sorted(codes)))
    return keys


def _text_key(group) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in group))


_CODE_BY_ID = {id(card): code for code, card in enumerate(CODE_CARDS)}
"""The code of each shared ``Card`` object (``solver.cards.CODE_CARDS``: every card a
solution lays is one of them), found by identity: a hint looks up every card of every
changed and new group, and ``Card.code`` or a hash of the card cost 5-10x more."""
CODE_TEXTS = tuple(str(card) for card in CODE_CARDS)
"""The text of each code's card."""


def _card_codes(group) -> list[int] | None:
    """The codes of a group's ``Card``s (``Card.code``, and ``UNNAMED_JOKER_CODE`` for an
    unnamed joker, which has no code): one code per card text; None when some card is not
    a ``Card``."""
    found = list(map(_CODE_BY_ID.get, map(id, group)))
    if None not in found:
        return cast(list[int], found)
    if all(isinstance(card, Card) for card in group):
        return [CODE_OF[card] for card in group]
    return None


def _codes(group) -> list[int]:
    """``_card_codes`` of a group of ``Card``s."""
    codes = _card_codes(group)
    if codes is None:
        raise TypeError("a hint's groups hold Cards")
    return codes


def _least_disturbing(problem: Problem, best: Solution,
                      limit: Limit | None) -> Partition | None:
    """The CP-SAT answer with the objective fixed at ``best.score`` that keeps the most table
    groups (then picks up the fewest cards); None if CP-SAT finds nothing in time."""
    load_cpsat()  # OR-Tools' first import is set-up, not the hint's time
    from solver.cpsat import CpsatModel, Outcome

    keepable = _keepable(problem)
    cpsat = CpsatModel(problem, as_lies=keepable)
    cpsat.solver.parameters.cp_model_presolve = CPSAT_PRESOLVE
    for kept in cpsat.as_lies_kept():
        cpsat.model.add(kept <= 1)
    _keep_joker_names(cpsat, keepable)
    _keep_before_copying(cpsat, keepable)
    cpsat.model.add(cpsat.played_weight() == best.score)
    _minimize_disturbance(cpsat, keepable)
    for kept, survives in zip(cpsat.as_lies_kept(), _survivors(keepable, best), strict=True):
        cpsat.model.add_hint(kept, int(survives))
    played = _played(best)
    for c in range(N_CARD_TYPES):
        cpsat.model.add_hint(cpsat.p[c], int(played[c]))
    outcome = cpsat.solve(limit)
    if not outcome.found:
        return None
    return cpsat.decode(best.score, outcome is Outcome.OPTIMAL, kept_first=True)


def _keepable(problem: Problem) -> list[tuple[int, ...]]:
    """The table groups a play may keep as they lie (tahiti's locked groups have their own
    keep variables)."""
    if not problem.locked:
        return list(problem.table_groups)
    locked = Counter(codes for _, codes in problem.locked)
    keepable = []
    for group in problem.table_groups:
        if locked[group] > 0:
            locked[group] -= 1
        else:
            keepable.append(group)
    return keepable


def _keep_joker_names(cpsat: CpsatModel, keepable: list[tuple[int, ...]]) -> None:
    """Where a joker is a copy of its name (no slots), a kept joker keeps its name."""
    if not cpsat.table_name or cpsat.slots:
        return
    kept_names: list[list] = [[] for _ in range(N_CARD_TYPES)]
    for kept, group in zip(cpsat.as_lies_kept(), keepable, strict=True):
        for c in group:
            if c >= JOKER_CODE:
                kept_names[c - JOKER_CODE].append(kept)
    for c, kept_with in enumerate(kept_names):
        if kept_with:
            cpsat.model.add(cpsat.table_name[c] >= sum(kept_with))


def _keep_before_copying(cpsat: CpsatModel, keepable: list[tuple[int, ...]]) -> None:
    """Symmetry breaking: a joker-free table group's cards make a new group as an ordinary
    candidate only when every table group of those cards is kept as it lies, and of two
    identical table groups the first is kept first. Any play is worth at least as much with
    a copied group counted as kept (the same cards, one more group kept), so every optimum
    survives; without these, CP-SAT explored each layout twice (the suite's 60+-card
    hand-overs: the slowest CP-SAT hint, #79, 35 to 18 ms)."""
    problem, first = cpsat.problem, cpsat.first_as_lies
    top = int((problem.need + problem.free + problem.hand).max()) + cpsat.n_jokers  # copies
    plain = {tuple(sorted(cand.codes)): gi for gi, cand in enumerate(cpsat.candidates[:first])
             if not cand.jokers}
    earlier: dict[tuple[int, ...], Any] = {}
    for kept, group in zip(cpsat.as_lies_kept(), keepable, strict=True):
        if max(group) >= JOKER_CODE:
            continue
        key = tuple(sorted(group))
        gi = plain.get(key)
        if gi is not None:
            cpsat.model.add(cpsat.x[gi] <= top * kept)
        if key in earlier:
            cpsat.model.add(earlier[key] >= kept)
        earlier[key] = kept


def _minimize_disturbance(cpsat: CpsatModel, keepable: list[tuple[int, ...]]) -> None:
    """Changed groups first, then table cards picked up: one weighted sum to minimize."""
    problem = cpsat.problem
    sizes = [len(group) for group in keepable] + [len(codes) for _, codes in problem.locked]
    weight = sum(sizes) + 1
    stays = cpsat.as_lies_kept() + cpsat.locked_unchanged()
    cpsat.model.minimize(sum((weight + size) * (1 - s)
                             for s, size in zip(stays, sizes, strict=True)))


def _survivors(groups: list[tuple[int, ...]], solution: Solution) -> list[bool]:
    """Per group of ``groups`` (codes), whether ``solution`` lays it as it lies, each new
    group matching one of them at most (two decks may lie a group twice)."""
    left = Counter(tuple(_codes(new)) for new in solution.table)
    survives = []
    for group in groups:
        survives.append(left[group] > 0)
        left[group] -= 1
    return survives


def _played(solution: Solution) -> np.ndarray:
    counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card in solution.played:
        if not card.joker:
            counts[card.index] += 1
    return counts


Plan = list[tuple[str, dict[int, list[str]]]]
"""Per new group: its text and its sources, ``{table group number or 0 for the hand: the
card texts it gives}``."""


def explain(position: Position, solution: Solution,
            changed: list[int] | None = None) -> list[str]:
    """The play as steps: what to take from which table group, and which groups to make from
    it and from the hand. Table groups are numbered as they lie (1-based); ``changed``, the
    numbers of the groups the play changes (``changed_groups``), when the caller has them."""
    old = [tuple(group) for group in position.table]
    if changed is None:
        changed, _ = changed_groups(old, solution.table)
    new_groups = [group for group, flag in zip(solution.table, solution.changed, strict=True)
                  if flag]
    return _steps(changed, _plan(old, changed, new_groups), [len(group) for group in old])


def _explained(position: Position, solution: Solution, rows: np.ndarray,
               lengths: np.ndarray) -> tuple[list[int], int, list[str]]:
    """``changed_groups`` and ``explain`` of a joker-free position's play, read on arrays:
    the position's rows of codes and the new table's (``rows``, ``lengths``: what
    ``solution.table`` holds as cards, ``api.checked_layout``). ``(changed, picked_up,
    steps)``, the same as theirs (``tests/test_hint.py``); ``_plan_rows`` plans in one numba
    call what ``_plan`` does with ``Counter``s of codes looked up card by card."""
    old_rows, old_lengths = position.group_array
    flags = np.array(solution.changed, dtype=np.bool_)
    changed_at, planned = _plan_rows(old_rows, old_lengths, rows, lengths, flags)
    changed = (changed_at + 1).tolist()
    picked_up = int(old_lengths[changed_at].sum())
    texts = CODE_TEXTS
    plan: Plan = [(" ".join([texts[code] for code in row[:n]]), {})
                  for row, n, flag in zip(rows.tolist(), lengths.tolist(), flags.tolist(),
                                          strict=True) if flag]
    for index, number, code in planned.tolist():
        sources = plan[index][1]
        if number in sources:
            sources[number].append(texts[code])
        else:
            sources[number] = [texts[code]]
    return changed, picked_up, _steps(changed, plan, old_lengths.tolist())


N_CODES = UNNAMED_JOKER_CODE + 1
"""Card codes (``solver.cards.CODE_OF``): the real cards, the named jokers, the unnamed one."""


@njit(cache=True)
def _plan_rows(old_rows, old_lengths, new_rows, new_lengths, flags):
    """``(changed, plan)``: the indices of the old groups no new group matches
    (``_unmatched_rows``), and ``_plan`` of the new groups ``flags`` marks, one row ``(new
    group's index among them, source: table group number or 0 for the hand, code)`` per card
    in the order ``_plan`` tells them: per new group its sources, the changed groups sharing
    most cards first (then in table order), the hand last, each source's cards in the new
    group's order."""
    changed = _unmatched_rows(old_rows, old_lengths, new_rows, new_lengths)
    n_changed = changed.shape[0]
    pool = np.zeros((n_changed, N_CODES), dtype=np.int64)
    for ci in range(n_changed):
        for c in range(old_lengths[changed[ci]]):
            pool[ci, old_rows[changed[ci], c]] += 1
    total = 0
    for g in range(new_lengths.shape[0]):
        if flags[g]:
            total += new_lengths[g]
    plan = np.empty((total, 3), dtype=np.int64)
    want = np.zeros(N_CODES, dtype=np.int64)
    shared = np.zeros(n_changed, dtype=np.int64)
    at, index = 0, -1
    for g in range(new_lengths.shape[0]):
        if not flags[g]:
            continue
        index += 1
        n = new_lengths[g]
        for c in range(n):
            want[new_rows[g, c]] += 1
        for ci in range(n_changed):
            shared[ci] = 0
            for c in range(n):
                code = new_rows[g, c]
                if _first(new_rows, g, c):
                    shared[ci] += min(pool[ci, code], want[code])
        for ci in np.argsort(-shared, kind="mergesort"):
            if shared[ci] == 0:
                continue  # nothing to give: its pool holds none of the cards still wanted
            for c in range(n):
                code = new_rows[g, c]
                if not _first(new_rows, g, c):
                    continue
                m = min(pool[ci, code], want[code])
                for _ in range(m):
                    plan[at, 0], plan[at, 1], plan[at, 2] = index, changed[ci] + 1, code
                    at += 1
                pool[ci, code] -= m
                want[code] -= m
        for c in range(n):
            code = new_rows[g, c]
            for _ in range(want[code]):
                plan[at, 0], plan[at, 1], plan[at, 2] = index, 0, code
                at += 1
            want[code] = 0
    return changed, plan[:at]


@njit(cache=True)
def _first(rows, g, c):
    """Whether ``rows[g, c]`` is the first card of its code in its row."""
    for i in range(c):
        if rows[g, i] == rows[g, c]:
            return False
    return True


def _steps(changed: list[int], plan: Plan, old_lengths: list[int]) -> list[str]:
    """The steps of ``plan`` (``explain``): the takes, then the groups that stay, then the
    groups made; ``old_lengths`` the table groups' sizes."""
    by_group = _shares_by_group(plan)
    stays = _staying_shares(changed, by_group)
    steps = _take_steps(changed, by_group, stays)
    makes: list[str] = []
    for index, (text, sources) in enumerate(plan):
        step, stays_put = _make_step(old_lengths, index, text, sources, stays)
        (steps if stays_put else makes).append(step)
    return steps + makes


def _plan(old: list[tuple], changed: list[int], new_groups: list) -> Plan:
    """Where each new group's cards come from: every table card of a changed group, and
    every played card, is a source; the table groups sharing most cards give first, the
    rest comes from the hand. Cards are counted by code and told by text."""
    pools = {number: Counter(_codes(old[number - 1])) for number in changed}
    holders: dict[int, list[int]] = {}  # code -> the changed groups holding it, in order
    for number in changed:
        for code in pools[number]:
            holders.setdefault(code, []).append(number)
    plan: Plan = []
    for group in new_groups:
        codes = _codes(group)
        want = Counter(codes)
        shared: dict[int, int] = {}  # changed group -> cards it shares with the new group
        for code, count in want.items():
            for number in holders.get(code, ()):
                shared[number] = shared.get(number, 0) + min(pools[number][code], count)
        sources: dict[int, list[str]] = {}
        for number in sorted(shared, key=lambda n: (-shared[n], changed.index(n))):
            share = _take_share(pools[number], want)
            if share:
                sources[number] = share
        rest = _take_share(want, want)
        if rest:
            sources[0] = rest
        plan.append((" ".join(map(CODE_TEXTS.__getitem__, codes)), sources))
    return plan


def _take_share(pool: Counter, want: Counter) -> list[str]:
    """Takes the cards ``pool`` and ``want`` (multisets of codes, ``want`` in the new group's
    order) have in common out of both; returns their texts in ``want``'s order."""
    share: list[str] = []
    for code, count in want.items():
        n = min(pool[code], count)
        if n > 0:
            share += [CODE_TEXTS[code]] * n
            pool[code] -= n
            if pool is not want:
                want[code] -= n
    return share


def _shares_by_group(plan: Plan) -> dict[int, list[tuple[int, list[str]]]]:
    """Per source of ``plan`` (table group number, 0 for the hand): the new groups it gives
    cards to, in order, as ``(index of the new group, the cards)``."""
    by_group: dict[int, list[tuple[int, list[str]]]] = {}
    for index, (_, sources) in enumerate(plan):
        for number, cards in sources.items():
            if number in by_group:
                by_group[number].append((index, cards))
            else:
                by_group[number] = [(index, cards)]
    return by_group


def _staying_shares(changed: list[int], by_group: dict[int, list[tuple[int, list[str]]]]
                    ) -> dict[int, tuple[int, list[str]]]:
    """A group split between new groups keeps its biggest share (two cards or more) in
    place; the rest of it is taken. A group that goes whole into one new group is grown.
    Returns group number -> (index of the new group, its share). ``by_group``:
    ``_shares_by_group`` of the plan."""
    stays: dict[int, tuple[int, list[str]]] = {}
    for number in sorted(changed):
        shares = by_group.get(number, [])
        index, cards = max(shares, key=lambda share: len(share[1]))
        if len(cards) >= 2 or len(shares) == 1:
            stays[number] = (index, cards)
    return stays


def _take_steps(changed: list[int], by_group: dict[int, list[tuple[int, list[str]]]],
                stays: dict[int, tuple[int, list[str]]]) -> list[str]:
    """The step "take ... from group N" for the cards that leave each changed group."""
    steps = []
    for number in sorted(changed):
        stay = stays[number][0] if number in stays else -1
        taken = [card for index, cards in by_group.get(number, ()) if index != stay
                 for card in cards]
        if taken:
            steps.append(f"take {' '.join(taken)} from group {number}")
    return steps


def _make_step(old_lengths: list[int], index: int, text: str, sources: dict[int, list[str]],
               stays: dict[int, tuple[int, list[str]]]) -> tuple[str, bool]:
    """How new group ``index`` (``text``) is made (lay, make, join or add), or, with True,
    that a table group stays as it is."""
    bases = [n for n in sources if n and n in stays and stays[n][0] == index]
    parts = [f"your {' '.join(cards)}" if n == 0 else f"{' '.join(cards)} of group {n}"
             for n, cards in sources.items() if n not in bases]
    added = _join(parts)
    if not bases:
        return (f"lay {text} from your hand" if list(sources) == [0]
                else f"make {text} from {added}"), False
    whole = [n for n in bases if len(stays[n][1]) == old_lengths[n - 1]]
    names = _join([f"group {n}" if n in whole else f"what is left of group {n}"
                   for n in bases])
    if len(bases) > 1:
        return f"join {names}" + (f" with {added}" if parts else "") + f": {text}", False
    if parts:
        return f"add {added} to {names}: {text}", False
    return f"{names} stays: {text}", True


def _join(parts: list[str]) -> str:
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = ["Hint", "changed_groups", "explain", "hint", "hint_position", "kernel_first",
           "load_least_change"]
