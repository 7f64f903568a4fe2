"""The lexicographic hint search (solver.lex_hint, solver.kernel_lex) against CP-SAT's hint."""

from __future__ import annotations

import numpy as np
import pytest

from solver import Limit, Position, automaton, kernel_backend, kernel_lex, lex_dual, lex_hint
from solver.generate import random_position
from solver.hint import changed_groups, hint_position
from solver.problem import Problem

VARIANTS = ("machiavelli", "machiavelli:ace=high", "machiavelli:ace=both")


def disturbance(position: Position, table) -> tuple[int, int]:
    """Table groups (not singles) that do not lie unchanged on ``table``, and their cards."""
    changed, picked_up = changed_groups([g for g in position.table if len(g) > 1], table)
    return len(changed), picked_up


def positions(seed: int, count: int, smallest: int, largest: int):
    """Joker-free positions of every ace mode, both objectives, some with singles."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        position = random_position(rng, VARIANTS[i % 3], int(rng.integers(smallest, largest)),
                                   int(rng.integers(2, 12)), singles=int(i % 4 == 3) * 3,
                                   near=0.8)
        yield position, ("cards", "points")[i % 2]


def _lex(position: Position, objective: str):
    """The lexicographic search's play for ``position`` (it must apply)."""
    problem = Problem.from_position(position, objective)
    groups = list(problem.table_groups)
    assert lex_hint.applies(problem, groups), position
    best = kernel_backend.solve(problem)
    return lex_hint.least_change(problem, groups, best), best


@pytest.mark.parametrize("seed, count, smallest, largest", [
    (0, 120, 6, 40), (1, 100, 40, 76), (2, 60, 60, 101)])
def test_lex_hint_matches_cpsat(seed, count, smallest, largest):
    """Same value, same groups changed, same cards picked up as CP-SAT's hint, on a few
    hundred positions from small tables to full ones (60-100 cards)."""
    played = 0
    for position, objective in positions(seed, count, smallest, largest):
        mine = hint_position(position, objective, backend="kernel")
        theirs = hint_position(position, objective, backend="cpsat")
        assert mine.solution.score == theirs.solution.score, position
        assert (disturbance(position, mine.solution.table)
                == disturbance(position, theirs.solution.table)), (position, objective)
        played += bool(mine.solution.played)
    assert played >= count // 2


def test_the_play_is_valid_and_keeps_its_groups_first():
    """Kept groups come first, exactly as they lay, and the score is the kernel's best (the
    hint re-checks every play by the rules: ``checked_solution``)."""
    for position, objective in positions(7, 30, 40, 90):
        play, best = _lex(position, objective)
        assert play.score == best.score and play.optimal
        groups = [tuple(row[:n]) for row, n in
                  zip(play.groups.tolist(), play.lengths.tolist(), strict=True)]
        table = list(Problem.from_position(position, objective).table_groups)
        kept = len(table) - len(changed_groups(table, groups)[0])
        assert all(group in table for group in groups[:kept])


@pytest.mark.parametrize("text, changed", [
    ("QC KC AC | 5S 5H 5D / JC / machiavelli:ace=high", [1]),
    ("QC KC AC | 5S 5H 5D / 5C / machiavelli:ace=high", [2]),
    ("AC 2C 3C | 5S 5H 5D / 4C / machiavelli", [1]),
    ("4C 5C 6C 7C | 5S 5H 5D / 5C 8C / machiavelli", [1, 2]),
    ("JC QC KC AC | AS AH AD / 10C AC / machiavelli:ace=high", [1, 2]),
    ("9C 10C JC | 9C 10C JC QC | 9S 9H 9D / KC QC / machiavelli", [1]),
])
def test_small_tables(text, changed):
    """Runs closed by a high ace, low-ace runs, a set kept while a run grows, two copies of
    a run: the hint changes exactly the expected groups."""
    position = Position.parse(text)
    result = hint_position(position, backend="kernel")
    assert result.changed_groups == changed
    theirs = hint_position(position, backend="cpsat")
    assert disturbance(position, result.solution.table) == disturbance(
        position, theirs.solution.table)


