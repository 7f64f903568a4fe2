"""A scripted ``machiavelli learn`` for machiavelli: every chapter, one wrong answer, one hint,
and the first game against the beginner played to its end."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip("pexpect")

from scripted import play_until, spawn  # noqa: E402

QUIZ = r"valid group\? \[y/n\] "
PUZZLE = "your play> "
ANSWERS = [  # (prompt, answer, what the lesson says to it)
    (QUIZ, "y", "right: it is"), (QUIZ, "n", "right: it is not"),
    (PUZZLE, "7H 7D", "not yet: no arrangement places all of 7H 7D"),
    (PUZZLE, "hint", "can be played; groups changed: none"),
    (PUZZLE, "7H 7D 7S", "right!"),
    (QUIZ, "y", "right"), (QUIZ, "n", "right"), (PUZZLE, "4C 5C 6C", "right!"),
    (QUIZ, "y", "right"), (QUIZ, "y", "right"), (QUIZ, "n", "right: it is not"),
    (PUZZLE, "8C 9C", "right!"),
    (PUZZLE, "table 3H 4H 5H | 6H 6D 6S | 7H 8H 9H", "right!"),
    (PUZZLE, "8D 8H", "right!"), (PUZZLE, "none", "nothing can be played"),
    (PUZZLE, "AC", "right!"), (PUZZLE, "none", "nothing can be played"),
    (PUZZLE, "9S QD QS", "right!"), (PUZZLE, "5C 7C 8C QC JH KH", "right!"),
]


def test_learn_machiavelli_to_the_end():
    child = spawn("learn", "--seed", "2")
    child.expect("Learn machiavelli")
    for prompt, answer, reply in ANSWERS:
        child.expect(prompt)
        child.sendline(answer)
        child.expect(reply)
    child.expect("Lesson done: 17 right answers, 1 wrong try")
    child.expect(r"play it\? \[Y/n\] ")
    child.sendline("y")
    child.expect("you, beginner; seed 2")
    play_until(child)
    child.close()
    assert child.exitstatus == 0
    assert "beginner:" in child.before and "(winner)" in child.before
