"""Hints: the best play that disturbs the table least, told as steps a person can follow.

Among the plays that reach the best objective, a hint prefers the one that changes the fewest
table groups, then picks up the fewest table cards (the cards of the groups it changes). The
kernel finds the best objective; a CP-SAT model then asks for it again with the table's
groups as extra candidates, each of which may be *kept* exactly as it lies, and minimizes
``changed * (cards on the table + 1) + picked up`` with the objective fixed (a lexicographic
objective in one solve), warm-started from the kernel's play. The answer is laid out and
re-checked like any solve.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver import arguments
from solver.api import Solution, checked_solution, solve_position
from solver.cards import N_CARD_TYPES, format_cards
from solver.position import HandLike, Position, TableLike
from solver.problem import OBJECTIVES, Partition, Problem
from solver.variants import DEFAULT_VARIANT, Variant

JOKER = N_CARD_TYPES  # code offset of a joker naming a card


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
        """The short form of forced play (RULES.md §4, ``forced_check = hint``): one playable
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
         opened: bool = True, time_limit: float | None = None) -> Hint:
    """The best play that changes the fewest table groups (see the module docstring).
    Raises a ``PositionError`` (a ``ValueError``) on bad input, naming the offending token."""
    arguments.flag("opened", opened)
    if isinstance(table, Position):
        position = table
    else:
        position = Position.make(table, hand, variant, opened=opened)
    return hint_position(position, objective, time_limit)


def hint_position(position: Position, objective: str = "cards",
                  time_limit: float | None = None) -> Hint:
    """``hint()`` for an already validated ``Position``."""
    started = time.perf_counter()
    arguments.instance("position", position, Position)
    arguments.choice("objective", objective, OBJECTIVES)
    time_limit = arguments.seconds("time limit", time_limit)
    best = solve_position(position, objective)
    if not best.played:
        return Hint(best, [], 0, [], (time.perf_counter() - started) * 1000)
    problem = Problem.from_position(position, objective)
    if problem.hand_only:
        solution = best  # an opening from the hand alone leaves the table as it lies
    else:
        partition = _least_disturbing(problem, best, time_limit)
        solution = best if partition is None else checked_solution(
            position, problem, partition, "cpsat", objective, started)
    changed, picked_up = changed_groups(position.table, solution.table)
    steps = explain(position, solution)
    return Hint(solution, changed, picked_up, steps, (time.perf_counter() - started) * 1000)


def changed_groups(old: list | tuple, new: list | tuple) -> tuple[list[int], int]:
    """Numbers (1-based) of the ``old`` groups that do not lie unchanged in ``new``, and
    their card count."""
    left = Counter(_key(group) for group in new)
    changed, picked_up = [], 0
    for number, group in enumerate(old, start=1):
        key = _key(group)
        if left[key] > 0:
            left[key] -= 1
        else:
            changed.append(number)
            picked_up += len(group)
    return changed, picked_up


def _key(group) -> tuple[str, ...]:
    return tuple(sorted(str(card) for card in group))


def _least_disturbing(problem: Problem, best: Solution,
                      time_limit: float | None) -> Partition | None:
    """The CP-SAT answer with the objective fixed at ``best.score`` that keeps the most table
    groups (then picks up the fewest cards); None if CP-SAT finds nothing in time."""
    from ortools.sat.python import cp_model

    from solver import cpsat

    locked = Counter(codes for _, codes in problem.locked)
    keepable = []
    for group in problem.table_groups:
        if locked[group] > 0:
            locked[group] -= 1  # tahiti locked groups have their own keep variables
        else:
            keepable.append(group)
    slots = cpsat.needs_slots(problem)
    candidates = cpsat.candidate_groups(problem, 6 if problem.stuck else 5)
    first_kept = len(candidates)
    for group in keepable:
        cards = tuple(c % JOKER for c in group)
        jokers = tuple(i for i, c in enumerate(group) if c >= JOKER) if slots else ()
        candidates.append(cpsat.Candidate(cards, jokers))
    model, var = cpsat.build_model(problem, candidates)
    x, p = var["x"], var["p"]
    keep = x[first_kept:]
    for k in keep:
        model.add(k <= 1)
    if var["table_name"] is not None and not slots:
        # without slots a joker is a copy of its name: a kept joker keeps its name
        kept_names: list[list] = [[] for _ in range(N_CARD_TYPES)]
        for k, group in zip(keep, keepable, strict=True):
            for c in group:
                if c >= JOKER:
                    kept_names[c - JOKER].append(k)
        for c, ks in enumerate(kept_names):
            if ks:
                model.add(var["table_name"][c] >= sum(ks))
    objective = sum(int(problem.weight[c]) * p[c] for c in range(N_CARD_TYPES))
    if var["hand_name"] is not None:
        objective += sum(int(problem.weight[c]) * var["hand_name"][c] for c in range(52))
    model.add(objective == best.score)
    # changed groups first, then table cards picked up: one weighted sum
    unchanged_locked = _unchanged_locked(problem, var["ext"])
    sizes = [len(group) for group in keepable] + [len(codes) for _, codes in problem.locked]
    weight = sum(sizes) + 1
    stays = list(keep) + unchanged_locked
    model.minimize(sum((weight + size) * (1 - s) for s, size in zip(stays, sizes, strict=True)))
    for k, group in zip(keep, keepable, strict=True):
        model.add_hint(k, 1 if _survives(group, best) else 0)
    played = _played(best)
    for c in range(N_CARD_TYPES):
        model.add_hint(p[c], int(played[c]))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return _decode(problem, solver, var, candidates, first_kept, keepable,
                   status == cp_model.OPTIMAL, best.score)


