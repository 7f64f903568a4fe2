"""The live games of a web server: each with an unguessable id, a secret token per person
seat, a lock that serializes its moves, the sockets connected to it, and the time it was
last used (idle games expire).

Ids and tokens are ``secrets.token_urlsafe(16)`` (128 random bits); a token is compared in
constant time. The registry only holds games; the server (``bots.app.web.server``) decides
who may do what with them.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bots.app.session import PERSON, Session

IDLE_SECONDS = 30 * 60.0  # a game nobody used or watched this long expires

#: Sends one JSON object to one connected socket.
Sender = Callable[[dict[str, Any]], Awaitable[None]]


def new_secret() -> str:
    """An id or token nobody can guess: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(eq=False)
class LiveGame:
    """One game being played on the server."""

    id: str
    session: Session
    tokens: dict[int, str]
    """Person seat -> its secret token."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[int, list[Sender]] = field(default_factory=dict)
    """Seat -> the senders of the sockets connected for it."""
    last_used: float = field(default_factory=time.monotonic)

    def seat_of(self, token: str) -> int | None:
        """The person seat whose token ``token`` is, or None."""
        found = None
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(secret.encode(), token.encode()):
                found = seat
        return found

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def connect(self, seat: int, send: Sender) -> None:
        self.sockets.setdefault(seat, []).append(send)
        self.touch()

    def disconnect(self, seat: int, send: Sender) -> None:
        senders = self.sockets.get(seat, [])
        if send in senders:
            senders.remove(send)
        if not senders:
            self.sockets.pop(seat, None)
        self.touch()

    def connected(self) -> bool:
        return any(self.sockets.values())


class Registry:
    """The server's live games by id; ``expire`` drops the idle ones."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS) -> None:
        self.idle_seconds = idle_seconds
        self.games: dict[str, LiveGame] = {}

    def create(self, session: Session) -> LiveGame:
        """Register a new game: a fresh id, and a fresh token for each person seat."""
        tokens = {seat: new_secret() for seat, level in enumerate(session.seats)
                  if level == PERSON}
        game = LiveGame(new_secret(), session, tokens)
        self.games[game.id] = game
        return game

    def get(self, game_id: str) -> LiveGame | None:
        return self.games.get(game_id)

    def expire(self, now: float | None = None) -> list[str]:
        """Drop the games with no socket connected and no use for ``idle_seconds``; their
        ids. A game whose lock is held (a move or its bots in progress) is in use."""
        now = time.monotonic() if now is None else now
        idle = [game_id for game_id, game in self.games.items()
                if not game.connected() and not game.lock.locked()
                and now - game.last_used >= self.idle_seconds]
        for game_id in idle:
            del self.games[game_id]
        return idle
