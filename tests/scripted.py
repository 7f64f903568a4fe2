"""Driving ``machiavelli`` in a real terminal (pexpect): spawn it, and follow hints to play."""

from __future__ import annotations

import re
import sys

import pexpect

PROMPT = "you> "
HINT_PLAY = re.compile(r"play ([^\n(]+) \(\d+ cards?\)")


def spawn(*args: str):
    """``machiavelli ARGS --color never`` in a pseudo-terminal. Each wait for its output
    may take minutes: on a fresh checkout a bot's first move may compile kernels that the
    tests beside it (another worker of ``pytest -n auto``) have not compiled yet."""
    return pexpect.spawn(sys.executable, ["-m", "bots.app.cli", *args, "--color", "never"],
                         encoding="utf-8", timeout=300, dimensions=(50, 200))


def take_turn(child) -> None:
    """At the prompt: ask for a hint and follow it (draw, or pass when the stock is out)."""
    child.sendline("hint")
    child.expect(PROMPT)
    found = HINT_PLAY.search(child.before)
    if found:
        child.sendline(f"play {found.group(1).strip()}")
        child.expect("type 'ok' to play it")
        child.expect(PROMPT)
        child.sendline("ok")
        return
    assert "no card can be played" in child.before
    child.sendline("draw")
    child.expect(["you draw", "you pass"])  # a draw from an empty stock is a pass


def play_until(child, stop_after: int | None = None) -> int:
    """Follow hints until the game ends (or ``stop_after`` turns); the turns taken."""
    turns = 0
    while True:
        index = child.expect([PROMPT, "game over:"])
        if index == 1:
            child.expect(pexpect.EOF)
            return turns
        if stop_after is not None and turns == stop_after:
            return turns
        take_turn(child)
        turns += 1
