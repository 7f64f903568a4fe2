"""machiavelli-engine's game side: the command line now; the referee and the bots to come."""
