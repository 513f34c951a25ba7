"""play and assist (numberup.interactive): the session's rules, scripted games through the
typed-line front end (with wrong input mixed in), their logs replayed by
tests/oracles/replay.py, save and resume, and the end screen (the real command in a
pseudo-terminal: tests/cli/test_play_command.py)."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

from oracles.replay import replay

from numberup.errors import InputError
from numberup.game.cards import format_card, parse_card
from numberup.game.levels import get_level
from numberup.interactive.session import Session, deal
from numberup.game.cells import cell_name
from numberup.interactive.terminal import Table, make_console

TINY = "expectimax:k=2"  # a searcher for hints and proposals that answers at once


def test_deal_is_simulates_deck():
    """Game I of seed S is the deck simulate deals to its game I."""
    from numberup.players.registry import parse_player
    from numberup.runs.loop import play_batch

    for level, seed, game in ((1, 1, 0), (13, 7, 3), (19, 2026, 11), (20, 5, 1)):
        lv = get_level(level)
        batch = play_batch(lv, parse_player("random"), seed, game, 1, 1)
        assert deal(lv, seed, game) == [int(c) for c in batch.decks[0]]


def test_session_rules():
    s = Session(get_level(13), "play", 4, 2)
    (card,) = s.hand
    assert s.legal_cells() == [12] and not s.may_discard
    with pytest.raises(InputError, match="setup"):
        s.apply(card, -1)
    with pytest.raises(InputError, match="centre"):
        s.apply(card, 0)
    s.apply(card, 12)
    assert s.grid[12] == card and s.may_discard
    (card2,) = s.hand
    with pytest.raises(InputError, match="does not touch"):
        s.apply(card2, 0)
    with pytest.raises(InputError, match="already holds"):
        s.apply(card2, 12)
    s.apply(card2, -1)
    assert s.discarded == [card2] and s.discards_left == 1
    assert s.undo() == f"took back the discard of {format_card(card2)}"
    assert s.hand == [card2] and s.discards_left == 2
    assert s.unseen() == sorted(set(s.deck) - {card, card2})


def _pick(s: Session, turn: int) -> tuple[int, int]:
    """A fixed, legal choice: the last card of the hand on the last legal cell, a discard on
    turns 3 and 6 where allowed."""
    if s.may_discard and turn in (3, 6):
        return s.hand[0], -1
    return s.hand[-1], s.legal_cells()[-1]


def _typed(s: Session, card: int, cell: int) -> str:
    if cell < 0:
        return "discard" if len(s.hand) == 1 else f"discard {format_card(card)}"
    n = s.level.size
    where = cell_name(cell, n) if cell % 2 else f"{cell // n + 1} {cell % n + 1}"
    return where if len(s.hand) == 1 else f"{format_card(card)} {where}"


def _wrong(s: Session, turn: int) -> list[str]:
    """Wrong input for this position: each must be explained and change nothing."""
    n = s.level.size
    out = ["zz", "b", "9q", "\u00e9t\u00e9 \x00", "[red]x[/red]", "7r b2", "g9"]
    filled = np.flatnonzero(s.grid >= 0)
    if len(filled):
        out.append(cell_name(int(filled[0]), n))  # taken
    far = [c for c in range(n * n) if s.grid[c] < 0 and c not in s.legal_cells()]
    if far:
        out.append(cell_name(far[turn % len(far)], n))  # touches nothing
    if not s.may_discard:
        out.append("discard")
    if len(s.hand) > 1:
        out.append(s.legal_cells() and cell_name(s.legal_cells()[0], n))  # which card?
    missing = [c for c in range(48) if c // 8 < s.level.values and c % 8 < s.level.colours
               and c not in s.hand]
    out.append(f"{format_card(missing[turn % len(missing)])} {cell_name(s.legal_cells()[0], n)}")
    return out


def _script(level: int, seed: int, game: int) -> tuple[str, Session]:
    """A whole game typed as a person might, with wrong input, hints, help and an undo mixed in;
    returns the text and the session of the moves it makes."""
    s = Session(get_level(level), "play", seed, game)
    lines = ["help", ""]
    turn = 0
    while not s.done:
        if turn % 4 == 1:
            lines += _wrong(s, turn)
        if turn in (2, 9):
            lines.append("hint")
        card, cell = _pick(s, turn)
        lines.append(_typed(s, card, cell))
        if turn == 5:  # take it back and play it again
            lines += ["undo", _typed(s, card, cell)]
        s.apply(card, cell)
        turn += 1
    return "\n".join(lines) + "\n", s


def _table(s, text, tmp_path, advisor=TINY, log=True, compare=False):
    out = io.StringIO()
    console, plain = make_console(out, no_color=True)
    log_path = tmp_path / "games.jsonl" if log else None
    t = Table(s, io.StringIO(text), console, plain, tmp_path / "save.json", advisor=advisor,
              log_path=log_path, compare=compare)
    return t, out, log_path


# a 5x5 level, a 6x6 level, a discard level, hand levels (5x5 and 6x6)
@pytest.mark.parametrize("level,seed,game", [(1, 3, 0), (9, 1, 4), (13, 2, 1), (18, 4, 0),
                                             (19, 1, 2)], ids=lambda x: str(x))
def test_scripted_game(level, seed, game, tmp_path):
    text, expected = _script(level, seed, game)
    s = Session(get_level(level), "play", seed, game)
    table, out, log = _table(s, text, tmp_path)
    assert table.run() == 0
    screen = out.getvalue()
    assert "Traceback" not in screen
    assert s.done and np.array_equal(s.grid, expected.grid)
    assert s.discarded == expected.discarded
    assert f"Game over: {expected.score().total} points" in screen
    assert "Best actions by expectimax:k=2" in screen and "continuations of the game" in screen
    assert "is not a cell" in screen and "not in level" in screen
    (record,) = [json.loads(x) for x in log.read_text().splitlines()]
    replay(record, level)  # legal, in deck order, the right score
    assert record["score"] == expected.score().total
    assert record["deck"] == [format_card(c) for c in deal(level, seed, game)]
    assert len(record["moves"]) == level_moves(expected)


def level_moves(s):
    return s.level.cells + len(s.discarded)


def _drive_assist(level, seed, tmp_path):
    """Run assist on a deal, answering each prompt as a person at the table would."""
    order = deal(level, seed, 0)
    s = Session(get_level(level), "assist")
    out = io.StringIO()
    console, plain = make_console(out, no_color=True)
    lines: list[str] = []

    class Typist(io.StringIO):
        """Input that looks at the position before each line, like a person at the table."""

        def __init__(self):
            super().__init__()
            self.k = 0
            self.draws = 0
            self.done: set[str] = set()
            self.pending: list[str] = []

        def readline(self):
            if self.pending:
                line = self.pending.pop(0)
            elif s.done:
                return ""
            elif s.needs_card:
                want = s.capacity - len(s.hand)
                line = " ".join(format_card(c) for c in order[self.k:self.k + want])
                self.k += want
                self.draws += 1
                if self.draws == 4:  # a card already drawn, not in the deck, a cell too early
                    self.pending = ["7r", "3z", "b3", line]
                    line = format_card(order[0])
            elif len(s.moves) == 4 and "far" not in self.done:
                self.done.add("far")
                far = [c for c in range(s.level.cells) if s.grid[c] < 0 and c not in s.legal_cells()]
                line = cell_name(far[0], s.level.size)
                if len(s.hand) > 1:
                    self.pending = [line, ""]  # which card?
                    line = f"{format_card(s.hand[0])} {line}"
                else:
                    self.pending = [""]
            elif len(s.moves) == 6 and "undo" not in self.done:
                self.done.add("undo")
                line, self.pending = "", ["undo", ""]
            elif len(s.moves) == 2 and len(s.hand) == 1 and "own" not in self.done:
                self.done.add("own")  # a cell of one's own instead of the proposal
                line = cell_name(s.legal_cells()[0], s.level.size)
            else:
                line = ""  # accept the proposal
            lines.append(line)
            return line + "\n"

    table = Table(s, Typist(), console, plain, tmp_path / "save.json", advisor=TINY,
                  log_path=tmp_path / "a.jsonl", compare=False)
    assert table.run() == 0
    return s, out.getvalue(), order, tmp_path / "a.jsonl"


@pytest.mark.parametrize("level,seed", [(13, 5), (19, 3)], ids=["discards", "hand"])
def test_assist_game(level, seed, tmp_path):
    s, screen, order, log = _drive_assist(level, seed, tmp_path)
    assert s.done and "Traceback" not in screen
    assert "already drawn" in screen and "not in level" in screen
    assert "does not touch a card" in screen and "Proposal:" in screen
    assert "type the card you drew first" in screen
    if level >= 18:
        assert "say which card" in screen
    (record,) = [json.loads(x) for x in log.read_text().splitlines()]
    replay(record, level)
    assert record["score"] == s.score().total
    drawn = [format_card(c) for c in order[:len(s.drawn)]]
    assert record["deck"][:len(drawn)] == drawn
    # the save holds the finished game; loading it checks every event again
    again = Session.load(tmp_path / "save.json")
    assert np.array_equal(again.grid, s.grid) and again.done


def test_assist_refuses_a_card_twice_in_one_hand():
    s = Session(get_level(19), "assist")
    s.draw(parse_card("1r", 19))
    with pytest.raises(InputError, match="already drawn"):
        s.draw(parse_card("1r", 19))
    with pytest.raises(InputError, match="not in level 19"):
        parse_card("6m", 19)


def _same_position(a: Session, b: Session):
    assert np.array_equal(a.grid, b.grid)
    assert a.hand == b.hand and a.discarded == b.discarded and a.drawn == b.drawn
    assert a.unseen() == b.unseen() and a.legal_actions() == b.legal_actions()


@pytest.mark.parametrize("level", [3, 20])
def test_quit_and_resume(level, tmp_path):
    text, _ = _script(level, 11, 0)
    s = Session(get_level(level), "play", 11, 0)
    head = "\n".join(text.splitlines()[:40]) + "\nquit\nb2\n"  # what follows quit is not read
    table, out, _ = _table(s, head, tmp_path, log=False)
    assert table.run() == 0
    assert "Saved in" in out.getvalue() and not s.done and len(s.moves) > 5
    resumed = Session.load(tmp_path / "save.json")
    _same_position(s, resumed)
    # and the game goes on to the end from the resumed position
    rest, expected = text.splitlines()[40:], _script(level, 11, 0)[1]
    table, out, log = _table(resumed, "\n".join(rest) + "\n", tmp_path)
    table.run()
    assert resumed.done and np.array_equal(resumed.grid, expected.grid)
    replay(json.loads(log.read_text()), level)


def test_end_of_input_saves(tmp_path):
    s = Session(get_level(5), "play", 2, 0)
    table, out, _ = _table(s, "c3\nd3\nc4\n", tmp_path, log=False)
    assert table.run() == 0
    assert "End of input: the game is saved" in out.getvalue()
    _same_position(s, Session.load(tmp_path / "save.json"))
    # nothing played: nothing saved
    (tmp_path / "save.json").unlink()
    for text in ("", "help\nquit\n"):
        s = Session(get_level(5), "play", 2, 0)
        table, out, _ = _table(s, text, tmp_path, log=False)
        table.run()
        assert "nothing saved" in out.getvalue()
        assert not (tmp_path / "save.json").exists()


def test_end_screen_compares_with_the_solver(tmp_path):
    """The end screen names the solver's result on the same deal and the standing."""
    from numberup.analysis.standing import solver_on_deal

    text, expected = _script(1, 3, 0)
    s = Session(get_level(1), "play", 3, 0)
    table, out, _ = _table(s, text, tmp_path, log=False, compare=True)
    table.run()
    screen = out.getvalue()
    from numberup.players.registry import at_level, parse_player

    solver = solver_on_deal(1, 3, 0)
    plays = at_level(parse_player("best"), 1).spec
    assert f"The solver (best = {plays}) on the same deal: {solver}" in screen
    assert "of the solver's results on level 1" in screen


