"""``numberup play`` as the console script, in a pseudo-terminal: the screen after a few moves,
a cell off the grid explained, a hint, and the game saved on quit."""

from __future__ import annotations

import os
import sys

import pytest

from numberup.game.cards import format_card
from numberup.interactive.session import Session, deal

TINY = "expectimax:k=2"  # a searcher for hints that answers at once


def test_real_command_in_a_terminal(tmp_path):
    """The console script in a pseudo-terminal: the screen after a few moves."""
    pexpect = pytest.importorskip("pexpect")
    import shutil

    exe = os.path.join(os.path.dirname(sys.executable), "numberup")
    exe = exe if os.access(exe, os.X_OK) else shutil.which("numberup")
    cmd = [exe] if exe else [sys.executable, "-m", "numberup"]  # the console script, or its module
    save = tmp_path / "pty.json"
    child = pexpect.spawn(cmd[0], cmd[1:] + ["play", "--level", "1", "--seed", "3", "--save",
                                             str(save), "--hints", TINY, "--no-color"],
                          cwd=str(tmp_path), timeout=120, encoding="utf-8",
                          dimensions=(50, 120))
    try:
        order = deal(1, 3, 0)
        child.expect("Card: " + format_card(order[0]))
        child.expect("> ")
        child.sendline("c3")
        child.expect("Card: " + format_card(order[1]))
        child.expect("> ")
        child.sendline("c2")
        child.expect("> ")
        child.sendline("f1")
        child.expect("is off the 5x5 grid")
        child.sendline("3 2")  # row 3, column 2: b3
        child.expect("Card: " + format_card(order[3]))
        screen = child.before  # the grid drawn above the card
        child.expect("> ")
        # row 3 shows the first card on c3 and the third on b3; row 2 the second on c2
        row3 = next(ln for ln in screen.splitlines() if ln.strip().startswith("3 "))
        assert [w for w in row3.split() if w != "+"][1:3] == [format_card(order[2]),
                                                             format_card(order[0])]
        row2 = next(ln for ln in screen.splitlines() if ln.strip().startswith("2 "))
        assert format_card(order[1]) in row2.split()
        child.sendline("hint")
        child.expect("Best actions by expectimax:k=2")
        child.sendline("quit")
        child.expect("Saved in")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    s = Session.load(save)
    assert [int(s.grid[c]) for c in (12, 7, 11)] == order[:3]
