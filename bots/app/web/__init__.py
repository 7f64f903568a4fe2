"""The web front end (``machiavelli serve``): a FastAPI app serving the page in ``static/``
and one WebSocket per seat speaking the engine protocol's JSON objects (docs/protocol.md,
"Over a WebSocket")."""
