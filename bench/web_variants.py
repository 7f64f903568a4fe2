"""Every variant against every bot level, played to the end through the web server's seat socket.

A person seat moves as the page does (the hint's cards placed with ``place``, else a draw or a
pass); the bot seat answers in the server's pool. Prints one line per game and exits 1 if a
game does not end within ``--moves`` of the person's moves.

    python -m bench.web_variants                 # 8 variants x 5 levels
    python -m bench.web_variants --variants manipulation --levels expert
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from fastapi.testclient import TestClient

from bots.app.web.server import create_app
from bots.players import REGISTRY
from solver.variants import VARIANT_NAMES


def ask(socket: Any, cmd: str, **fields: Any) -> dict[str, Any]:
    """Send one request and return its answer, skipping the server's pushes."""
    socket.send_json({"cmd": cmd, "id": cmd, **fields})
    while True:
        answer = socket.receive_json()
        if "push" not in answer:
            return answer


def person_move(socket: Any, legal: list[str]) -> dict[str, Any]:
    """The hint's play placed on the table when playing is legal, else a draw or a pass."""
    if "play" in legal:
        hint = ask(socket, "hint")
        if hint["ok"] and hint["hint"]["played"]:
            placed = ask(socket, "place", cards=hint["hint"]["played"])
            if placed["ok"]:
                return placed["play"]
    return {"type": "draw"} if "draw" in legal else {"type": "pass"}


def play_to_end(client: TestClient, variant: str, level: str, seed: int, budget: float,
                most: int) -> tuple[bool, int]:
    """(over, person moves) of one game of a person against ``level``."""
    game = client.post("/api/games", json={"variant": variant, "seats": ["person", level],
                                           "seed": seed, "budget": budget}).json()
    seat = game["seats"][0]
    moves = 0
    with client.websocket_connect(f"/ws/game/{game['game']}?token={seat['token']}") as socket:
        state = ask(socket, "state")
        while not state.get("over") and moves < most:
            answer = ask(socket, "move", action=person_move(socket, state["observation"]["legal"]))
            if not answer["ok"]:
                raise RuntimeError(f"{variant} vs {level}: {answer['error']}")
            state, moves = answer, moves + 1
    return bool(state.get("over")), moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANT_NAMES))
    parser.add_argument("--levels", default=",".join(REGISTRY))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--budget", type=float, default=0.05, help="expert seconds per move")
    parser.add_argument("--moves", type=int, default=3000, help="person moves before giving up")
    args = parser.parse_args(argv)
    unfinished = 0
    with TestClient(create_app()) as client:
        for variant in args.variants.split(","):
            for level in args.levels.split(","):
                started = time.perf_counter()
                over, moves = play_to_end(client, variant, level, args.seed, args.budget,
                                          args.moves)
                unfinished += not over
                print(f"{variant:13} {level:9} {'ended' if over else 'NOT ENDED':9} "
                      f"{moves:5} moves  {time.perf_counter() - started:6.1f} s", flush=True)
    print(f"web variants: {unfinished} of the games did not end")
    return 1 if unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
