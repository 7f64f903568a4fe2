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
joker slots use ``hand_name + table_name`` jokers. The rules of RULES.md §8 are the rulings
listed in ``solver.validate``. Objective: maximize the weight of the hand cards played.
Parameters: one worker and ``linearization_level = 2`` by default (the default linearization
took seconds on positions that take milliseconds with 2).
"""

from __future__ import annotations

import time
from itertools import combinations

import numpy as np
from ortools.sat.python import cp_model

from solver.cards import N_CARD_TYPES
from solver.constants import JOKER_CODE
from solver.groups import candidate_runs, candidate_sets, slot_window
from solver.problem import POINTS, Partition, Problem, nothing_played


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


def candidate_groups(problem: Problem, max_len: int = 5) -> list[Candidate]:
    """Candidates whose real cards are all available; with joker slots where jokers must be
    tied to their group (``needs_slots``), else shapes a joker copy may complete."""
    avail = problem.need + problem.free + problem.hand
    jokers = problem.table_jokers + problem.hand_jokers
    result = []
    if not needs_slots(problem):
        for cards in shapes(problem.ace, max_len):
            missing = sum(avail[c] == 0 for c in cards)
            if missing <= jokers:
                result.append(Candidate(cards))
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


def build_model(problem: Problem, candidates: list[Candidate]):
    """A pure function of the problem: ``(model, variables)``."""
    model = cp_model.CpModel()
    avail = problem.need + problem.free + problem.hand
    n_jokers = problem.table_jokers + problem.hand_jokers
    slots = needs_slots(problem)
    # x[g]: copies of candidate g on the new table.
    x = []
    for gi, cand in enumerate(candidates):
        real = [avail[c] for i, c in enumerate(cand.cards) if i not in cand.jokers]
        top = min(real) if real else n_jokers
        if cand.jokers:
            top = min(top, n_jokers // len(cand.jokers))
        if not slots and n_jokers:
            top = min(int(avail[c]) + n_jokers for c in cand.cards)
        x.append(model.new_int_var(0, int(top), f"x{gi}"))
    # p[c]: hand copies of card c played; f[c]: original singles of c joining a group.
    p = [model.new_int_var(int(problem.forced[c]), int(problem.hand[c]), f"p{c}")
         for c in range(N_CARD_TYPES)]
    f = [model.new_int_var(0, int(problem.free[c]), f"f{c}") for c in range(N_CARD_TYPES)]
    real_use: list[list] = [[] for _ in range(N_CARD_TYPES)]
    name_use: list[list] = [[] for _ in range(N_CARD_TYPES)]
    for gi, cand in enumerate(candidates):
        for i, c in enumerate(cand.cards):
            (name_use if i in cand.jokers else real_use)[c].append(x[gi])
    variables = {"x": x, "p": p, "f": f, "hand_name": None, "ext": [], "table_name": None}
    if n_jokers:
        # hand_name[c] / table_name[c]: jokers from the hand / the table that name c.
        hand_name = [model.new_int_var(0, problem.hand_jokers, f"hn{c}") for c in range(52)]
        table_name = [model.new_int_var(0, problem.table_jokers, f"tn{c}") for c in range(52)]
        model.add(sum(table_name) == problem.table_jokers)
        model.add(sum(hand_name) <= problem.hand_jokers)
        variables["hand_name"] = hand_name
        variables["table_name"] = table_name
        _locked_groups(model, problem, real_use, name_use, p, variables)
        if slots:
            for c in range(N_CARD_TYPES):
                model.add(sum(name_use[c]) == hand_name[c] + table_name[c])
        _naming_rules(model, problem, p, hand_name, table_name)
        if problem.stuck:
            _stuck_jokers(model, problem, candidates, x, p)
    for c in range(N_CARD_TYPES):
        supply = int(problem.need[c]) + p[c] + f[c]
        if n_jokers and not slots:  # jokers naming c are copies of c
            supply += variables["hand_name"][c] + variables["table_name"][c]
        model.add(sum(real_use[c]) == supply)
    if problem.min_points:
        model.add(sum(int(POINTS[c]) * p[c] for c in range(N_CARD_TYPES)) >= problem.min_points)
    if problem.run_from_hand:
        runs = problem.hand_runs()
        # z[r]: the hand's 3-card run r is among the played cards.
        z = [model.new_bool_var(f"z{ri}") for ri in range(len(runs))]
        model.add(sum(z) >= 1)
        for ri, run in enumerate(runs):
            for c in run:
                model.add(p[c] >= 1).only_enforce_if(z[ri])
    objective = sum(int(problem.weight[c]) * p[c] for c in range(N_CARD_TYPES))
    if variables["hand_name"] is not None:
        objective += sum(int(problem.weight[c]) * variables["hand_name"][c] for c in range(52))
    model.maximize(objective)
    return model, variables


def _naming_rules(model, problem: Problem, p, hand_name, table_name) -> None:
    """A joker named X takes a new name only with a real X: on the table, or from the hand."""
    for name in np.flatnonzero(problem.joker_names):
        old = int(problem.joker_names[name])
        supply = p[name] if problem.joker_rule == "tahiti" else p[name] + int(
            problem.table_real[name])
        model.add(hand_name[name] + table_name[name] + supply >= old)


def _locked_groups(model, problem: Problem, real_use, name_use, p, variables) -> None:
    """Tahiti: a locked group survives (grown from the hand) unless a real card from the hand
    frees its joker, which then takes a new name: the groups freed for a name are exactly the
    jokers of that name renamed, ``max(0, old - named)``."""
    hand_name, table_name = variables["hand_name"], variables["table_name"]
    freed_by: dict[int, list] = {}
    added: list[list] = [[] for _ in range(N_CARD_TYPES)]  # hand cards grown onto locked groups
    for li, (name, codes) in enumerate(problem.locked):
        keep = model.new_bool_var(f"keep{li}")
        options = extensions(problem, codes)
        ext = [model.new_bool_var(f"ext{li}_{e}") for e in range(len(options))]
        model.add(sum(ext) == keep)
        slots = needs_slots(problem)
        for e, option in enumerate(options):
            variables["ext"].append((ext[e], option))
            for code in option:  # without slots a joker is one more copy of its name
                uses = name_use if code >= JOKER_CODE and slots else real_use
                uses[code % JOKER_CODE].append(ext[e])
            for code in set(option) - set(codes):
                added[code].append(ext[e])
        freed_by.setdefault(name, []).append(keep)
    for c in range(N_CARD_TYPES):
        if added[c]:  # only cards from the hand may be added to a locked group
            model.add(sum(added[c]) <= p[c])
    for name, keeps in freed_by.items():
        old = int(problem.joker_names[name])
        freed = sum(1 - keep for keep in keeps)
        named = hand_name[name] + table_name[name]
        model.add(freed <= p[name])
        model.add(freed + named >= old)
        any_freed = model.new_bool_var(f"anyfreed{name}")
        model.add(freed >= 1).only_enforce_if(any_freed)
        model.add(freed == 0).only_enforce_if(any_freed.negated())
        model.add(freed + named <= old).only_enforce_if(any_freed)


def _stuck_jokers(model, problem: Problem, candidates: list[Candidate], x, p) -> None:
    """Vatican: a joker named X with no real X on the table stays beside a card that lay next
    to it, unless a real X is played now. Then every X on the new table is a joker, so the
    shapes holding X must hold the jokers' neighbours: for each set S of such jokers, at least
    |S| of them hold a neighbour of some joker in S (Hall's condition)."""
    by_name: dict[int, list[tuple[int, ...]]] = {}
    for name, neighbours in problem.stuck:
        by_name.setdefault(name, []).append(neighbours)
    for name, needs in by_name.items():
        holding = [(gi, set(cand.cards)) for gi, cand in enumerate(candidates)
                   if name in cand.cards]
        free = model.new_bool_var(f"freed{name}")  # a real one is played
        model.add(p[name] >= 1).only_enforce_if(free)
        model.add(p[name] == 0).only_enforce_if(free.negated())
        for size in range(1, len(needs) + 1):
            for subset in combinations(needs, size):
                kinds = set().union(*subset)
                beside = [x[gi] for gi, cards in holding if cards & kinds]
                model.add(sum(beside) >= size).only_enforce_if(free.negated())


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


def solve(problem: Problem, time_limit: float | None = None, workers: int = 1) -> Partition:
    """Exact answer from CP-SAT; with ``time_limit`` the best found so far (``optimal`` False)."""
    started = time.perf_counter()
    candidates = candidate_groups(problem, 6 if problem.stuck else 5)
    model, var = build_model(problem, candidates)
    if not problem.hand_only and not problem.run_from_hand and not problem.stuck:
        hint = table_hint(problem, candidates)
        if hint is not None:
            for v, value in zip(var["x"], hint, strict=True):
                model.add_hint(v, value)
            for c in range(N_CARD_TYPES):
                model.add_hint(var["p"][c], 0)
                model.add_hint(var["f"][c], 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.linearization_level = 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    stats = {"model_ms": (time.perf_counter() - started) * 1000,
             "candidates": float(len(candidates))}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen: list[tuple[int, ...]] = []
        for gi, v in enumerate(var["x"]):
            chosen.extend([candidates[gi].codes] * solver.value(v))
        kept = [option for v, option in var["ext"] if solver.value(v)]
        if var["hand_name"] is not None and not needs_slots(problem):
            names = [solver.value(var["hand_name"][c]) + solver.value(var["table_name"][c])
                     for c in range(N_CARD_TYPES)]
            for option in kept:  # a kept locked group already holds its joker
                for code in option:
                    if code >= JOKER_CODE:
                        names[code - JOKER_CODE] -= 1
            chosen = mark_jokers(chosen, names)
        chosen += kept
        played = np.array([solver.value(v) for v in var["p"]], dtype=np.int64)
        jokers = sum(solver.value(v) for v in var["hand_name"]) if var["hand_name"] else 0
        score = int(round(solver.objective_value))
        return Partition.from_groups(chosen, played, score, status == cp_model.OPTIMAL,
                                     played_jokers=int(jokers), **stats)
    if status == cp_model.INFEASIBLE and (problem.hand_only or problem.run_from_hand):
        return nothing_played(problem, optimal=True)  # no opening play exists
    if status == cp_model.INFEASIBLE:
        raise ValueError("the table cannot be split into valid groups")
    return nothing_played(problem, optimal=False)  # out of time before any solution
