"""A Lagrangian root bound for joker positions, next to the kernel's own (issue 12's worst case).

The kernel's searches with jokers prune by per-suit bounds (``kernel.joker_state_bounds``):
each suit's cards follow its run automaton exactly, and the jokers are split among the suits
in half jokers. On the slowest joker positions from real games (``bench.joker_games``) the
best play is one or two cards below that bound, and the search spends thousands of nodes
proving it. This script measures how much of that gap a bound that sees the suits compete
closes: the kernel's own ``kernel.dual_bounds``, with its dynamic programs and its step
sizes, tuned per child of the root or once for the whole root, beside the kernel's per-suit
bound.

The bound splits a play, from a node just after the ace step, into parts linked by two
things, and prices both (Lagrangian relaxation, as ``solver.lex_dual`` does for hints):

- per suit, its cards rank by rank through its run automaton (``suit_values``): a dynamic
  program over (step, automaton state), which pays ``lam[t, s, k]`` for giving ``k`` cards to
  sets at step ``t`` and ``nu`` for each joker naming it in a run;
- per step, the set cards of the four suits (``set_values``): any count vector a step's
  copies allow, laid in as few sets as its largest count, each set filled to three with
  jokers (several may share a set, as in carousel), which earns the ``lam`` of its counts
  and pays ``nu`` per joker;
- plus ``nu`` for every joker still to place.

For any prices with ``nu >= 0`` the sum of the parts' maxima bounds every play below the
node (weak duality); subgradient steps (``STEPS``, each ``DECAY`` times the last) lower it.
The root bound is the best over the ace step's moves of the move's gain plus its child's
bound (the least of this and the kernel's own), the hand jokers' own weight counted apart as
the kernel counts it.

    python -m bench.joker_dual --seed 2718 --variant carousel --slowest 12 --at-root

The positions are ``bench.joker_games``' (the same seeded games), those whose searches expand
the most nodes. It reads only the branches the plain run automaton searches (not tahiti's
flagged ones).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from bench.joker_games import harvest
from solver import Position, kernel, kernel_backend, kernel_jokers, solve
from solver.automaton import set_vectors
from solver.constants import N_SUITS, NO_SCORE
from solver.kernel import N_STEPS
from solver.problem import Problem

STEPS = 80  # subgradient steps per child of the root, at most
FIRST_STEP = kernel.DUAL_FIRST  # the first step's size, as the kernel's ``dual_bounds``
DECAY = kernel.DUAL_DECAY  # each step's size, times the last's
EPSILON = 1e-6  # float slack when a bound is rounded down to cards


def suit_values(cell, delta, accept, lam, nu, wild, choice) -> np.ndarray:
    """``values[t, s, q]``: the most suit ``s`` earns from step ``t`` (1..12) on, from
    automaton state ``q`` (every state), its set cards paying ``lam`` and its run jokers
    ``nu`` each; ``choice[t, s, q]`` the best option's (set cards, next state, jokers).
    The kernel's own dynamic program (``kernel._dual_suit_values``)."""
    n_q = delta.shape[0]
    values = np.full((N_STEPS + 1, N_SUITS, n_q), kernel.DUAL_MINUS)
    values[N_STEPS, :, accept] = 0.0
    every = np.ones((N_STEPS + 1, N_SUITS, n_q), dtype=np.bool_)
    kernel._dual_suit_values(cell, delta, every, lam, nu, wild, values, choice)
    return values


def set_values(cell, lam, nu, copies: int, wild: int, chosen) -> np.ndarray:
    """``values[t]``: the most step ``t``'s sets earn (the ``lam`` of their suits' counts,
    less ``nu`` per joker they need), over every count vector its copies allow with at most
    ``wild`` jokers; ``chosen[t]`` the best vector. The kernel's own
    (``kernel._dual_set_values``)."""
    vectors, jokers, n_vectors = kernel._dual_set_vectors(cell, copies, wild)
    values = np.zeros(N_STEPS)
    rows = np.zeros(N_STEPS, dtype=np.int64)
    kernel._dual_set_values(lam, nu, vectors, jokers, n_vectors, values, rows)
    for t in range(1, N_STEPS):
        chosen[t, :] = vectors[t, rows[t]]
    return values


