"""Bots playing games through the referee (docs/architecture.md): ``loop`` is the one play
loop (one error type, ``BotError``; one move cap, ``MAX_ACTIONS``); ``selfplay`` and
``tournament`` play on top of it, as do the app's sessions.

Imports from ``solver``, ``bots.referee``, ``bots.players`` and ``bots.envs`` (whose
``levels`` adds OpenSpiel's ``ismcts`` to the ladder) only.
"""
