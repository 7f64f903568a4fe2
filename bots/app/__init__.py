"""What people and programs meet: the ``machiavelli`` command, terminal play, lessons and the
JSON-lines engine protocol (docs/architecture.md). The top layer: it may import every other.
"""