def _unchanged_locked(problem: Problem, ext: list) -> list:
    """Per tahiti locked group, the variable saying it stays exactly as it lies."""
    from solver.cpsat import extensions

    result, at = [], 0
    for _, codes in problem.locked:
        options = extensions(problem, codes)
        result.append(ext[at][0])  # the first option is the group itself
        at += len(options)
    return result


def _survives(group: tuple[int, ...], solution: Solution) -> bool:
    return any(tuple(card.code for card in new) == group for new in solution.table)


def _played(solution: Solution) -> np.ndarray:
    counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card in solution.played:
        if not card.joker:
            counts[card.index] += 1
    return counts


def _decode(problem: Problem, solver, var, candidates, first_kept: int, keepable: list,
            optimal: bool, score: int) -> Partition:
    """The chosen groups: kept table groups as they lie, the rest with their jokers marked."""
    from solver.cpsat import mark_jokers, needs_slots

    chosen: list[tuple[int, ...]] = []
    kept: list[tuple[int, ...]] = []
    for gi, v in enumerate(var["x"]):
        count = solver.value(v)
        if gi >= first_kept:
            kept.extend([keepable[gi - first_kept]] * count)
        else:
            chosen.extend([candidates[gi].codes] * count)
    kept += [option for v, option in var["ext"] if solver.value(v)]
    if var["hand_name"] is not None and not needs_slots(problem):
        names = [solver.value(var["hand_name"][c]) + solver.value(var["table_name"][c])
                 for c in range(N_CARD_TYPES)]
        for option in kept:  # a kept group already holds its joker
            for code in option:
                if code >= JOKER:
                    names[code - JOKER] -= 1
        chosen = mark_jokers(chosen, names)
    played = np.array([solver.value(v) for v in var["p"]], dtype=np.int64)
    jokers = sum(solver.value(v) for v in var["hand_name"]) if var["hand_name"] else 0
    return Partition.from_groups(kept + chosen, played, score, optimal,
                                 played_jokers=int(jokers))


def explain(position: Position, solution: Solution) -> list[str]:
    """The play as steps: what to take from which table group, and which groups to make from
    it and from the hand. Table groups are numbered as they lie (1-based)."""
    old = [tuple(group) for group in position.table]
    changed, _ = changed_groups(old, solution.table)
    # every table card of a changed group, and every played card, is a source
    pools = {number: Counter(str(card) for card in old[number - 1]) for number in changed}
    new_groups = [group for group, flag in zip(solution.table, solution.changed, strict=True)
                  if flag]
    plan = []  # (new group, {source number or 0 for the hand: [card texts]})
    for group in new_groups:
        want = Counter(str(card) for card in group)
        sources: dict[int, list[str]] = {}
        # the table groups sharing most cards with this one give first
        order = sorted(changed, key=lambda n: -sum((pools[n] & want).values()))
        for number in order:
            share = pools[number] & want
            if share:
                sources[number] = sorted(share.elements(), key=_order_in(group))
                pools[number] -= share
                want -= share
        if want:  # the rest comes from the hand
            sources[0] = sorted(want.elements(), key=_order_in(group))
        plan.append((group, sources))
    # A group split between new groups keeps its biggest share (two cards or more) in
    # place; the rest of it is taken. A group that goes whole into one new group is grown.
    stays: dict[int, tuple[int, list[str]]] = {}  # group number -> (new group, its share)
    for number in sorted(changed):
        shares = [(index, cards) for index, (_, sources) in enumerate(plan)
                  for n, cards in sources.items() if n == number]
        index, cards = max(shares, key=lambda share: len(share[1]))
        if len(cards) >= 2 or len(shares) == 1:
            stays[number] = (index, cards)
    steps = []
    for number in sorted(changed):
        taken = [card for index, (_, sources) in enumerate(plan)
                 for n, cards in sources.items() if n == number
                 and (number not in stays or stays[number][0] != index) for card in cards]
        if taken:
            steps.append(f"take {' '.join(taken)} from group {number}")
    makes = []
    for index, (group, sources) in enumerate(plan):
        text = " ".join(str(card) for card in group)
        bases = [n for n in sources if n and n in stays and stays[n][0] == index]
        parts = [f"your {' '.join(cards)}" if n == 0 else f"{' '.join(cards)} of group {n}"
                 for n, cards in sources.items() if n not in bases]
        added = _join(parts)
        if not bases:
            makes.append(f"lay {text} from your hand" if list(sources) == [0]
                         else f"make {text} from {added}")
            continue
        whole = [n for n in bases if len(stays[n][1]) == len(old[n - 1])]
        names = _join([f"group {n}" if n in whole else f"what is left of group {n}"
                       for n in bases])
        if len(bases) > 1:
            makes.append(f"join {names}" + (f" with {added}" if parts else "") + f": {text}")
        elif parts:
            makes.append(f"add {added} to {names}: {text}")
        else:
            steps.append(f"{names} stays: {text}")
    return steps + makes


def _join(parts: list[str]) -> str:
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _order_in(group) -> Callable[[str], int]:
    position = {}
    for i, card in enumerate(group):
        position.setdefault(str(card), i)
    return lambda text: position.get(text, len(position))


__all__ = ["Hint", "changed_groups", "explain", "hint", "hint_position"]
