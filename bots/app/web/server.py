"""``machiavelli serve``: the FastAPI app of the web front end (docs/protocol.md, "Over a
WebSocket").

- ``GET /`` and ``/table.html``, ``/position.html``, ``/record.html``, ``/static/...``: the
  page (``static/``, no build step).
- ``GET /api/info``: the engine's ``hello``, the variants' options, the bot levels.
- ``POST /api/games``: a new game; its id and a secret token (and link) per person seat.
- ``POST /api/replay``: a record's positions, step by step.
- ``/ws/game/{id}?token=T``: one person seat's socket (``bots.app.web.seats``).
- ``/ws/position``: a stateless engine for the position page.

Bots and the solver run in a thread pool, so one game's expert never delays another game's
answers; idle games expire (``bots.app.web.games``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from bots.app.protocol import (
    Engine,
    RequestError,
    budget_field,
    command_of,
    failure,
    read_request,
    with_id,
)
from bots.app.session import Session, seat_levels
from bots.app.web.games import IDLE_SECONDS, LiveGame, Registry
from bots.app.web.replays import record_steps
from bots.app.web.seats import SeatConnection, send_all, state_pushes
from bots.app.web.views import PERSON_KIND, seat_kind
from bots.players import REGISTRY
from solver import arguments
from solver.variants import VARIANT_NAMES, option_specs

STATIC = Path(__file__).resolve().parent / "static"
PAGES = ("table", "position", "record")  # served as /<page>.html
MAX_MESSAGE = 64 * 1024  # bytes in one WebSocket message or a new game's body
MAX_RECORD = 16 * 1024 * 1024  # bytes in a record sent to /api/replay
WORKERS = 32  # bots and solver calls running at once (the rest wait their turn)
POSITION_COMMANDS = ("hello", "position", "solve", "hint", "analyze")
BAD_TOKEN = 4403  # close code: not this seat's token
NO_GAME = 4404  # close code: no such game (never created, or expired)
MIN_SWEEP = 0.01  # seconds between two looks for idle games, at the least

#: Answers one request text (the engine protocol's answer object, ``id`` echoed).
Answerer = Callable[[str | bytes], Awaitable[dict[str, Any]]]


def create_app(idle_seconds: float = IDLE_SECONDS, sweep_seconds: float | None = None,
               workers: int = WORKERS) -> FastAPI:
    """The web app: its games expire after ``idle_seconds`` unused and unwatched, checked
    every ``sweep_seconds`` (default: a quarter of that, at most a minute)."""
    registry = Registry(idle_seconds)
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="machiavelli-web")
    sweep = sweep_seconds if sweep_seconds is not None else min(60.0, idle_seconds / 4)
    sweep = max(sweep, MIN_SWEEP)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_expire_forever(registry, sweep))
        yield
        task.cancel()
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="machiavelli-engine", lifespan=lifespan)
    app.state.registry = registry
    app.state.executor = executor
    app.state.tasks = set()
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    _add_pages(app)
    _add_api(app)
    _add_sockets(app)
    return app


async def _expire_forever(registry: Registry, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        registry.expire()


def _add_pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    for page in PAGES:
        app.add_api_route(f"/{page}.html", _page_route(page), include_in_schema=False)


def _page_route(page: str) -> Callable[[], Awaitable[FileResponse]]:
    async def serve_page() -> FileResponse:
        return FileResponse(STATIC / f"{page}.html")

    return serve_page


def _add_api(app: FastAPI) -> None:
    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        hello = Engine((), io.StringIO()).hello({})
        variants = {name: {"options": option_specs(name), **_player_range(name)}
                    for name in VARIANT_NAMES}
        return {"ok": True, **hello, "variant_options": variants, "levels": list(REGISTRY),
                "seat_kinds": [PERSON_KIND, *REGISTRY]}

    @app.post("/api/games")
    async def new_game(request: Request) -> Response:
        try:
            body = await _json_body(request, MAX_MESSAGE)
            live = app.state.registry.create(_session(body))
        except Exception as error:  # noqa: BLE001 - every refusal is one line, status 400
            return _refusal(error)
        _start_bots(app, live)
        return JSONResponse({"ok": True, "game": live.id, "seats": _seat_links(live)})

    @app.post("/api/replay")
    async def replay(request: Request) -> Response:
        try:
            body = await _json_body(request, MAX_RECORD)
            loop = asyncio.get_running_loop()
            steps = await loop.run_in_executor(app.state.executor, record_steps,
                                               body.get("record"))
        except Exception as error:  # noqa: BLE001 - every refusal is one line, status 400
            return _refusal(error)
        return JSONResponse({"ok": True, "steps": steps})


def _player_range(name: str) -> dict[str, int]:
    from solver.variants import Variant

    variant = Variant.parse(name)
    return {"min_players": variant.min_players, "max_players": variant.max_players}


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, at most ``limit`` bytes (else ``RequestError``)."""
    body = await request.body()
    if len(body) > limit:
        raise RequestError(f"the request body is over {limit // 1024} KiB")
    return read_request(body)


