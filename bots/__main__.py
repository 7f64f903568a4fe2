"""``python -m bots``: the ``machiavelli`` command."""

from bots.app.cli import entry_point

entry_point()
