"""A scripted terminal session: a whole game against two bots, with a hint, an invalid move,
a save, a quit and a resume (pexpect drives the real command)."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip("pexpect")

from scripted import PROMPT, play_until, spawn  # noqa: E402


def test_whole_game_with_hint_invalid_move_save_and_resume(tmp_path):
    saved = tmp_path / "game.json"
    child = spawn("play", "--bots", "greedy,beginner", "--seed", "11")
    child.expect("you, greedy, beginner; seed 11")
    child.expect(PROMPT)
    child.sendline("8X 9H")  # not a card
    child.expect("error: not a card: '8X'")
    child.expect(PROMPT)
    child.sendline("table 2C 3C")  # not a valid table, and not the player's cards
    child.expect("error: ")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("save FILE")
    child.expect(PROMPT)
    child.sendline("show")  # the prompt again, the game untouched
    turns = play_until(child, stop_after=3)
    assert turns == 3
    child.sendline(f"save {saved}")
    child.expect(f"saved to {saved}")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)
    assert saved.exists()

    child = spawn("play", "--resume", str(saved))
    child.expect("you, greedy, beginner; seed 11")
    turns = play_until(child)
    child.close()
    assert child.exitstatus == 0
    assert "you:" in child.before and "greedy:" in child.before and "(winner)" in child.before


def test_hot_seat_hides_each_hand_until_ready():
    child = spawn("play", "--humans", "2", "--bots", "greedy", "--seed", "4")
    child.expect("player 1's turn: pass the terminal")
    assert "your hand" not in child.before
    child.sendline("")
    child.expect("your hand: ")
    child.expect("player 1> ")
    child.sendline("draw")
    child.expect("player 2's turn: pass the terminal")
    assert "your hand" not in child.before.split("player 1 draws", 1)[1]
    child.sendline("")
    child.expect("player 2> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
