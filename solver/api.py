"""``solve()``: validation, backend choice, and a checked, readable ``Solution``.

This is the public entry point (docs/design.md §3). It parses and validates the input once, picks a
backend, and re-checks the backend's answer with ``solver.validate`` before returning it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver import arguments, kernel_backend, one_call
from solver.cards import CARDS, CODES, N_CARD_TYPES, Card, format_cards, format_groups
from solver.constants import ACE_CODES, MAX_COPIES
from solver.counts import new_groups
from solver.counts import solve_counts as solve_counts  # its old home: docs/design.md §3
from solver.errors import SolverError, UnsupportedPositionError
from solver.fastcheck import CHECK_MESSAGES, lay_out_and_check
from solver.limit import KERNEL_WORK_PER_SECOND as KERNEL_WORK_PER_SECOND  # re-exported
from solver.limit import Limit, resolve_limit
from solver.position import HandLike, Position, TableLike, position_of_codes
from solver.position import variant_of as variant_of
from solver.problem import OBJECTIVES, ONES, POINTS, Partition, Problem, read_only
from solver.validate import JOKER, rule_problems
from solver.variants import DEFAULT_VARIANT, Variant
from solver.warmup import elapsed_ms, load_cpsat, load_kernels, load_opening, setup_seconds

BACKENDS = ("auto", "kernel", "cpsat")
MAX_WORKERS = 256  # CP-SAT search threads


@dataclass(frozen=True)
class Solution:
    """The best play found: the hand cards to add and the whole new table."""

    played: list[Card]
    """Hand cards added to the table (empty when nothing can be played)."""
    table: list[tuple[Card, ...]]
    """The whole new table: surviving groups first, in their old order, then new ones."""
    score: int
    """Objective value of the play (cards played, or their points)."""
    optimal: bool
    """True when the backend proved no play scores more."""
    backend: str
    elapsed_ms: float
    objective: str = "cards"
    changed: list[bool] = field(default_factory=list)
    """Per group of ``table``: True if the group is new or was changed."""
    position: Position | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object."""
        return {
            "played": [str(card) for card in self.played],
            "table": [[str(card) for card in group] for group in self.table],
            "score": self.score,
            "optimal": self.optimal,
            "backend": self.backend,
            "elapsed_ms": round(self.elapsed_ms, 3),
        }

    def __str__(self) -> str:
        played = format_cards(self.played) or "nothing"
        return f"play {played} -> {format_groups(self.table)}"

    @classmethod
    def deferred(cls, answer: one_call.Answer, objective: str, elapsed: float) -> Solution:
        """A Solution of the kernel's ``answer`` (``solver.one_call``) whose ``played``,
        ``table``, ``changed`` and ``position`` are built from it when first read
        (``_Deferred``)."""
        solution = object.__new__(cls)
        solution.__dict__.update(score=answer.score, optimal=answer.optimal, backend="kernel",
                                 elapsed_ms=elapsed, objective=objective, _source=answer)
        return solution


class _Deferred:
    """A ``Solution`` field that a solution made by ``Solution.deferred`` builds when first
    read, from its ``one_call.Answer`` (``build``), and keeps: most callers of ``solve`` read
    only the score or the JSON. A non-data descriptor, so that a field set in ``__init__`` (in
    the instance's ``__dict__``) is read as ever."""

    def __init__(self, build: Callable[[one_call.Answer], Any]) -> None:
        self.build = build

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, solution: Solution | None, owner: type | None = None) -> Any:
        if solution is None:
            return self
        value = self.build(solution.__dict__["_source"])
        solution.__dict__[self.name] = value
        return value


def _played_cards(answer: one_call.Answer) -> list[Card]:
    """The played cards in card index order (as ``checked_solution`` lists them)."""
    return list(map(CARDS.__getitem__, np.repeat(ALL_CARDS, answer.played).tolist()))


def _answer_position(answer: one_call.Answer) -> Position:
    return position_of_codes(*answer.position_codes(), answer.rules, True)