def child_bound(cell, delta, accept, copies: int, wild: int, states: list[int],
                enough: float) -> float:
    """The least Lagrangian bound found for the child of the root with automaton ``states``
    and ``wild`` jokers left: subgradient steps on the prices, stopping early once the bound
    is below ``enough`` (it proves what was asked)."""
    lam = np.zeros((N_STEPS, N_SUITS, copies + 1))
    nu, size, best = 0.0, FIRST_STEP, math.inf
    choice = np.zeros((N_STEPS + 1, N_SUITS, delta.shape[0], 3), dtype=np.int64)
    chosen = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    for _ in range(STEPS):
        values = suit_values(cell, delta, accept, lam, nu, wild, choice)
        sets = set_values(cell, lam, nu, copies, wild, chosen)
        bound = sum(values[1, s, states[s]] for s in range(N_SUITS)) + sets[1:].sum() + nu * wild
        best = min(best, bound)
        if best < enough:
            break
        slope, joker_slope = _subgradient(states, wild, choice, chosen, lam.shape)
        lam -= size * slope
        nu = max(0.0, nu - size * joker_slope)
        size *= DECAY
    return best


def _subgradient(states, left: int, choice, chosen, shape) -> tuple[np.ndarray, int]:
    """The bound's slope in the prices at one child (automaton ``states``, ``left`` jokers
    to place), from the parts' best choices: per ``lam[t, s, k]``, the sets' use of it less
    the suit's, and for ``nu`` the jokers left less those both parts placed."""
    slope = np.zeros(shape)
    placed = 0
    for s in range(N_SUITS):
        q = states[s]
        for t in range(1, N_STEPS):
            slope[t, s, choice[t, s, q, 0]] -= 1
            placed += choice[t, s, q, 2]
            q = choice[t, s, q, 1]
    for t in range(1, N_STEPS):
        placed += kernel._dual_set_jokers(chosen[t])
        for s in range(N_SUITS):
            slope[t, s, chosen[t, s]] += 1
    return slope, left - placed


def _branch_inputs(problem: Problem, branch):
    """A plain joker branch's kernel inputs and its ace step's moves: ``(cell, delta, accept,
    copies, wild, tables, moves, end)``."""
    cell, cfg, init, delta, accept = kernel_backend._search_inputs(problem, branch, NO_SCORE)
    copies, wild = int(cfg[kernel.COPIES]), int(cfg[kernel.WILD])
    tables = kernel._search_tables(cell, cfg, init, delta, accept, set_vectors(copies),
                                   np.zeros((0, 1), dtype=np.int64),
                                   np.zeros(0, dtype=np.int64), kernel.no_dominators())
    moves, end = kernel._expand_into(0, 0, tables, np.empty(
        (1 << 9, kernel.N_MOVE_FIELDS), dtype=np.int64), 0)
    return cell, delta, accept, copies, wild, tables, moves, end


def tuned_at_root(position: Position, best: int) -> tuple[int, float, float]:
    """One set of prices for the whole root, as a search would tune them before its first
    node, on the first joker branch: ``(steps, bound, milliseconds)``. The root's bound is
    the most over the ace step's moves, and each step's slope is taken at the move that
    gives it; the steps stop once the bound proves ``best``, or after ``STEPS``."""
    started = time.perf_counter()
    problem = Problem.from_position(position)
    branch = kernel_jokers.inputs(problem)[0]
    cell, delta, accept, copies, wild, tables, moves, end = _branch_inputs(problem, branch)
    keys = moves[:end, kernel.MOVE_KEY]
    states = np.array([[kernel._suit_state(key, s) for s in range(N_SUITS)] for key in keys])
    left = wild - keys // kernel.BASE_KEY
    fixed = moves[:end, kernel.MOVE_GAIN] + np.array(
        [kernel._jokers_ahead(tables, 1, key) for key in keys])
    lam, nu, size, bound = np.zeros((N_STEPS, N_SUITS, copies + 1)), 0.0, FIRST_STEP, math.inf
    choice = np.zeros((N_STEPS + 1, N_SUITS, delta.shape[0], 3), dtype=np.int64)
    chosen = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    steps, goal = 0, best - kernel_backend._taken(problem, branch)
    while steps < STEPS and (steps == 0 or math.floor(bound + EPSILON) > goal):
        steps += 1
        values = suit_values(cell, delta, accept, lam, nu, wild, choice)
        sets = set_values(cell, lam, nu, copies, wild, chosen)
        children = fixed + values[1, np.arange(N_SUITS), states].sum(axis=1) + \
            sets[1:].sum() + nu * left
        top = int(np.argmax(children))
        bound = min(bound, float(children[top]))
        slope, joker_slope = _subgradient(states[top], int(left[top]), choice, chosen,
                                          lam.shape)
        lam -= size * slope
        nu = max(0.0, nu - size * joker_slope)
        size *= DECAY
    return steps, bound + kernel_backend._taken(problem, branch), \
        (time.perf_counter() - started) * 1000


