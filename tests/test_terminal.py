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


def run_terminal(session, lines):
    """Drive a ``TerminalGame`` in-process with ``lines``; everything it printed."""
    import io

    from bots.app.terminal import TerminalGame

    out = io.StringIO()
    feed = iter(lines)

    def read(prompt):
        out.write(prompt)
        return next(feed)  # StopIteration would mean the script ran short

    TerminalGame(session, read=read, out=out).run()
    return out.getvalue()


def test_incomplete_penalty_a_refused_staged_table_touches_the_turn():
    from bots.app.session import PERSON, Session

    session = Session("machiavelli:incomplete=penalty", [PERSON, "greedy"], seed=3)
    session.run_bots()
    from solver.cards import format_groups

    card = session.game.hands[session.current][0]
    before = len(session.game.hands[session.current])
    table = format_groups([*session.game.table, (card,)])  # a lone card: not a group
    text = run_terminal(session, [f"table {table}", "draw", "pass", "reset", "giveup", "quit"])
    assert "touched the table" in text.split("you> ", 2)[1]  # the refused table says so
    assert "error: you may not draw now" in text and "error: you may not pass now" in text
    assert "play legally, or 'giveup' and draw 3 penalty cards" in text
    assert "you may: giveup (+3), play" in text
    assert "you give up" in text
    assert len(session.game.hands[0]) == before + 3


def test_incomplete_penalty_naming_cards_without_an_arrangement_touches_nothing():
    from bots.app.session import PERSON, Session, SessionError

    session = Session("machiavelli:incomplete=penalty", [PERSON, "greedy"], seed=3)
    session.run_bots()
    hand = session.observation().position().hand
    with pytest.raises(SessionError, match="no arrangement"):
        session.stage_cards(list(hand[:1]))
    assert not session.touched
    events = session.draw()
    assert events[0].action.__class__.__name__ == "Draw"


def test_incomplete_penalty_touch_survives_save_and_resume(tmp_path):
    from bots.app.session import PERSON, Session, SessionError

    session = Session("machiavelli:incomplete=penalty", [PERSON, "greedy"], seed=3)
    session.run_bots()
    card = session.game.hands[session.current][0]
    with pytest.raises(SessionError, match="touched"):
        session.stage_table([*session.game.table, [card]])
    session.save(tmp_path / "game.json")
    resumed = Session.load(tmp_path / "game.json")
    assert resumed.touched
    with pytest.raises(SessionError, match="give up"):
        resumed.draw()


def test_the_game_and_the_lesson_write_to_stdout_as_it_is_when_they_start():
    """Not to the stream stdout was when their module was imported (a redirected stdout,
    since closed: the fuzzing campaign's `play` then failed with 'I/O operation on closed
    file')."""
    import contextlib
    import io

    from bots.app.lessons import Lesson
    from bots.app.session import PERSON, Session
    from bots.app.terminal import TerminalGame

    session = Session("machiavelli", [PERSON, "greedy"], seed=3)
    with contextlib.redirect_stdout(io.StringIO()) as now:
        assert TerminalGame(session).out is now
        assert Lesson().out is now
