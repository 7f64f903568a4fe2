"""The OR-Tools CP-SAT model: the same question as the kernel, asked independently.

Candidate groups are sets and runs of 3..5 cards (any longer run is a union of these; 3..6
when vatican jokers must stay with a neighbour, so that a joker and its neighbour can always
share a piece). A joker is one more copy of the card it names, so per-card supply counts the
jokers naming it; only tahiti, whose groups hold at most one joker, gives candidates an
explicit joker slot. Variables (one line each, as in the CP-SAT samples):

- ``x[g]``: copies of candidate ``g`` on the new table (``g`` = a shape and its joker slots).
- ``p[c]``: hand copies of card ``c`` played; ``f[c]``: original singles of ``c`` used.
- ``hand_name[c]`` / ``table_name[c]``: jokers from the hand / from the table naming ``c``.
- ``keep[l]``, ``ext[l, e]``: (tahiti) locked group ``l`` survives, grown as extension ``e``.
- ``freed[X]``: (vatican) a real X is played, so jokers named X may leave their neighbours.
- ``z[r]``: (vatican opening) the hand's 3-card run ``r`` is laid.

Balances: per real card, candidates + locked extensions use ``need + p + f`` copies; per name,
joker slots use ``hand_name + table_name`` jokers. The rules of docs/rules.md §8 are the rulings
listed in ``solver.validate``. Objective: maximize the weight of the hand cards played.
Parameters: one worker, ``linearization_level = 2`` (the default linearization took seconds
on positions that take milliseconds with 2) and ``cut_level = 0``: the linear relaxation
without CP-SAT's generated cuts. On full tables the best play is usually every hand card, a
bound known from the start, so the time goes into diving to a solution that reaches it, a
few hundred branches with an LP at each; the cuts made each of them dearer and found no
bound the search needed. Presolve is off too (``cp_model_presolve = False``): the models
are small and already tight, and presolving them took a fifth of a full table's solve and
a quarter of a small tahiti position's with two jokers free (``python -m bench.cpsat_cuts``
times the settings side by side on the suite's full tables; docs/performance.md §4).

``CpsatModel`` is the one place the model is built, solved and decoded: ``find_play`` and
``solve`` use it as it is; hints (``solver.hint``) and analysis (``solver.analysis``) add their
own constraints and objective to it. ``OPTIMAL``/``FEASIBLE`` give a solution, ``INFEASIBLE``
and ``UNKNOWN`` are outcomes callers handle, and ``MODEL_INVALID`` or any other status raises
``SolverError``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from enum import Enum
from functools import cache
from itertools import combinations

import numpy as np
from ortools.sat.python import cp_model

from solver.cards import N_CARD_TYPES
from solver.constants import JOKER_CODE
from solver.errors import InfeasibleTableError, SolverError
from solver.groups import candidate_runs, candidate_sets, slot_window
from solver.limit import Limit
from solver.problem import POINTS, Partition, Problem, nothing_played

LINEARIZATION_LEVEL = 2  # see the module docstring
CUT_LEVEL = 0  # no generated cuts (see the module docstring); CP-SAT's default is 1
PRESOLVE = False  # no presolve (see the module docstring); CP-SAT's default is True


def max_group_len(problem: Problem) -> int:
    """The longest candidate group: 5, or 6 where vatican jokers must stay beside a
    neighbour (a joker and its neighbour can then always share a piece)."""
    return 6 if problem.stuck else 5


class Candidate:
    """A group shape (card indices in reading order) with some slots given to jokers."""

    __slots__ = ("cards", "jokers", "codes")

    def __init__(self, cards: tuple[int, ...], jokers: tuple[int, ...] = ()) -> None:
        self.cards = cards
        self.jokers = jokers
        self.codes = tuple(c + JOKER_CODE if i in jokers else c for i, c in enumerate(cards))


def shapes(ace: str, max_len: int) -> list[tuple[int, ...]]:
    """Every set and every run of 3..``max_len`` cards, as card indices in reading order."""
    groups = [group for rank in range(1, 14) for group in candidate_sets(rank)]
    return groups + list(candidate_runs(ace, 3, max_len))


def needs_slots(problem: Problem) -> bool:
    """True for tahiti with two jokers or more in play, whose one-joker-per-group rule ties
    jokers to groups. Elsewhere a joker is just one more copy of the card it names: plain
    shapes with per-card supply say everything (vatican's stuck jokers become a condition on
    the shapes holding their name)."""
    return problem.joker_rule == "tahiti" and problem.table_jokers + problem.hand_jokers > 1


@cache
def _plain_candidates(ace: str, max_len: int) -> tuple[Candidate, ...]:
    """Every shape as a candidate without joker slots, built once per ace rule and length
    (candidates are never changed once built)."""
    return tuple(Candidate(cards) for cards in shapes(ace, max_len))


def candidate_groups(problem: Problem, max_len: int = 5) -> list[Candidate]:
    """Candidates whose real cards are all available; with joker slots where jokers must be
    tied to their group (``needs_slots``), else shapes a joker copy may complete."""
    avail = (problem.need + problem.free + problem.hand).tolist()  # ints: read per card
    jokers = problem.table_jokers + problem.hand_jokers
    result = []
    if not needs_slots(problem):
        for candidate in _plain_candidates(problem.ace, max_len):
            missing = sum(avail[c] == 0 for c in candidate.cards)
            if missing <= jokers:
                result.append(candidate)
        return result
    most = 0 if jokers == 0 else 1 if problem.joker_rule == "tahiti" or jokers == 1 else 2
    for cards in shapes(problem.ace, max_len):
        for count in range(most + 1):
            for slots in combinations(range(len(cards)), count):
                if all(avail[c] > 0 for i, c in enumerate(cards) if i not in slots):
                    result.append(Candidate(cards, slots))
    return result


def extensions(problem: Problem, codes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Tahiti: the locked group ``codes`` and every way to grow it with cards from the hand."""
    ranks = {c % 13 for c in codes}
    suit = codes[0] % JOKER_CODE // 13
    options = [codes]
    if len(ranks) == 1:  # a set: the missing suits, from the hand
        if len(codes) == 3:
            have = {c % JOKER_CODE // 13 for c in codes}
            rank = codes[0] % 13
            for s in range(4):
                if s not in have and problem.hand[s * 13 + rank] > 0:
                    options.append(tuple(sorted(codes + (s * 13 + rank,),
                                                key=lambda c: c % JOKER_CODE)))
        return options
    window = slot_window(problem.ace)
    first = codes[0] % 13
    slots = list(range(first, first + len(codes)))
    for left in range(0, slots[0] - window.start + 1):
        for right in range(0, window.stop - 1 - slots[-1] + 1):
            if left == right == 0:
                continue
            add_left = [suit * 13 + t % 13 for t in range(slots[0] - left, slots[0])]
            add_right = [suit * 13 + t % 13 for t in range(slots[-1] + 1, slots[-1] + right + 1)]
            if len(codes) + left + right > 13:
                continue
            if all(problem.hand[c] > 0 for c in add_left + add_right):
                options.append(tuple(add_left) + codes + tuple(add_right))
    return options


class Outcome(Enum):
    """What a CP-SAT solve ended with (``MODEL_INVALID`` and the rest raise ``SolverError``)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"  # a solution, not proved best (out of time)
    INFEASIBLE = "infeasible"  # no solution exists
    UNKNOWN = "unknown"  # out of time before any solution

    @property
    def found(self) -> bool:
        """True when the solver holds a solution to read."""
        return self in (Outcome.OPTIMAL, Outcome.FEASIBLE)


_OUTCOMES = {cp_model.OPTIMAL: Outcome.OPTIMAL, cp_model.FEASIBLE: Outcome.FEASIBLE,
             cp_model.INFEASIBLE: Outcome.INFEASIBLE, cp_model.UNKNOWN: Outcome.UNKNOWN}


def new_solver() -> cp_model.CpSolver:
    """The one CP-SAT solver factory of the package: one worker, ``linearization_level`` 2,
    ``cut_level`` 0 and no presolve (see the module docstring); ``CpsatModel.solve`` sets
    workers and time per solve."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = LINEARIZATION_LEVEL
    solver.parameters.cut_level = CUT_LEVEL
    solver.parameters.cp_model_presolve = PRESOLVE
    return solver


class CpsatModel:
    """The CP-SAT model of one ``Problem``: its candidates, its variables (named as in the
    module docstring), the objective "weight of the hand cards played" (maximized), the
    solver and the decoding of a solution into a ``Partition``.

    ``as_lies`` adds table groups as extra candidates, decoded exactly as they lie (hints
    count them to keep groups unchanged). Callers may add constraints to ``model`` and
    replace its objective before ``solve``.
    """

    def __init__(self, problem: Problem, as_lies: Sequence[tuple[int, ...]] = ()) -> None:
        self.problem = problem
        self.slots = needs_slots(problem)
        self.n_jokers = problem.table_jokers + problem.hand_jokers
        self.candidates = candidate_groups(problem, max_group_len(problem))
        self.first_as_lies = len(self.candidates)
        self.as_lies = list(as_lies)
        self.candidates += [self._as_lies_candidate(group) for group in self.as_lies]
        self.model = cp_model.CpModel()
        self.solver = new_solver()
        # x[g]: copies of candidate g on the new table.
        self.x: list[cp_model.IntVar] = []
        # p[c]: hand copies of card c played; f[c]: original singles of c joining a group.
        self.p: list[cp_model.IntVar] = []
        self.f: list[cp_model.IntVar] = []
        # hand_name[c] / table_name[c]: jokers from the hand / the table naming c (empty
        # lists when no joker is in play).
        self.hand_name: list[cp_model.IntVar] = []
        self.table_name: list[cp_model.IntVar] = []
        # ext[l, e]: (tahiti) locked group l survives as its extension e (ext_codes[l, e]).
        self.ext: dict[tuple[int, int], cp_model.IntVar] = {}
        self.ext_codes: dict[tuple[int, int], tuple[int, ...]] = {}
        self._build()

    def _as_lies_candidate(self, group: tuple[int, ...]) -> Candidate:
        """A table group as a candidate: its jokers get slots where jokers need them."""
        jokers = tuple(i for i, c in enumerate(group) if c >= JOKER_CODE) if self.slots else ()
        return Candidate(tuple(c % JOKER_CODE for c in group), jokers)

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        """The constraints of docs/rules.md (module docstring), then the objective."""
        real_use, name_use = self._add_counts()
        if self.n_jokers:
            self._add_jokers(real_use, name_use)
        self._add_card_balances(real_use)
        self._add_opening_rules()
        self.model.maximize(self.played_weight())

    def _add_counts(self) -> tuple[list[list], list[list]]:
        """``x``, ``p``, ``f``; returns per card the candidate counts using it as a real
        card and (with slots) as a joker's name."""
        problem, model = self.problem, self.model
        avail = (problem.need + problem.free + problem.hand).tolist()  # ints: read per card
        n_jokers = self.n_jokers
        for gi, cand in enumerate(self.candidates):
            real = [avail[c] for i, c in enumerate(cand.cards) if i not in cand.jokers]
            top = min(real) if real else n_jokers
            if cand.jokers:
                top = min(top, n_jokers // len(cand.jokers))
            if not self.slots and n_jokers:
                top = min(int(avail[c]) + n_jokers for c in cand.cards)
            self.x.append(model.new_int_var(0, int(top), f"x{gi}"))
        self.p = [model.new_int_var(int(problem.forced[c]), int(problem.hand[c]), f"p{c}")
                  for c in range(N_CARD_TYPES)]
        self.f = [model.new_int_var(0, int(problem.free[c]), f"f{c}")
                  for c in range(N_CARD_TYPES)]
        real_use: list[list] = [[] for _ in range(N_CARD_TYPES)]
        name_use: list[list] = [[] for _ in range(N_CARD_TYPES)]
        for gi, cand in enumerate(self.candidates):
            for i, c in enumerate(cand.cards):
                (name_use if i in cand.jokers else real_use)[c].append(self.x[gi])
        return real_use, name_use

    def _add_jokers(self, real_use: list[list], name_use: list[list]) -> None:
        """Joker names, tahiti's locked groups, naming and vatican's neighbour rules."""
        problem, model = self.problem, self.model
        self.hand_name = [model.new_int_var(0, problem.hand_jokers, f"hn{c}")
                          for c in range(N_CARD_TYPES)]
        self.table_name = [model.new_int_var(0, problem.table_jokers, f"tn{c}")
                           for c in range(N_CARD_TYPES)]
        model.add(sum(self.table_name) == problem.table_jokers)
        model.add(sum(self.hand_name) <= problem.hand_jokers)
        self._add_locked_groups(real_use, name_use)
        if self.slots:
            for c in range(N_CARD_TYPES):
                model.add(sum(name_use[c]) == self.hand_name[c] + self.table_name[c])
        self._add_naming_rules()
        if problem.stuck:
            self._add_stuck_jokers()

    def _add_card_balances(self, real_use: list[list]) -> None:
        """Per real card: the candidates use ``need + p + f`` copies (plus the jokers naming
        it, where a joker is one more copy of its name)."""
        copies = self.n_jokers and not self.slots
        for c in range(N_CARD_TYPES):
            supply = int(self.problem.need[c]) + self.p[c] + self.f[c]
            if copies:  # jokers naming c are copies of c
                supply += self.hand_name[c] + self.table_name[c]
            self.model.add(sum(real_use[c]) == supply)

    def _add_opening_rules(self) -> None:
        """An opening's least points, and (vatican) a 3-card run from the hand."""
        problem, model, p = self.problem, self.model, self.p
        if problem.min_points:
            model.add(sum(int(POINTS[c]) * p[c] for c in range(N_CARD_TYPES))
                      >= problem.min_points)
        if problem.run_from_hand:
            runs = problem.hand_runs()
            # z[r]: the hand's 3-card run r is among the played cards.
            z = [model.new_bool_var(f"z{ri}") for ri in range(len(runs))]
            model.add(sum(z) >= 1)
            for ri, run in enumerate(runs):
                for c in run:
                    model.add(p[c] >= 1).only_enforce_if(z[ri])

    def _add_naming_rules(self) -> None:
        """A joker named X takes a new name only with a real X: on the table, or from the
        hand."""
        problem = self.problem
        for name in np.flatnonzero(problem.joker_names):
            old = int(problem.joker_names[name])
            supply = self.p[name] if problem.joker_rule == "tahiti" else self.p[name] + int(
                problem.table_real[name])
            self.model.add(self.hand_name[name] + self.table_name[name] + supply >= old)

    def _add_locked_groups(self, real_use: list[list], name_use: list[list]) -> None:
        """Tahiti: a locked group survives (grown from the hand) unless a real card from the
        hand frees its joker, which then takes a new name: the groups freed for a name are
        exactly the jokers of that name renamed, ``max(0, old - named)``."""
        model, problem = self.model, self.problem
        freed_by: dict[int, list] = {}
        added: list[list] = [[] for _ in range(N_CARD_TYPES)]  # hand cards grown onto them
        for li, (name, codes) in enumerate(problem.locked):
            keep = model.new_bool_var(f"keep{li}")  # locked group li survives
            options = extensions(problem, codes)
            ext = [model.new_bool_var(f"ext{li}_{e}") for e in range(len(options))]
            model.add(sum(ext) == keep)
            for e, option in enumerate(options):
                self.ext[li, e] = ext[e]
                self.ext_codes[li, e] = option
                for code in option:  # without slots a joker is one more copy of its name
                    uses = name_use if code >= JOKER_CODE and self.slots else real_use
                    uses[code % JOKER_CODE].append(ext[e])
                for code in set(option) - set(codes):
                    added[code].append(ext[e])
            freed_by.setdefault(name, []).append(keep)
        for c in range(N_CARD_TYPES):
            if added[c]:  # only cards from the hand may be added to a locked group
                model.add(sum(added[c]) <= self.p[c])
        for name, keeps in freed_by.items():
            self._add_freed_jokers(name, keeps)

    def _add_freed_jokers(self, name: int, keeps: list) -> None:
        """Tahiti: the locked groups of jokers named ``name`` that break free take new names."""
        model = self.model
        old = int(self.problem.joker_names[name])
        freed = sum(1 - keep for keep in keeps)
        named = self.hand_name[name] + self.table_name[name]
        model.add(freed <= self.p[name])
        model.add(freed + named >= old)
        any_freed = model.new_bool_var(f"anyfreed{name}")
        model.add(freed >= 1).only_enforce_if(any_freed)
        model.add(freed == 0).only_enforce_if(any_freed.negated())
        model.add(freed + named <= old).only_enforce_if(any_freed)

    def _add_stuck_jokers(self) -> None:
        """Vatican: a joker named X with no real X on the table stays beside a card that lay
        next to it, unless a real X is played now. Then every X on the new table is a joker,
        so the shapes holding X must hold the jokers' neighbours: for each set S of such
        jokers, at least |S| of them hold a neighbour of some joker in S (Hall's condition)."""
        model = self.model
        by_name: dict[int, list[tuple[int, ...]]] = {}
        for name, neighbours in self.problem.stuck:
            by_name.setdefault(name, []).append(neighbours)
        for name, needs in by_name.items():
            holding = [(gi, set(cand.cards)) for gi, cand in enumerate(self.candidates)
                       if name in cand.cards]
            free = model.new_bool_var(f"freed{name}")  # freed[X]: a real X is played
            model.add(self.p[name] >= 1).only_enforce_if(free)
            model.add(self.p[name] == 0).only_enforce_if(free.negated())
            for size in range(1, len(needs) + 1):
                for subset in combinations(needs, size):
                    kinds = set().union(*subset)
                    beside = [self.x[gi] for gi, cards in holding if cards & kinds]
                    model.add(sum(beside) >= size).only_enforce_if(free.negated())

    # -- expressions callers constrain -----------------------------------------------------

    def played_weight(self) -> cp_model.LinearExpr | int:
        """The objective: the weight of the hand cards (and hand jokers) played."""
        weight = self.problem.weight
        objective: cp_model.LinearExpr | int = sum(
            int(weight[c]) * self.p[c] for c in range(N_CARD_TYPES))
        if self.hand_name:
            objective += sum(int(weight[c]) * self.hand_name[c] for c in range(N_CARD_TYPES))
        return objective

    def hand_jokers_played(self) -> cp_model.LinearExpr | int:
        """How many jokers from the hand are played (0 when none is in play)."""
        return sum(self.hand_name) if self.hand_name else 0

    def as_lies_kept(self) -> list[cp_model.IntVar]:
        """Per ``as_lies`` group, the count of it kept as it lies."""
        return self.x[self.first_as_lies:]

    def locked_unchanged(self) -> list[cp_model.IntVar]:
        """Per tahiti locked group, the variable saying it stays exactly as it lies (its
        first extension is the group itself)."""
        return [self.ext[li, 0] for li in range(len(self.problem.locked))]

    # -- solving and decoding --------------------------------------------------------------

    def solve(self, limit: Limit | None = None, workers: int = 1) -> Outcome:
        """Solve the model as it stands now, within ``limit`` (its clock and deterministic
        limits: ``solver.limit``); ``MODEL_INVALID`` (a bug in the model) or any status this
        code does not know raises ``SolverError`` naming the status."""
        parameters = self.solver.parameters
        parameters.num_workers = max(1, int(workers))
        seconds = None if limit is None else limit.cpsat_seconds()
        deterministic = None if limit is None else limit.cpsat_deterministic_seconds()
        if seconds is None:
            parameters.clear_max_time_in_seconds()
        else:
            parameters.max_time_in_seconds = seconds
        if deterministic is None:
            parameters.clear_max_deterministic_time()
        else:
            parameters.max_deterministic_time = deterministic
        status = self.solver.solve(self.model)
        outcome = _OUTCOMES.get(status)
        if outcome is None:
            name = getattr(status, "name", str(status))
            detail = self.model.validate() if status == cp_model.MODEL_INVALID else ""
            raise SolverError(f"CP-SAT returned status {name}" + (f": {detail}" if detail
                                                                   else ""))
        return outcome

    def value(self, expression: cp_model.LinearExprT) -> int:
        """The value of ``expression`` in the last solution found."""
        return int(self.solver.value(expression))

    def decode(self, score: int, optimal: bool, *, kept_first: bool = False,
               stats: dict[str, float] | None = None) -> Partition:
        """The last solution as a ``Partition``: the candidates chosen (with their jokers
        marked where jokers are copies of their name), the groups kept as they lie (table
        groups of ``as_lies``, then tahiti's locked groups), after the others or, with
        ``kept_first``, before them."""
        chosen: list[tuple[int, ...]] = []
        kept: list[tuple[int, ...]] = []
        solution = self.solver.response_proto.solution  # every variable's value, read once
        for gi, v in enumerate(self.x):
            count = int(solution[v.index])
            if gi >= self.first_as_lies:
                kept.extend([self.as_lies[gi - self.first_as_lies]] * count)
            else:
                chosen.extend([self.candidates[gi].codes] * count)
        kept += [self.ext_codes[key] for key, v in self.ext.items() if self.value(v)]
        if self.hand_name and not self.slots:
            names = [self.value(self.hand_name[c]) + self.value(self.table_name[c])
                     for c in range(N_CARD_TYPES)]
            for option in kept:  # a kept group already holds its joker
                for code in option:
                    if code >= JOKER_CODE:
                        names[code - JOKER_CODE] -= 1
            chosen = mark_jokers(chosen, names)
        played = np.array([solution[v.index] for v in self.p], dtype=np.int64)
        jokers = self.value(self.hand_jokers_played())
        groups = kept + chosen if kept_first else chosen + kept
        return Partition.from_groups(groups, played, score, optimal, played_jokers=jokers,
                                     **(stats or {}))

    def warm_start_from_table(self) -> None:
        """Hint CP-SAT with the table as it lies (play nothing), where the candidates can
        rebuild it and playing nothing is allowed."""
        problem = self.problem
        if problem.hand_only or problem.run_from_hand or problem.stuck:
            return
        counts = table_hint(problem, self.candidates[:self.first_as_lies])
        if counts is None:
            return
        for v, value in zip(self.x, counts, strict=True):
            self.model.add_hint(v, value)
        for c in range(N_CARD_TYPES):
            self.model.add_hint(self.p[c], 0)
            self.model.add_hint(self.f[c], 0)


def mark_jokers(groups: list[tuple[int, ...]], names: list[int]) -> list[tuple[int, ...]]:
    """Turn ``names[c]`` copies of each card ``c`` among ``groups`` into jokers naming it."""
    left = list(names)
    marked = []
    for group in groups:
        row = list(group)
        for i, c in enumerate(row):
            if c < JOKER_CODE and left[c] > 0:
                row[i] = c + JOKER_CODE
                left[c] -= 1
        marked.append(tuple(row))
    return marked


def table_hint(problem: Problem, candidates: list[Candidate]) -> list[int] | None:
    """Counts of candidates that rebuild the table as it lies (play nothing), or None."""
    index = {cand.codes: gi for gi, cand in enumerate(candidates)}
    plain = not needs_slots(problem)
    counts = [0] * len(candidates)
    locked = {codes for _, codes in problem.locked}
    for group in problem.table_groups:
        if group in locked:
            continue
        if len({c % 13 for c in group}) == 1:
            pieces = [tuple(sorted(group, key=lambda c: c % JOKER_CODE))]
        else:
            pieces, at = [], 0
            for length in split_run_lengths(len(group)):
                pieces.append(tuple(group[at: at + length]))
                at += length
        for piece in pieces:
            if plain:  # jokers are copies of the card they name
                piece = tuple(c % JOKER_CODE for c in piece)
            gi = index.get(piece)
            if gi is None:
                return None
            counts[gi] += 1
    return counts


def split_run_lengths(length: int) -> list[int]:
    """Cut a run of ``length >= 3`` cards into pieces of 3..5 (3s first)."""
    pieces = []
    while length > 5:
        pieces.append(3)
        length -= 3
    return pieces + [length]


def find_play(problem: Problem, limit: Limit | None = None,
              workers: int = 1) -> Partition | None:
    """Exact answer from CP-SAT (with ``limit``, the best found so far, ``optimal``
    False); ``None`` when the table cannot be split into valid groups with the cards that
    must be played. An opening that cannot be made is "nothing played"."""
    started = time.perf_counter()
    cpsat = CpsatModel(problem)
    cpsat.warm_start_from_table()
    outcome = cpsat.solve(limit, workers)
    stats = {"model_ms": (time.perf_counter() - started) * 1000,
             "candidates": float(len(cpsat.candidates))}
    if outcome.found:
        score = int(round(cpsat.solver.objective_value))
        return cpsat.decode(score, outcome is Outcome.OPTIMAL, stats=stats)
    if outcome is Outcome.INFEASIBLE and (problem.hand_only or problem.run_from_hand):
        return nothing_played(problem, optimal=True)  # no opening play exists
    if outcome is Outcome.INFEASIBLE:
        return None
    return nothing_played(problem, optimal=False)  # out of time before any solution


def solve(problem: Problem, limit: Limit | None = None, workers: int = 1) -> Partition:
    """``find_play`` for a table that must split: ``InfeasibleTableError`` (a
    ``ValueError``) when it cannot."""
    partition = find_play(problem, limit, workers)
    if partition is None:
        raise InfeasibleTableError("the table cannot be split into valid groups")
    return partition