def test_end_screen_shows_foresight_when_there(tmp_path, monkeypatch):
    """With a numberup.analysis.hindsight module offering solve(level, seed, game), its result on the
    deal is shown; without one, nothing is said about foresight."""
    import types

    calls = []
    fake = types.ModuleType("numberup.analysis.hindsight")

    def solve(level, seed, game):
        calls.append((level, seed, game))
        return types.SimpleNamespace(found=77, bound=80.5, bound_proven=True)

    fake.solve = solve
    text, _ = _script(2, 5, 1)
    for module in (None, fake):
        monkeypatch.setitem(sys.modules, "numberup.analysis.hindsight", module)
        s = Session(get_level(2), "play", 5, 1)
        table, out, _ = _table(s, text, tmp_path, log=False, compare=True)
        table.run()
        screen = out.getvalue()
        if module is None:  # import fails: no line about foresight
            assert "foresight" not in screen
        else:
            assert ("With foresight of the whole deck: 77; no game on this deal scores more "
                    "than 80") in screen
    assert calls == [(2, 5, 1)]


def test_saved_file_is_checked(tmp_path):
    bad = tmp_path / "bad.json"
    for content in ("{", "[]", json.dumps({"numberup": "session", "mode": "play"}),
                    json.dumps({"numberup": "session", "version": 1, "mode": "play", "level": 1,
                                "seed": 1, "game": 0, "events": [["move", "3g", 0]]})):
        bad.write_text(content)
        with pytest.raises(InputError):
            Session.load(bad)


