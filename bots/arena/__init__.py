"""Bots playing games through the referee: self-play and tournaments (docs/architecture.md).

Imports from ``solver``, ``bots.referee`` and ``bots.players`` only.
"""
