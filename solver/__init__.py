"""machiavelli-engine's rules core and exact move solver.

>>> from solver import solve
>>> solution = solve("5C 6C 7C 8C", "8D 8H")
>>> [str(card) for card in solution.played]
['8H', '8D']
>>> solution.score
2
"""

import solver.numba_import  # noqa: F401  (first: it imports numba lightly, see its docstring)

# isort: split
import solver.cache_stamp  # noqa: F401  (second: before any kernel, see its docstring)
import solver.compile_notice  # noqa: F401  (before any kernel: says when numba compiles)

# isort: split
from solver.analysis import Analysis, analyze
from solver.api import Solution, solve, solve_position
from solver.cards import Card, format_cards, format_groups, parse_cards, parse_groups
from solver.errors import (
    ConflictingOptionsError,
    InvalidCardError,
    InvalidGroupError,
    InvalidOptionError,
    InvalidTableError,
    MalformedPositionError,
    PositionError,
    SolverError,
    TooManyCopiesError,
    UnknownOptionError,
    UnknownVariantError,
    UnsupportedPositionError,
)
from solver.hint import Hint, hint
from solver.limit import Limit
from solver.position import Position
from solver.variants import VARIANT_NAMES, Variant

__all__ = [
    "Analysis", "Card", "ConflictingOptionsError", "Hint", "InvalidCardError",
    "InvalidGroupError", "InvalidOptionError", "InvalidTableError", "Limit",
    "MalformedPositionError", "Position", "PositionError", "Solution", "SolverError",
    "TooManyCopiesError", "UnknownOptionError", "UnknownVariantError",
    "UnsupportedPositionError", "VARIANT_NAMES", "Variant", "format_cards", "format_groups",
    "analyze", "hint", "parse_cards", "parse_groups", "solve", "solve_position",
]