def test_typing_anything_goes_on(tmp_path):
    """Random lines (commands, cells, cards, garbage) are all answered without an unexpected
    error, and the position stays legal."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    words = st.sampled_from(["b3", "3 2", "c3", "a1", "f6", "6 6", "3g", "1r", "7r", "2o b2",
                             "discard", "d", "undo", "hint", "help", "", " ", "x", "?", "[b]",
                             "\u00e9", "1r 2o 3y 4g 5b", "3g discard", "q9", "0 0", "-1 2"])
    line = st.one_of(words, st.text(max_size=12).filter(lambda t: "\n" not in t and "\r" not in t
                                                        and t.strip().lower() not in
                                                        ("quit", "q", "exit", "save", "quit!")))

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(level=st.sampled_from([3, 9, 18]), mode=st.sampled_from(["play", "assist"]),
           lines=st.lists(line, max_size=25))
    def check(level, mode, lines):
        s = Session(get_level(level), mode, 1, 0)
        out = io.StringIO()
        console, plain = make_console(out, no_color=True)
        Table(s, io.StringIO("\n".join(lines) + "\n"), console, plain, tmp_path / "f.json",
              advisor=TINY, compare=False).run()
        assert "could not do that" not in out.getvalue(), out.getvalue()[-2000:]
        again = Session.from_dict(s.to_dict())  # every event still legal
        assert np.array_equal(again.grid, s.grid)

    check()
