"""The referee: one game of any variant, played by the rules (docs/rules.md §3-§8).

``game`` deals, runs every variant's turns, judges every proposal with ``solver.validate`` and
scores; ``actions`` are the moves a player may propose; ``observation`` is what one player may
see; ``scoring`` ends hands and matches; ``record`` writes and replays game records. The
referee imports only from ``solver`` (docs/architecture.md).
"""