def test_a_work_cap_gives_up_and_a_limit_keeps_the_value():
    """A capped search returns None or its play so far, flagged; a limit keeps the value."""
    rng = np.random.default_rng(21)
    position = random_position(rng, "machiavelli", 90, 8, near=0.8)
    problem = Problem.from_position(position)
    groups = list(problem.table_groups)
    best = kernel_backend.solve(problem)
    assert lex_hint.least_change(problem, groups, best, max_work=1) is None
    full = lex_hint.least_change(problem, groups, best)
    assert full is not None and full.stats["work"] > 200
    capped = lex_hint.least_change(problem, groups, best, max_work=full.stats["work"] // 2)
    if capped is not None:  # a better play than the kernel's, found before the cap
        assert capped.stats["capped"] and capped.score == best.score
    cut = lex_hint.least_change(problem, groups, best, Limit(work=1))
    assert cut is not None and cut.score == best.score and not cut.optimal


def test_it_does_not_apply_with_jokers_or_locked_groups():
    for text in ("5C *6C 7C | 8S 8D 8H / 8C / carousel", "5C 6C 7C | 8S 8D 8H / 8C * / carousel"):
        problem = Problem.from_position(Position.parse(text))
        assert not lex_hint.applies(problem, list(problem.table_groups))


def _search(position: Position, track_cores: bool):
    """The lexicographic search's best ``value * W + kept`` and work on ``position``."""
    problem = Problem.from_position(position)
    groups = list(problem.table_groups)
    best = kernel_backend.solve(problem)
    tables, parts, each, big = lex_hint.search_tables(problem, groups, best.score,
                                                      track_cores=track_cores)
    floor = best.score * big + int(each[lex_hint._kept(groups, best)].sum()) - 1
    answer = kernel_lex.search(tables, floor, 0, automaton.suit_states(
        lex_hint._copies(problem)), parts[5])
    return int(answer[0]), tables


def test_tracking_hand_cores_keeps_the_answer():
    """The key's hand-core bits only tighten the bound: the same best, with or without."""
    tracked = 0
    for position, _ in positions(11, 12, 60, 101):
        with_bits, tables = _search(position, True)
        without, _ = _search(position, False)
        assert with_bits == without, position
        tracked += bool(tables.core_alive[0])
    assert tracked >= 6


def _min_cover(cores: list[int], weight: list[int], chosen: int = 0) -> int:
    """The least weight of a set of groups meeting every core (bit masks over groups)."""
    open_core = next((core for core in cores if not core & chosen), None)
    if open_core is None:
        return sum(w for i, w in enumerate(weight) if chosen >> i & 1)
    return min(_min_cover(cores, weight, chosen | 1 << i)
               for i in range(len(weight)) if open_core >> i & 1)


def test_the_core_penalty_is_a_lower_bound_of_the_least_cover():
    """At the root every hand core needs one of its groups changed: the penalty is at most
    the least weight of groups meeting every core, and at least what disjoint cores cost."""
    checked = 0
    for position, _ in positions(12, 12, 60, 101):
        problem = Problem.from_position(position)
        best = kernel_backend.solve(problem)
        tables = lex_hint.search_tables(problem, list(problem.table_groups), best.score)[0]
        if best.score != tables.ub_rest[0] or not tables.core_last.shape[0]:
            continue
        n_runs, n_sets = tables.core_shift, int(tables.undecided_sets[0]).bit_length()
        weight = list(tables.run_weight[:n_runs]) + list(tables.set_w[:n_sets])
        cores = [int(runs) | int(sets) << n_runs
                 for runs, sets in zip(tables.core_runs, tables.core_sets, strict=True)]
        disjoint, taken = 0, 0
        for core in cores:
            if not core & taken:
                taken |= core
                disjoint += min(w for i, w in enumerate(weight) if core >> i & 1)
        penalty = kernel_lex._core_penalty(tables, 0, 0)
        assert disjoint <= penalty <= _min_cover(cores, weight), position
        checked += 1
    assert checked >= 6


def _step_by_step(problem: Problem, groups: list, best, max_work: int = 0):
    """``lex_hint.least_change`` as it was written before its one numba call: the tables
    built and returned to Python, the search, then the kept groups and the play laid out in
    Python. ``(play rows, lengths, played, score, optimal, nodes, work)``, or None where
    nothing beat ``best``."""
    tables, parts, each, big = lex_hint.search_tables(problem, groups, best.score)
    if tables is None:
        return None
    floor = best.score * big + int(each[lex_hint._kept(groups, best)].sum()) - 1
    found, complete, nodes, work, kept_runs, kept_sets, made, made_len, used = \
        kernel_lex.search(tables, floor, max_work, automaton.suit_states(
            lex_hint._copies(problem)), parts[5])
    if found == floor:
        return None
    run_group, set_group = parts[4], parts[7]
    kept = [int(run_group[j]) for j in range(run_group.shape[0]) if int(kept_runs) >> j & 1]
    for t, bits in enumerate(kept_sets.tolist()):
        kept += [int(set_group[t, i]) for i in range(set_group.shape[1]) if bits >> i & 1]
    kept_groups = [groups[i] for i in sorted(kept)]
    cards = np.array([card for group in kept_groups for card in group], dtype=np.int64)
    total = used + np.bincount(cards, minlength=used.shape[0])
    played = np.minimum(np.maximum(total - problem.need, 0), problem.hand)
    rows = kept_groups + [tuple(row[:n]) for row, n in zip(made.tolist(), made_len.tolist(),
                                                           strict=True)]
    return rows, played, int(found // big), bool(complete), int(nodes), int(work)


def test_the_one_call_search_is_the_step_by_step_one():
    """``least_change``'s one numba call (tables, search, kept groups and layout) gives the
    play the steps gave one by one, singles on the table or not, capped or not; and
    ``solve_and_least_change`` gives ``kernel_backend.solve``'s play and that one."""
    compared = 0
    for position, objective in positions(31, 40, 20, 101):
        problem = Problem.from_position(position, objective)
        groups = list(problem.table_groups)
        if not lex_hint.applies(problem, groups):
            continue
        best = kernel_backend.solve(problem)
        for max_work in (0, 300):
            expected = _step_by_step(problem, groups, best, max_work)
            got = lex_hint.least_change(problem, groups, best, max_work=max_work)
            solved, least = lex_hint.solve_and_least_change(problem, groups, max_work=max_work)
            assert (solved.groups.tolist(), solved.lengths.tolist(), solved.played.tolist(),
                    solved.score, solved.optimal, solved.stats) == (
                best.groups.tolist(), best.lengths.tolist(), best.played.tolist(),
                best.score, best.optimal, best.stats), position
            if not best.played.any():
                assert least is solved
                continue
            assert (least is None) == (got is None), position
            if got is not None:
                assert (least.groups.tolist(), least.played.tolist(), least.score,
                        least.optimal, least.stats) == (got.groups.tolist(),
                                                        got.played.tolist(), got.score,
                                                        got.optimal, got.stats), position
            if expected is None:  # the cap cut it before it beat the kernel's play
                assert max_work and got is None, position
                continue
            rows, played, score, complete, nodes, work = expected
            assert got is not None, position
            assert [tuple(row[:n]) for row, n in zip(got.groups.tolist(), got.lengths.tolist(),
                                                      strict=True)] == rows, position
            assert got.played.tolist() == played.tolist()
            assert (got.score, got.optimal, got.stats["nodes"], got.stats["work"]) == (
                score, complete, nodes, work)
            # a copy of the groups (not the problem's own tuples) takes the padded path
            again = lex_hint.least_change(problem, [tuple(list(g)) for g in groups], best,
                                          max_work=max_work)
            assert again is not None and again.groups.tolist() == got.groups.tolist()
            compared += 1
    assert compared >= 40


def _runs_by_tuples(groups: list) -> tuple[int, int]:
    """``(most, runs)`` as ``lex_hint.applies`` counted them before it read the rows in
    numba: a loop over the groups' tuples."""
    from solver.constants import N_RANKS
    decided: dict[tuple[int, int], int] = {}
    for group in groups:
        if group[0] % N_RANKS != group[1] % N_RANKS:
            high = group[-1] % N_RANKS == 0 and group[0] % N_RANKS != 0
            where = (group[0] // N_RANKS, 0 if high else group[0] % N_RANKS)
            decided[where] = decided.get(where, 0) + 1
    return max(decided.values(), default=0), sum(decided.values())


def test_applies_reads_the_rows_as_the_tuples_told():
    """``applies`` on the table's rows (groups None), on its groups and on copies of them
    (padded anew) counts the runs, and the most decided at one step, as the loop over tuples
    did (high-ace and low-ace runs, two copies of a run), and answers alike where it applies
    and where it does not (jokers)."""
    cases = [(position, objective) for position, objective in positions(41, 60, 6, 101)]
    cases += [(Position.parse(text), "cards") for text in (
        "5C 6C 7C | 5C 6C 7C 8C / 4C / machiavelli",
        "QC KC AC | QH KH AH | JC QC KC AC | 5S 5H 5D / 10C / machiavelli:ace=high",
        "AC 2C 3C | QC KC AC | 5S 5H 5D / 4C / machiavelli:ace=both",
        "5C *6C 7C | 8S 8D 8H / 8C / carousel")]
    answers, most_seen = set(), 0
    for position, objective in cases:
        problem = Problem.from_position(position, objective)
        groups = list(problem.table_groups)
        counted = _runs_by_tuples(groups)
        for given in (None, groups, [tuple(list(g)) for g in groups]):
            assert tuple(map(int, lex_hint._runs_decided(
                *lex_hint._group_rows(problem, given)))) == counted, position
        expected = lex_hint.applies(problem, groups)
        assert lex_hint.applies(problem) == expected, position
        answers.add(expected)
        most_seen = max(most_seen, counted[0])
    assert answers == {True, False} and most_seen >= 2

def _floor_and_tables(position: Position, objective: str = "cards"):
    problem = Problem.from_position(position, objective)
    groups = list(problem.table_groups)
    best = kernel_backend.solve(problem)
    tables, _, each, big = lex_hint.search_tables(problem, groups, best.score)
    floor = best.score * big + int(each[lex_hint._kept(groups, best)].sum()) - 1
    return tables, floor, best


@pytest.mark.parametrize("seed, count, smallest, largest", [(13, 40, 60, 101), (14, 80, 8, 60)])
def test_the_lagrangian_bound_keeps_the_answer(seed, count, smallest, largest):
    """``lex_dual``'s bound from the first node on (``dual_after`` 0) and never (the search
    as before it) find the same best, on tables of every ace mode, both objectives, some
    with singles (the suite's positions reach the bound only past ``DUAL_AFTER`` work, so
    this is where every node meets it); its root bound is never below that best
    (admissible), and on most of them it is below the search's own root bound."""
    tighter = checked = 0
    for position, objective in positions(seed, count, smallest, largest):
        tables, floor, best = _floor_and_tables(position, objective)
        if not best.played.any():
            continue
        always = kernel_lex._branch_and_bound(tables, floor, 0, 0)
        never = kernel_lex._branch_and_bound(tables, floor, 0, 1 << 62)
        assert always[0] == never[0], (position, objective)
        assert always[2] and never[2]
        root = lex_dual.dual(tables, always[0], (floor + 1) // tables.big, kernel_lex.DUAL_STEPS)
        assert root[0] >= always[0], (position, objective)
        own = tables.ub_rest[0] * tables.big + tables.keep_rest[0]
        tighter += root[0] < own - kernel_lex._core_penalty(tables, 0, 0)
        checked += 1
    assert checked >= count // 2 and tighter >= checked // 2