for _field, _build in (("played", _played_cards),
                       ("table", lambda answer: _cards_of_rows(answer.rows, answer.lengths)),
                       ("changed", lambda answer: answer.changed.tolist()),
                       ("position", _answer_position)):
    setattr(Solution, _field, _Deferred(_build))
    getattr(Solution, _field).__set_name__(Solution, _field)


def warm_up(backend: str = "kernel") -> None:
    """Load a backend's code now: every numba kernel (``solver.warmup``), and OR-Tools for
    ``cpsat``. ``solve`` does the numba part itself before starting its clock; call this to
    pay for it at a moment of your choosing (a fresh process: about 0.5 s from numba's cache)."""
    load_kernels()
    load_opening()
    if backend == "cpsat":
        load_cpsat()


def solve(
    table: TableLike | Position,
    hand: HandLike = (),
    variant: str | Variant = DEFAULT_VARIANT,
    objective: str = "cards",
    backend: str = "auto",
    time_limit: float | None = None,
    *,
    opened: bool = True,
    workers: int = 1,
    limit: Limit | None = None,
) -> Solution:
    """Best play for ``hand`` on ``table`` under ``variant``.

    ``table`` is a table text (``"5C 6C 7C 8C | 8S 8D 8H"``), a list of groups, or a whole
    ``Position`` (then ``hand``, ``variant`` and ``opened`` are ignored). ``objective`` is
    ``cards`` (hand cards played) or ``points`` (A 1, 2-10 face value, J Q K 10). ``backend``
    ``auto`` uses the kernel. ``limit`` (a ``Limit``: seconds and/or kernel work) stops the
    search early with its best table so far (``optimal=False``); ``time_limit=S`` is
    ``limit=Limit(time=S)`` (giving both is an error). ``opened=False`` applies the variant's
    opening rule. Raises a ``PositionError`` (a ``ValueError``) on bad input, naming the
    offending token. ``elapsed_ms`` leaves out one-time loading (``solver.warmup``).
    """
    started = time.perf_counter()
    arguments.flag("opened", opened)
    if isinstance(table, Position):
        started = _loaded(started)
        position = table
    else:
        rules = variant_of(variant)
        if limit is None and time_limit is None and _usual(rules, objective, backend, workers,
                                                           opened):
            quick = _solve_in_one_call(table, hand, rules, objective, started)
            if quick is not None:
                return quick
        started = _loaded(started)
        position = Position.make(table, hand, rules, opened)
    return _solve_position(position, objective, backend, resolve_limit(limit, time_limit),
                           workers, started)


def _loaded(started: float) -> float:
    """``load_kernels()`` (nothing once done), with ``started`` moved on by its time: loading
    is not part of a solve's ``elapsed_ms``."""
    loading = time.perf_counter()
    load_kernels()
    return started + (time.perf_counter() - loading)


def _usual(rules: Variant, objective: object, backend: object, workers: object,
           opened: bool) -> bool:
    """True for the request ``solver.one_call`` answers: valid arguments, the kernel as
    backend, no joker rules and no opening still to make. Anything else, an argument error
    above all, goes the general way, which checks in the documented order."""
    return opened and rules.joker_rule == "none" and rules.decks <= one_call.DECKS and \
        type(objective) is str and objective in OBJECTIVES and \
        type(backend) is str and backend in ("auto", "kernel") and \
        type(workers) is int and 1 <= workers <= MAX_WORKERS


def _solve_in_one_call(table: object, hand: object, rules: Variant, objective: str,
                       started: float) -> Solution | None:
    """``solve()`` by ``solver.one_call`` (see ``_usual``) for a position given as card texts:
    the ``Solution``, its cards and position built when first read, or None when the general
    path must answer (an odd spelling, a position to reject, jokers, ...)."""
    setup = setup_seconds()
    answer = one_call.solve(table, hand, rules, ONES if objective == "cards" else POINTS)
    if answer is None:
        return None
    return Solution.deferred(answer, objective, elapsed_ms(started, setup))


