"""What one socket may do for its person seat of a live game (``/ws/game/{id}``): the
commands ``state``, ``move``, ``place``, ``hint``, ``analyze``, ``solve`` and ``save``, and
the state pushed to every other connected seat after a change.

A game's moves are serialized by its lock; bots and the solver run in the server's worker
pool, so the event loop (and every other game) goes on meanwhile. Everything sent is built
for the seat (``bots.app.web.views``) from its own observation.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from bots.app.protocol import Engine, RequestError, events_json
from bots.app.session import Event
from bots.app.web.games import LiveGame, Sender
from bots.app.web.views import seat_record, seat_state
from bots.referee.actions import Action, action_from_json, action_to_json
from bots.referee.observation import Observation
from solver.cards import parse_cards

Result = TypeVar("Result")
ADVICE = ("hint", "analyze", "solve")  # the engine's commands on the seat's own view


class SeatConnection:
    """One socket's commands for ``seat`` of ``live``; ``send`` reaches that socket."""

    def __init__(self, live: LiveGame, seat: int, send: Sender, executor: Executor) -> None:
        self.live = live
        self.seat = seat
        self.send = send
        self.executor = executor
        self.handlers = {"state": self.state, "move": self.move, "place": self.place,
                         "hint": self.advice, "analyze": self.advice, "solve": self.advice,
                         "save": self.save}

    async def state(self, request: dict[str, Any]) -> dict[str, Any]:
        async with self.live.lock:
            return seat_state(self.live.session, self.seat)

    async def move(self, request: dict[str, Any]) -> dict[str, Any]:
        """Carry out the seat's action, then let the bots move; the answer has the events,
        the seat's new state, and ``thinking_ms``: the bots' share of the time."""
        action = action_from_json(request.get("action"))
        async with self.live.lock:
            self._require_turn()
            events, thinking = await self.run(self._move_then_bots, action)
            answer = {"events": events_json(events), "thinking_ms": round(thinking, 3),
                      **seat_state(self.live.session, self.seat)}
            pushes = state_pushes(self.live, skip=self.send)
        await send_all(pushes)
        return answer

    async def place(self, request: dict[str, Any]) -> dict[str, Any]:
        """Auto-place: a table adding the named hand cards (nothing is applied)."""
        cards = request.get("cards")
        if not isinstance(cards, (list, str)):
            raise RequestError("'place' needs 'cards': the hand cards to place")
        wanted = parse_cards(cards)
        async with self.live.lock:
            self._require_turn()
            play = await self.run(self.live.session.arrange, wanted)
        return {"play": action_to_json(play)}

    async def advice(self, request: dict[str, Any]) -> dict[str, Any]:
        """``hint``, ``analyze`` or ``solve`` on this seat's own view, on its turn."""
        async with self.live.lock:
            self._require_turn()
            seen = self.live.session.observation(self.seat)
        return await self.run(position_command, seen, request)

    async def save(self, request: dict[str, Any]) -> dict[str, Any]:
        async with self.live.lock:
            return {"record": seat_record(self.live.session.game, self.seat)}

    # -- helpers -------------------------------------------------------------------------
    async def run(self, work: Callable[..., Result], *args: Any) -> Result:
        """``work(*args)`` in the worker pool: the event loop answers others meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    def _require_turn(self) -> None:
        session = self.live.session
        if session.over:
            raise RequestError("the game is over")
        if session.current != self.seat:
            raise RequestError(f"it is {session.names[session.current]}'s turn, not yours")

    def _move_then_bots(self, action: Action) -> tuple[list[Event], float]:
        session = self.live.session
        events = session.apply(action)
        started = time.perf_counter()
        events += session.run_bots()
        return events, (time.perf_counter() - started) * 1000


def position_command(seen: Observation, request: dict[str, Any]) -> dict[str, Any]:
    """The engine's ``hint``, ``analyze`` or ``solve`` answer (without ``ok``) on what a seat
    ``seen``: the protocol's own handler, on the position the seat may see (``analyze``'s
    rollouts against the game's hand sizes and stock)."""
    engine = Engine((), io.StringIO())
    engine.position, engine.seen = seen.position(), seen
    command = request.get("cmd")
    if command not in ADVICE:
        raise RequestError(f"not an advice command: {command!r}")
    return engine.handlers[command](request)


def state_pushes(live: LiveGame, skip: Sender | None = None
                 ) -> list[tuple[Sender, dict[str, Any]]]:
    """The state push for every connected socket of ``live`` (but ``skip``), each built for
    its own seat; build them under the game's lock, send them after."""
    pushes: list[tuple[Sender, dict[str, Any]]] = []
    for seat, senders in live.sockets.items():
        message = {"push": "state", **seat_state(live.session, seat)}
        pushes.extend((send, message) for send in senders if send is not skip)
    return pushes


async def send_all(pushes: list[tuple[Sender, dict[str, Any]]]) -> None:
    """Send each push; a socket that has gone away is skipped (it rejoins with its token)."""
    for send, message in pushes:
        try:
            await send(message)
        except Exception:  # noqa: BLE001 - a closed socket must not fail the mover's answer
            continue