def _refusal(error: Exception) -> JSONResponse:
    return JSONResponse(failure(error), status_code=400)


def _session(body: dict[str, Any]) -> Session:
    """The session a ``POST /api/games`` body asks for (a ValueError says what is wrong)."""
    seats = body.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 5 or \
            not all(isinstance(seat, str) for seat in seats):
        raise RequestError(f"'seats' is a list of 2 to 5 seats: {PERSON_KIND!r} or a bot level "
                           f"({', '.join(REGISTRY)})")
    if PERSON_KIND not in seats:
        raise RequestError(f"at least one seat is a {PERSON_KIND!r}")
    variant = body.get("variant", "machiavelli")
    if not isinstance(variant, str):
        raise RequestError("'variant' is a text such as 'machiavelli:ace=low'")
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbits(48)  # the lobby left it to chance: a new deal
    return Session(variant, seat_levels(seats, PERSON_KIND), arguments.seed("'seed'", seed),
                   budget_field(body))


def _seat_links(live: LiveGame) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = []
    for seat, level in enumerate(live.session.seats):
        entry: dict[str, Any] = {"seat": seat, "kind": seat_kind(level)}
        if seat in live.tokens:
            token = live.tokens[seat]
            entry.update(token=token, link=f"/table.html?game={live.id}&seat={seat}&token={token}")
        seats.append(entry)
    return seats


def _start_bots(app: FastAPI, live: LiveGame) -> None:
    """Let the bots seated before the first person move, in the background."""
    if live.session.person_to_move() or live.session.over:
        return

    async def advance() -> None:
        async with live.lock:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(app.state.executor, live.session.run_bots)
            pushes = state_pushes(live)
        await send_all(pushes)

    task = asyncio.create_task(advance())
    app.state.tasks.add(task)
    task.add_done_callback(app.state.tasks.discard)


def _add_sockets(app: FastAPI) -> None:
    @app.websocket("/ws/game/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str, token: str = "") -> None:
        await websocket.accept()
        live = app.state.registry.get(game_id)
        seat = live.seat_of(token) if live is not None else None
        if live is None or seat is None:
            error = "no such game (it may have expired)" if live is None else \
                "this token is not a seat of this game"
            await websocket.send_json({"ok": False, "error": error})
            await websocket.close(code=NO_GAME if live is None else BAD_TOKEN)
            return
        await _serve_seat(websocket, live, seat, app.state.executor)

    @app.websocket("/ws/position")
    async def position_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        engine = Engine((), io.StringIO())
        engine.handlers = {name: engine.handlers[name] for name in POSITION_COMMANDS}
        loop = asyncio.get_running_loop()

        async def answer(text: str | bytes) -> dict[str, Any]:
            return await loop.run_in_executor(app.state.executor, engine.answer, text)

        await _serve_socket(websocket, answer)


async def _serve_seat(websocket: WebSocket, live: LiveGame, seat: int,
                      executor: ThreadPoolExecutor) -> None:
    """Serve one seat's socket: push its state now, then answer its requests."""
    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(json.dumps(message))

    connection = SeatConnection(live, seat, send, executor)
    live.connect(seat, send)

    async def answer(text: str | bytes) -> dict[str, Any]:
        live.touch()
        request_id = None
        try:
            request = read_request(text)
            request_id = request.get("id")
            command = command_of(request, connection.handlers)
            reply = {"ok": True, **await connection.handlers[command](request)}
        except Exception as error:  # noqa: BLE001 - every request gets one answer
            reply = failure(error)
        return with_id(reply, request_id)

    try:
        await send({"push": "state", **await connection.state({})})
        await _serve_socket(websocket, answer)
    finally:
        live.disconnect(seat, send)


async def _serve_socket(websocket: WebSocket, answer: Answerer) -> None:
    """Answer each message until the client goes: one answer object per message; a message
    over ``MAX_MESSAGE`` bytes gets an error and the socket stays open."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
            if size > MAX_MESSAGE:
                reply = {"ok": False, "error": f"a message is at most {MAX_MESSAGE // 1024} "
                                               f"KiB, not {size} bytes"}
            else:
                reply = await answer(data)
            await websocket.send_text(json.dumps(reply))