def _position_in_one_call(position: Position, objective: str, started: float,
                          setup: float) -> Solution | None:
    """``_solve_in_one_call`` for a pre-built ``Position`` (the CLI's, the protocol's): its
    codes taken from its arrays, group after group, no text read again; ``solver.one_call``
    checks and answers as for card texts. The ``Solution``'s position is the one given."""
    rows, lengths = position.group_array
    given = (rows[rows >= 0], lengths.copy(), np.repeat(ALL_CARDS, position.hand_counts()))
    answer = one_call.solve_given(given, position.variant,
                                  ONES if objective == "cards" else POINTS)
    if answer is None:
        return None
    solution = Solution.deferred(answer, objective, elapsed_ms(started, setup))
    solution.__dict__["position"] = position
    return solution


def solve_position(position: Position, objective: str = "cards", backend: str = "auto",
                   time_limit: float | None = None, *, workers: int = 1,
                   limit: Limit | None = None) -> Solution:
    """``solve()`` for an already validated ``Position``."""
    load_kernels()
    started = time.perf_counter()
    return _solve_position(position, objective, backend, resolve_limit(limit, time_limit),
                           workers, started)


def _solve_position(position: Position, objective: str, backend: str, limit: Limit | None,
                    workers: int, started: float, *, one_call_ok: bool = True) -> Solution:
    """The solve itself; ``started`` is when the caller's clock started (a ``solve`` call
    counts its parsing), so that ``elapsed_ms`` covers the whole call minus set-up. The usual
    request (``_usual``, no jokers, no limit) is answered by ``solver.one_call`` from the
    position's codes unless ``one_call_ok`` is False (the tests' reference). With ``auto``, a
    kernel play that fails the re-check (a kernel bug) is answered by CP-SAT instead, so the
    answer stays exact; ``backend="kernel"`` raises the SolverError."""
    setup = setup_seconds()
    arguments.instance("position", position, Position)
    arguments.choice("objective", objective, OBJECTIVES)
    arguments.choice("backend", backend, BACKENDS)
    arguments.integer("workers", workers, 1, MAX_WORKERS)
    if one_call_ok and limit is None and not position.has_jokers and _usual(
            position.variant, objective, backend, workers, position.opened):
        quick = _position_in_one_call(position, objective, started, setup)
        if quick is not None:
            return quick
    problem = Problem.from_position(position, objective)
    used = _backend_for(problem, backend, position, 0 if limit is None else limit.kernel_work())
    if used == "kernel":
        work = 0 if limit is None else limit.kernel_work()
        partition = kernel_backend.solve(problem, node_limit=work)
        try:
            return checked_solution(position, problem, partition, used, objective,
                                    _past_setup(started, setup))
        except SolverError:
            if backend != "auto":
                raise
            used = "cpsat"  # the kernel's play failed the check: CP-SAT answers instead
    partition = load_cpsat().solve(problem, limit, workers=workers)
    return checked_solution(position, problem, partition, used, objective,
                            _past_setup(started, setup))


def _past_setup(started: float, setup: float) -> float:
    """``started`` moved on by the set-up done since ``setup_seconds()`` read ``setup`` (a
    first automaton, OR-Tools' import), so that ``elapsed_ms`` leaves the set-up out."""
    return started + setup_seconds() - setup


def backend_for(position: Position, objective: str = "cards", backend: str = "auto") -> str:
    """The backend ``solve_position`` will use (``kernel`` or ``cpsat``): what to warm up
    before a timed solve, so that a time limit does not pay for loading OR-Tools."""
    arguments.choice("objective", objective, OBJECTIVES)
    arguments.choice("backend", backend, BACKENDS)
    return _backend_for(Problem.from_position(position, objective), backend, position)


