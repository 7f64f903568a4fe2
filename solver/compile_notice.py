"""Say once when numba starts compiling this package's kernels, which takes minutes.

A fresh install, an upgrade or an edit to any ``solver/*.py`` file (``solver.cache_stamp``)
leaves numba's on-disk cache without this package's machine code: the first solve then
compiles every kernel it reaches, a few minutes in all, and a command line that says nothing
meanwhile looks hung (the engine answered its first ``hint`` after about three minutes).
Loading cached code fires no compile event, so the notice appears only when there is
compiling to do, once a process.

The notice is an ``INFO`` record of the ``solver.compile`` logger: a library stays quiet
unless its caller asks, and the command line (``bots.app.cli``) shows it on stderr.
"""

from __future__ import annotations

import logging
import threading

from numba.core import event

LOGGER = logging.getLogger("solver.compile")
MESSAGE = ("compiling the solver's kernels (the first run after an install or an upgrade "
           "takes a few minutes; later runs load them from numba's cache)")
PACKAGE_PREFIX = "solver."  # the modules whose kernels count


class _FirstCompile(event.Listener):
    """Logs ``MESSAGE`` at the first compile of a kernel of this package, then never again."""

    def __init__(self) -> None:
        self._told = threading.Event()

    def on_start(self, ev: event.Event) -> None:
        if self._told.is_set():
            return
        function = getattr(ev.data.get("dispatcher"), "py_func", None)
        if getattr(function, "__module__", "").startswith(PACKAGE_PREFIX):
            self._told.set()
            LOGGER.info(MESSAGE)

    def on_end(self, ev: event.Event) -> None:
        pass


_listener = _FirstCompile()
event.register("numba:compile", _listener)
