"""Load on the web server: concurrent games over WebSockets on the loopback address.

    python -m bench.web_load                 # 50 games for 60 s
    python -m bench.web_load --games 10 --seconds 5

Starts ``machiavelli serve`` on 127.0.0.1 (a free port) in a subprocess, opens ``--games``
games at once (a person seat against bots: greedy, beginner, random in turn; seeded), and for
``--seconds`` plays each person seat as a page would: auto-place one hand card if the engine
finds a place for it (``place``, trying up to three cards), else draw (or pass); a finished
game is followed by a new one. Reports moves answered, errors (any refused ``move`` or
``state``, a broken socket, a failed request: must be 0), the answer times of ``move``
excluding the bots' thinking (the answer's ``thinking_ms``), median and p99, and the
server's resident memory at the end. Talks only to 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

HOST = "127.0.0.1"
LEVELS = ("greedy", "beginner", "random")
ANSWER_TIMEOUT = 60.0  # seconds one answer may take before it counts as an error
START_TIMEOUT = 120.0  # seconds the server may take to start


@dataclass
class Tally:
    """What the clients saw."""

    moves: int = 0
    requests: int = 0
    games_started: int = 0
    games_finished: int = 0
    refused_places: int = 0
    errors: list[str] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    """Each move's answer time less the bots' thinking."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_server(port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "bots", "serve", "--host", HOST, "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              cwd=Path(__file__).resolve().parents[1])
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped: {server.stderr.read().decode()[-500:]}"
                               if server.stderr else "the server stopped")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://{HOST}:{port}/api/info", timeout=2).read()
            return server
        time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start in time")


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` (Linux ``/proc``), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://{HOST}:{port}{path}",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=ANSWER_TIMEOUT) as answer:
        return json.loads(answer.read())


class Player:
    """One person seat, played until the deadline (a finished game is followed by another)."""

    def __init__(self, port: int, number: int, tally: Tally, deadline: float) -> None:
        self.port, self.number, self.tally, self.deadline = port, number, tally, deadline
        self.next_id = 0

    async def run(self) -> None:
        game_number = 0
        while time.monotonic() < self.deadline:
            seats = ["person", LEVELS[self.number % len(LEVELS)]]
            seed = self.number * 1000 + game_number
            try:
                game = await asyncio.to_thread(post, self.port, "/api/games",
                                               {"variant": "machiavelli", "seats": seats,
                                                "seed": seed})
                self.tally.games_started += 1
                await self.play(game)
            except Exception as error:  # noqa: BLE001 - every failure is counted and shown
                self.tally.errors.append(f"game {self.number}/{seed}: "
                                         f"{type(error).__name__}: {error}")
                return
            game_number += 1

    async def play(self, game: dict[str, Any]) -> None:
        token = game["seats"][0]["token"]
        url = f"ws://{HOST}:{self.port}/ws/game/{game['game']}?token={token}"
        async with websockets.connect(url, max_size=2**24) as ws:
            state = await self.receive(ws, None)
            while time.monotonic() < self.deadline:
                if state["over"]:
                    self.tally.games_finished += 1
                    return
                if state["to_move"] != 0:
                    state = await self.receive(ws, None)  # the bots move first: a push
                    continue
                action = await self.choose(ws, state)
                started = time.perf_counter()
                answer = await self.ask(ws, {"cmd": "move", "action": action})
                elapsed = (time.perf_counter() - started) * 1000
                if not answer["ok"]:
                    self.tally.errors.append(f"move refused: {answer['error']}")
                    return
                self.tally.moves += 1
                self.tally.move_ms.append(max(0.0, elapsed - answer["thinking_ms"]))
                state = answer

    async def choose(self, ws: Any, state: dict[str, Any]) -> dict[str, Any]:
        observation = state["observation"]
        if "play" in observation["legal"]:
            for card in observation["hand"][:3]:
                placed = await self.ask(ws, {"cmd": "place", "cards": [card]})
                if placed["ok"]:
                    return placed["play"]
                self.tally.refused_places += 1
        return {"type": "draw"} if "draw" in observation["legal"] else {"type": "pass"}

    async def ask(self, ws: Any, request: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        await ws.send(json.dumps({**request, "id": self.next_id}))
        self.tally.requests += 1
        return await self.receive(ws, self.next_id)

    async def receive(self, ws: Any, request_id: int | None) -> dict[str, Any]:
        """The answer to ``request_id`` (pushes skipped), or the next push (None)."""
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
            if request_id is None and message.get("push"):
                return message
            if request_id is not None and message.get("id") == request_id:
                return message


async def load(port: int, games: int, seconds: float) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(Player(port, n, tally, deadline).run() for n in range(games)))
    return tally


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long to play (default 60)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 3600:
        parser.error("--games is 1..500 and --seconds in (0, 3600]")
    port = free_port()
    server = start_server(port)
    try:
        tally = asyncio.run(load(port, args.games, args.seconds))
        memory = rss_mib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    for error in tally.errors[:10]:
        print(f"error: {error}", file=sys.stderr)
    print(f"web_load: {args.games} games for {args.seconds:g} s on {HOST}: "
          f"{tally.moves} moves answered ({tally.requests} requests, "
          f"{tally.games_started} games started, {tally.games_finished} finished), "
          f"{len(tally.errors)} errors, answer time without bot thinking "
          f"median {statistics.median(tally.move_ms) if tally.move_ms else float('nan'):.1f} ms "
          f"p99 {percentile(tally.move_ms, 0.99):.1f} ms, server RSS {memory:.0f} MiB")
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
