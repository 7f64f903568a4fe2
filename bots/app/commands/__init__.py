"""The ``machiavelli`` subcommands, one ``add_<command>``/``run_<command>`` pair each.

``add_<command>(sub)`` declares the subcommand and its arguments (the shared ones come from
``common``) and sets ``run`` to its ``run_<command>(args)``, which returns the exit status.
``ADDERS`` lists them in the order ``machiavelli --help`` shows them.
"""

from __future__ import annotations

from bots.app.commands.games import add_replay, add_selfplay, add_tournament
from bots.app.commands.interactive import add_engine, add_learn, add_play
from bots.app.commands.positions import add_analyze, add_demo, add_hint, add_solve
from bots.app.commands.serving import add_serve

ADDERS = (add_solve, add_hint, add_analyze, add_selfplay, add_tournament, add_play, add_learn,
          add_engine, add_serve, add_replay, add_demo)

__all__ = ["ADDERS"]
