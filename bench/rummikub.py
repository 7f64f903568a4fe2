"""Adapter for the PyPI package ``rummikub-solver`` (a MILP model on HiGHS via cvxpy).

Rummikub without jokers is Machiavelli with ace ``low``: numbers 1..13 are A..K, the four
colours are the four suits, two copies of each tile, groups of 3-4 colours, runs of 3+.
"""

from __future__ import annotations

from solver import Position
from solver.cards import SUITS


class RummikubSolver:
    """Solves ace-``low`` positions with rummikub-solver, maximizing tiles played."""

    def __init__(self) -> None:
        from rummikub_solver import MILPSolver, RuleSet

        backend = MILPSolver.HIGHS if MILPSolver.HIGHS in MILPSolver.supported() else None
        self.ruleset = RuleSet(numbers=13, repeats=2, colours=4, jokers=0, solver_backend=backend)
        self.backend = str(self.ruleset.backend)

    def _tile(self, card):
        return self.ruleset.tiles[SUITS.index(card.suit) * 13 + card.rank - 1]

    def state(self, position: Position):
        """The game state for ``position`` (ace ``low`` only)."""
        if position.variant.ace != "low":
            raise ValueError("rummikub-solver knows only low aces")
        state = self.ruleset.new_game()
        state.add_table(*(self._tile(card) for card in position.table_cards))
        state.add_rack(*(self._tile(card) for card in position.hand))
        state.initial = False
        return state

    def solve(self, state) -> int:
        """Number of tiles the best play adds."""
        from rummikub_solver import SolverMode

        proposal = self.ruleset.solve(state, SolverMode.TILE_COUNT)
        return 0 if proposal is None else len(proposal.tiles)