def _backend_for(problem: Problem, backend: str, position: Position, work: int = 0) -> str:
    """The backend for ``problem``: ``auto`` is the kernel wherever it is exact (every
    joker-free position at once, without ``why_not``'s array work; joker positions by
    ``kernel_backend.applies``, and tahiti positions with two free jokers whose kernel answer
    keeps one joker per group by ``kernel_backend.certified``, which solves them); CP-SAT
    for the rest. ``work``: the kernel work the certifying search may take (0: none; a
    search cut short certifies nothing, and CP-SAT answers within the caller's limit)."""
    if backend in ("auto", "kernel") and not position.has_jokers and \
            problem.decks <= MAX_COPIES:
        return "kernel"  # the kernel answers every joker-free position exactly
    exact = kernel_backend.applies(problem) or kernel_backend.certified(problem, work)
    if backend == "auto":
        return "kernel" if exact else "cpsat"
    if backend == "kernel" and not exact:
        raise UnsupportedPositionError(
            f"the kernel cannot solve this {position.variant.name} position exactly "
            f"({kernel_backend.why_not(problem)}); use backend 'cpsat' or 'auto'"
        )
    return backend


def checked_solution(position: Position, problem: Problem, partition: Partition, backend: str,
                     objective: str, started: float) -> Solution:
    """Lay out the partition, re-check it, and build the Solution (SolverError: a bug)."""
    return checked_layout(position, problem, partition, backend, objective, started)[0]


def checked_layout(position: Position, problem: Problem, partition: Partition, backend: str,
                   objective: str, started: float) -> tuple[Solution, np.ndarray, np.ndarray]:
    """``checked_solution``, and the new table as the re-check saw it: padded rows of card
    codes and their lengths, the rows of ``Solution.table`` (``solver.hint`` reads the
    changed groups and the steps from them on arrays, not card by card)."""
    played = read_only(partition.played)
    jokers = partition.played_jokers
    old_rows, old_lengths = position.group_array
    new_rows, new_lengths = new_groups(partition, old_rows, old_lengths, need=problem.need,
                                       free=problem.free, hand_only=problem.hand_only)
    rows, lengths, changed, code = lay_out_and_check(
        new_rows, new_lengths, old_rows, old_lengths, position.table_counts(),
        position.single_counts(), position.hand_counts(), played,
        ACE_CODES[position.variant.ace], problem.table_jokers, jokers, problem.hand_jokers)
    problems = [CHECK_MESSAGES[code]] if code else []
    as_cards = _cards_of_rows(rows, lengths)
    played_cards = list(map(CARDS.__getitem__, np.repeat(ALL_CARDS, played).tolist()))
    played_cards += [JOKER] * jokers
    if not problems and (not position.opened or position.variant.joker_rule != "none"):
        problems = rule_problems(position, played_cards, as_cards)  # check_table did the rest
    if problems:
        raise SolverError(f"{backend} proposed an invalid table ({problems[0]}) for {position}")
    score = int(problem.weight @ played) + _joker_score(problem, as_cards, jokers)
    if score != partition.score:
        raise SolverError(f"{backend} reported score {partition.score} for a play worth {score}")
    return Solution(
        played=played_cards, table=as_cards, score=score, optimal=partition.optimal,
        backend=backend, elapsed_ms=(time.perf_counter() - started) * 1000,
        objective=objective, changed=changed.tolist(), position=position,
    ), rows, lengths


ALL_CARDS = np.arange(N_CARD_TYPES)


def _cards_of_rows(rows: np.ndarray, lengths: np.ndarray) -> list[tuple[Card, ...]]:
    """Padded rows of card codes as tuples of ``Card`` (one map over all the codes)."""
    cards = list(map(CODES.__getitem__, rows[rows >= 0].tolist()))
    groups, at = [], 0
    for n in lengths.tolist():
        groups.append(tuple(cards[at: at + n]))
        at += n
    return groups


def _joker_score(problem: Problem, table: list[tuple[Card, ...]], jokers: int) -> int:
    """What the played jokers are worth: jokers are alike, so the hand's count as the most
    valuable names on the new table (1 each under ``cards``)."""
    if jokers == 0:
        return 0
    values = sorted((int(problem.weight[card.index]) for group in table for card in group
                     if card.joker), reverse=True)
    return sum(values[:jokers])
