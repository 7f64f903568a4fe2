"""The numbers every solver array shares: card codes, the joker code, row width, ace codes.

A real card's code is ``suit * N_RANKS + rank_index`` (suits S H D C as 0..3, rank index 0 the
ace .. 12 the king), so the 52 real cards are codes ``0..51``; a joker standing for the card
``c`` has the code ``JOKER_CODE + c`` (docs/rules.md §1). ``code % JOKER_CODE`` is the card a
code names, ``code % JOKER_CODE // N_RANKS`` its suit, ``code % N_RANKS`` its rank index.
Groups travel between the numba kernels as rows of ``ROW_WIDTH`` codes padded with -1.
"""

from __future__ import annotations

N_RANKS = 13
"""Ranks per suit: ace, 2 .. 10, jack, queen, king."""
N_SUITS = 4
"""Suits: spades, hearts, diamonds, clubs (reading order)."""
N_CARD_TYPES = N_RANKS * N_SUITS
"""Distinct real cards (52); card arrays are indexed by code ``0..51``."""
JOKER_CODE = N_CARD_TYPES
"""Code offset of a joker: ``JOKER_CODE + c`` is a joker standing for card ``c``."""
MAX_RUN = N_RANKS
"""Longest run: every rank once (an ace may close it high, but never at both ends)."""
ROW_WIDTH = MAX_RUN + 1
"""Slots in a padded group row: the longest run with one slot to spare."""

ACE_LOW, ACE_HIGH, ACE_BOTH = 0, 1, 2
"""Where an ace may stand in a run: before the 2 only, after the king only, or either end."""
ACE_CODES = {"low": ACE_LOW, "high": ACE_HIGH, "both": ACE_BOTH}
"""A variant's ``ace`` option as the code the numba kernels take."""

MAX_COPIES = 4
"""Most copies of one card the kernel handles, jokers named after it included."""
MAX_GROUPS = 80
"""Groups a decoded kernel table may hold: at most ``MAX_COPIES * 52`` cards in groups of
three or more, 69 groups, with room to spare."""
MAX_SUIT_OPTIONS = 160
"""Options of one suit at one step of the kernel's search (copies used, jokers, high aces): at
most 55 with ``MAX_COPIES`` copies, with room to spare."""
NO_SCORE = -(1 << 60)
"""The numba searches' score for "no valid answer" (below any real score)."""
NO_CEILING = 1 << 60
"""A kernel search's ``cfg[CEILING]`` when its caller knows no bound on its answer (above any
real score)."""