def root_bounds(position: Position, best: int) -> list[tuple[int, int]]:
    """Per plain joker branch of ``position``: ``(kernel's root bound, the Lagrangian one)``,
    each plus what the branch's kept groups took; the Lagrangian steps stop once a child
    is proved unable to beat ``best``."""
    problem = Problem.from_position(position)
    rows = []
    for branch in kernel_jokers.inputs(problem):
        cell, delta, accept, copies, wild, tables, moves, end = _branch_inputs(problem, branch)
        taken = kernel_backend._taken(problem, branch)
        gains = kernel._gain_bounds(cell)
        suits = kernel._suit_state_bounds(tables, accept, wild)
        split = np.zeros(2 * wild + 1, dtype=np.int64)
        own = dual = NO_SCORE
        for i in range(end):
            key, gain = int(moves[i, kernel.MOVE_KEY]), int(moves[i, kernel.MOVE_GAIN])
            bound = int(kernel._node_bound(tables, gains, suits, kernel.NO_PAIRS, split, 1, key,
                                           NO_SCORE))
            own = max(own, gain + bound)
            if gain + bound > best - taken:
                ahead = int(kernel._jokers_ahead(tables, 1, key))
                states = [int(kernel._suit_state(key, s)) for s in range(N_SUITS)]
                lagrangian = child_bound(cell, delta, accept, copies,
                                         wild - key // kernel.BASE_KEY, states,
                                         best - taken - gain - ahead + 1)
                bound = min(bound, math.floor(lagrangian + EPSILON) + ahead)
            dual = max(dual, gain + bound)
        if own > NO_SCORE:
            rows.append((own + taken, dual + taken))
    return rows


def slowest_positions(variant: str, games: int, seed: int,
                      count: int) -> list[tuple[int, Position]]:
    """The ``count`` joker positions of ``bench.joker_games``' seeded games of ``variant``
    on which the kernel's search expands the most nodes (a count the machine's load does not
    change), most first, with those nodes."""
    ranked = []
    for position in harvest(variant, games, seed):
        before = kernel_backend.nodes_expanded()
        kernel_backend.solve(Problem.from_position(position))
        ranked.append((kernel_backend.nodes_expanded() - before, position))
    ranked.sort(key=lambda pair: -pair[0])
    return ranked[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example: python -m bench.joker_dual --seed 2718 "
                                            "--variant carousel --slowest 12 --at-root")
    parser.add_argument("--variant", default="carousel", choices=("carousel", "vatican",
                                                                  "tahiti"))
    parser.add_argument("--games", type=int, default=25, help="games (bench.joker_games')")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slowest", type=int, default=12,
                        help="positions to bound: those whose searches expand the most nodes")
    parser.add_argument("--at-root", action="store_true",
                        help="also tune one set of prices for the whole root, as a search "
                             "would, and report its steps and time")
    args = parser.parse_args(argv)
    ranked = slowest_positions(args.variant, args.games, args.seed, args.slowest)
    closed = gapped = 0
    for nodes, position in ranked:
        best = solve(position).score
        bounds = root_bounds(position, best)
        own = max((b[0] for b in bounds), default=NO_SCORE)
        dual = max((b[1] for b in bounds), default=NO_SCORE)
        if dual < best:
            print(f"the Lagrangian bound {dual} is below the best play {best}: {position}",
                  file=sys.stderr)
            return 1
        gapped += own > best
        closed += own > best and dual == best
        line = (f"{nodes:6d} nodes  best {best:3d}  kernel root bound {own:3d}  "
                f"Lagrangian {dual:3d}  {len(position.hand)} hand cards")
        if args.at_root and own > best:
            steps, bound, ms = tuned_at_root(position, best)
            line += f"  at the root: {bound:.2f} after {steps} steps, {ms:.1f} ms"
        print(line, flush=True)
    print(f"{gapped} of the {len(ranked)} with the most nodes have a gap at the root; "
          f"the Lagrangian bound closes {closed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
