"""machiavelli-engine's game side, in layers (docs/architecture.md): ``referee`` (one game by
the rules), ``players`` (the computer opponents), ``arena`` (bots playing games: self-play and
tournaments) and ``app`` (the command line, terminal play, lessons, the engine protocol).
Each imports only from ``solver`` and the layers before it."""
