"""Errors raised for bad input, split by why the input failed (as python-chess does).

Every error about user input is a ``ValueError`` subclass whose message names the offending
token, so a command line can print it as one line and a program can catch it precisely.
"""

from __future__ import annotations


class PositionError(ValueError):
    """Base class of every error about a card, a table, a hand, a variant or a position."""


class InvalidCardError(PositionError):
    """A card text that is not a card (malformed: ``1H``, ``ZZ``, ``10``)."""


class TooManyCopiesError(PositionError):
    """More copies of a card (or more jokers) than the variant's decks hold."""


class InvalidGroupError(PositionError):
    """A group on the starting table that is neither a set nor a run under the variant."""


class InvalidTableError(PositionError):
    """A table that is not valid as a whole (bad singles, jokers where none are allowed...)."""


class UnknownVariantError(PositionError):
    """A variant name the engine does not know."""


class UnknownOptionError(PositionError):
    """An option name the variant does not have."""


class InvalidOptionError(PositionError):
    """A known option given a value outside its allowed set, or given twice."""


class ConflictingOptionsError(InvalidOptionError):
    """Options that are each allowed but contradict each other (``helpers=4,deal=15``)."""


class MalformedPositionError(PositionError):
    """A position text or JSON document that cannot be read (missing field, broken JSON)."""


class UnsupportedPositionError(PositionError):
    """A well-formed position that the requested backend cannot solve (e.g. jokers)."""


class InvalidArgumentError(InvalidOptionError):
    """A function or command argument of the wrong type or out of range (a seed, a count, a
    time limit, a flag, an objective), named in the message. An ``InvalidOptionError``, so
    code that caught that for a bad objective or time limit still does."""


class SolverError(RuntimeError):
    """An internal failure: a backend produced a table the validator rejects. Always a bug."""


class InfeasibleTableError(InvalidTableError):
    """A table that cannot be split into valid groups together with the cards that must be
    played (CP-SAT proved it infeasible)."""


def clip(text: str, limit: int = 80) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when cut: error
    messages quote user input through this, so a huge input never makes a huge message."""
    return text if len(text) <= limit else text[:max(limit - 3, 0)] + "..."


def cannot(what: str, error: BaseException) -> str:
    """The one-line message for an operating-system call that failed: ``cannot read x.json:
    No such file or directory``. The reason is the error's ``strerror`` where it has one,
    else its text (a timeout's, an address's ``UnicodeError``); never ``None``."""
    reason = getattr(error, "strerror", None) or error
    return f"cannot {what}: {reason}"
