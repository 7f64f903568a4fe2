"""Keep the garbage collector's full passes off the moves: freeze what a process loaded.

A full (generation 2) collection walks every object the collector tracks. Once the kernels,
OR-Tools and the bots are loaded a process holds about 85,000 of them, nearly all there for
good, and on this 2-core machine with two other processes running a full pass took 70-100 ms
(2026-12-02): over 40 seeded greedy games of manipulation, 5 moves took that long, each one
a full collection (timed with ``gc.callbacks``), and no other move took 20 ms. ``gc.freeze``
moves the objects alive now to a permanent generation that collections skip; frozen after the
warm-up, the same 40 games had no move over 20 ms. What a process makes later (games,
observations, search trees) is collected as before.

Only processes that exist to play or serve moves freeze (the tournament's workers, ``machiavelli
engine`` and ``machiavelli serve``), after their warm-up: a frozen object is never freed, so a
library call (``solver.api.warm_up``) must not do it to its caller's objects.
"""

from __future__ import annotations

import gc


def freeze_loaded() -> int:
    """Collect once, then exclude every object alive now from later collections (code, tables
    and anything else a warm-up loaded). Returns how many objects are frozen in all. Call it
    after loading, not in a loop: each call freezes the objects alive at that moment for
    good."""
    gc.collect()  # what start-up left unreachable goes first: frozen, it would stay
    gc.freeze()
    return gc.get_freeze_count()
