"""The CP-SAT model object: one solver factory, explicit statuses, infeasibility as a value."""

from pathlib import Path

import numpy as np
import pytest
from ortools.sat.python import cp_model

from solver import Position, analyze
from solver.cards import Card
from solver.cpsat import CpsatModel, Outcome, find_play, solve
from solver.errors import InfeasibleTableError, SolverError
from solver.problem import Problem

SOLVER_DIR = Path(__file__).resolve().parent.parent / "solver"


def _forced(position: Position, card: str) -> Problem:
    forced = np.zeros(52, dtype=np.int64)
    forced[Card.parse(card).index] = 1
    return Problem.from_position(position).with_forced(forced)


def test_cp_solver_is_constructed_in_exactly_one_place():
    places = [(path.name, number) for path in sorted(SOLVER_DIR.glob("*.py"))
              for number, line in enumerate(path.read_text().splitlines(), start=1)
              if "CpSolver(" in line]
    assert len(places) == 1, places
    assert places[0][0] == "cpsat.py"


def test_model_invalid_raises_solver_error_naming_the_status():
    cpsat = CpsatModel(Problem.from_position(Position.make("5H 6H 7H", "KS 2C")))
    zero = cpsat.model.new_int_var(0, 0, "zero")
    cpsat.model.add_division_equality(cpsat.p[0], cpsat.p[1], zero)  # division by zero
    with pytest.raises(SolverError, match="MODEL_INVALID"):
        cpsat.solve()


def test_an_unexpected_status_raises_solver_error(monkeypatch):
    cpsat = CpsatModel(Problem.from_position(Position.make("5H 6H 7H", "4H")))
    monkeypatch.setattr(cpsat.solver, "solve", lambda model: 99)
    with pytest.raises(SolverError, match="status"):
        cpsat.solve()


def test_unknown_outcome_is_nothing_played_and_not_optimal(monkeypatch):
    monkeypatch.setattr(cp_model.CpSolver, "solve", lambda self, model: cp_model.UNKNOWN)
    partition = find_play(Problem.from_position(Position.make("5H 6H 7H", "4H")))
    assert partition is not None
    assert not partition.played.any() and not partition.optimal


def test_an_infeasible_table_is_a_return_value():
    # KS must be played but no group can hold it: the table cannot be split
    problem = _forced(Position.make("5H 6H 7H", "KS 2C"), "KS")
    assert CpsatModel(problem).solve() is Outcome.INFEASIBLE
    assert find_play(problem) is None
    with pytest.raises(InfeasibleTableError, match="cannot be split"):
        solve(problem)
    assert issubclass(InfeasibleTableError, ValueError)


def test_an_opening_that_cannot_be_made_is_nothing_played():
    problem = Problem.from_position(Position.make("-", "KS 2C 9D", "vatican", opened=False))
    partition = find_play(problem)
    assert partition is not None and partition.optimal and not partition.played.any()


def test_forced_card_found_when_a_group_can_hold_it():
    problem = _forced(Position.make("5H 6H 7H", "KS 4H"), "4H")
    partition = find_play(problem)
    assert partition is not None and partition.played[Card.parse("4H").index] == 1


def test_analysis_reports_a_stuck_card_where_cpsat_proves_the_table_infeasible():
    # tahiti with a table joker: the kernel does not apply, CP-SAT decides placeability
    analysis = analyze(Position.parse("5H *6H 7H / KS 4H / tahiti"))
    assert [str(card) for card, _ in analysis.stuck] == ["KS"]
    assert analysis.best_cards == 1


def test_kept_groups_decode_as_they_lie_before_the_others():
    position = Position.parse("5H *6H 7H | 9C 9D 9S / 8H / carousel")
    problem = Problem.from_position(position)
    cpsat = CpsatModel(problem, as_lies=list(problem.table_groups))
    for kept in cpsat.as_lies_kept():
        cpsat.model.add(kept == 1)
    assert cpsat.solve() is Outcome.OPTIMAL
    partition = cpsat.decode(0, True, kept_first=True)
    groups = [tuple(int(c) for c in row[:n])
              for row, n in zip(partition.groups, partition.lengths, strict=True)]
    assert groups[:2] == list(problem.table_groups)
