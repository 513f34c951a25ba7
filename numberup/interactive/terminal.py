"""The typed-line front end of ``numberup play`` and ``numberup assist``.

Reads one line at a time from a text stream and draws with :mod:`numberup.interactive.screen` on a rich
console; every rule lives in :class:`numberup.interactive.session.Session`. Whatever is typed, the loop
explains in one line what it could not do and goes on; the session is saved after every step,
and end of input or Ctrl-C saves it and ends cleanly.
"""

from __future__ import annotations

import json
import math
import re
import time

from rich.console import Console
from rich.text import Text

from ..errors import InputError
from ..game.cards import format_card, parse_card
from .screen import COLOUR_HELP, actions_text, card_text, render
from .session import Session
from ..game.cells import cell_name, parse_cell
from ..players.best import QUICK

_CARD = re.compile(r"^[1-9][a-z]$")

HELP = """Commands (then Enter):
  b3 or 3 2      put the card on column b, row 3 (two numbers: row, then column)
  3g b3          on levels with a hand: put the green 3 from the hand on b3
  discard        discard the card (levels 3 and 13, twice a game, not in setup)
  hint           the three best actions by the hint player, each with what it reaches if it
                 plays on from there: the final result's mean and the chances of bronze,
                 silver and gold (from continuations of the game; "close": within noise)
  undo           take back your last move
  help           this text
  quit           save the game and stop (continue with --resume FILE)
Cards are a value and a colour letter: {colours}."""

ASSIST_HELP = """Commands (then Enter):
  3g             the card you drew (levels 18-20: the hand, e.g. 1r 2g 3b 4y 5o)
  Enter          accept the proposal
  b3 or 3 2      put the card on column b, row 3 instead (two numbers: row, then column)
  3g b3          on levels with a hand: put the green 3 on b3
  discard        discard the card (levels 3 and 13, twice a game, not in setup)
  hint           the three best actions, with what the player reaches after each
  undo           take back the last card typed or the last move
  help           this text
  quit           save and stop (continue with --resume FILE)
Cards are a value and a colour letter: {colours}."""


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def check_player(spec: str):
    """Parse a hint/proposal player spec (any player: InputError for a bad one)."""
    from ..players.registry import parse_player

    return parse_player(spec).spec


def make_console(file=None, no_color: bool = False) -> tuple[Console, bool]:
    """A console for the screen, and whether to draw plain (not a terminal, or no colour)."""
    console = Console(file=file, no_color=no_color, highlight=False, soft_wrap=True, emoji=False,
                      markup=False)
    return console, no_color or not console.is_terminal


class Table:
    """The loop around one session: ``Table(session, ...).run()``.

    Parameters
    ----------
    advisor : str or None
        A player spec for ``hint`` and, in assist, the proposals; None: no hints.
    save_path : path
        Where the session is saved after every step.
    log_path : path or None
        The finished game is appended there as one line of ``simulate --log``'s JSON Lines.
    compare : bool
        At the end, play the solver on the same deal and place the score in its distribution.
    """

    def __init__(self, session: Session, inp, console: Console, plain: bool, save_path,
                 advisor: str | None = QUICK, log_path=None, compare: bool = True,
                 note: str = ""):
        self.s = session
        self.inp = inp
        self.out = console
        self.plain = plain
        self.save_path = save_path
        self.advisor = advisor
        self.log_path = log_path
        self.compare = compare
        self.proposal: tuple[int, int] | None = None
        self.note = note

    # -- I/O --------------------------------------------------------------------------------

    def say(self, text) -> None:
        self.out.print(text)

    def show(self, message: str = "") -> None:
        self.out.print(render(self.s, self.plain, message))

    def read(self) -> str | None:
        self.out.print("> ", end="")
        self.out.file.flush()
        try:
            line = self.inp.readline()
        except UnicodeDecodeError:
            return "\ufffd"
        if not line:
            return None
        if not _isatty(self.inp):  # a script: show what was read, so the transcript reads well
            self.out.print(line.rstrip("\n"), markup=False, highlight=False)
        return line

    def save(self) -> bool:
        """Save the session; on failure say so (the game goes on in memory)."""
        try:
            self.s.save(self.save_path)
            return True
        except OSError as err:
            self.say(f"  could not save to {self.save_path}: {err.strerror or err}")
            return False

    # -- the loop -----------------------------------------------------------------------------

    def run(self) -> int:
        self.show()
        if self.note:
            self.say(self.note)
        try:
            while not self.s.done:
                if self.s.mode == "assist" and self.proposal is None and not self.s.needs_card:
                    self.propose()
                line = self.read()
                if line is None:
                    if not self.s.events:
                        self.say("\nEnd of input: nothing played, nothing saved.")
                        return 0
                    if self.save():
                        self.say(f"\nEnd of input: the game is saved in {self.save_path} "
                                 f"(continue with --resume {self.save_path}).")
                    return 0
                try:
                    if self.handle(line):
                        return 0
                except InputError as err:
                    self.say(f"  {' '.join(str(err).split())}")
                except Exception as err:  # never lose the game to a bug: say it, go on
                    self.say(f"  could not do that ({type(err).__name__}: {err}); the game goes on")
        except KeyboardInterrupt:
            if self.s.events and self.save():
                self.say(f"\nInterrupted: the game is saved in {self.save_path}.")
            return 0
        self.finish()
        return 0

    def handle(self, line: str) -> bool:
        """Do what one typed line says; True to stop."""
        text = line.strip().lower()
        words = text.split()
        s = self.s
        if not text:
            if self.proposal is not None:
                self.play(*self.proposal)
            else:
                self.show()
            return False
        if text in ("help", "h", "?"):
            self.say((ASSIST_HELP if s.mode == "assist" else HELP).format(colours=COLOUR_HELP))
            return False
        if text == "quit!":
            return True
        if text in ("quit", "q", "exit", "save"):
            if not s.events:
                self.say("Nothing played, nothing saved.")
                return True
            if not self.save():
                raise InputError("the game is not saved, so it goes on (quit! stops without saving)")
            self.say(f"Saved in {self.save_path}; continue with: numberup {s.mode} --resume "
                     f"{self.save_path}")
            return True
        if text in ("undo", "u"):
            what = s.undo()
            self.proposal = None
            self.save()
            self.show(f"Undo: {what}.")
            return False
        if text in ("hint", "hints"):
            self.hint()
            return False
        if words[0] in ("discard", "d"):
            card = self.card_in_hand(words[1] if len(words) > 1 else None, "discard")
            self.play(card, -1)
            return False
        if all(_CARD.match(w) for w in words):
            if s.mode == "assist" and s.needs_card:
                cards = [parse_card(w, s.level) for w in words]
                for k, card in enumerate(cards):
                    try:
                        s.draw(card)
                    except InputError as err:
                        self.save()
                        self.show(f"{err} (cards after it ignored)" if k + 1 < len(cards) else str(err))
                        return False
                self.save()
                self.show()
                return False
            if len(words) == 1:
                raise InputError(f"{words[0]!r} is a card: say where it goes, e.g. {words[0]} b3")
        if _CARD.match(words[0]) and len(words) > 1:
            if s.mode == "assist" and s.needs_card:
                raise InputError("type the card you drew first (e.g. 3g), then where it goes")
            card = self.card_in_hand(words[0], "play")
            rest = " ".join(words[1:])
            cell = -1 if rest in ("discard", "d") else parse_cell(rest, s.level.size)
            self.play(card, cell)
            return False
        if s.mode == "assist" and s.needs_card:
            try:
                parse_cell(text, s.level.size)
            except InputError:
                for w in words:
                    parse_card(w, s.level)  # explains a token that is not a card of the deck
            raise InputError("type the card you drew first (e.g. 3g), then where it goes")
        cell = parse_cell(text, s.level.size)
        self.play(self.card_in_hand(None, "play"), cell)
        return False

    def card_in_hand(self, token: str | None, verb: str) -> int:
        s = self.s
        if s.needs_card:
            raise InputError("type the card you drew first (e.g. 3g)")
        if token is None:
            if len(s.hand) == 1:
                return s.hand[0]
            raise InputError(f"you hold {' '.join(format_card(c) for c in s.hand)}: say which "
                             f"card, e.g. {format_card(s.hand[0])} "
                             f"{'b3' if verb == 'play' else 'discard'}")
        return parse_card(token, s.level)

    def play(self, card: int, cell: int) -> None:
        self.s.apply(card, cell)
        self.proposal = None
        self.save()
        where = "discarded" if cell < 0 else f"on {cell_name(cell, self.s.level.size)}"
        if not self.s.done:
            self.show(f"{format_card(card)} {where}.")

    # -- the hint player -----------------------------------------------------------------------

    def advice(self) -> tuple[list[dict], float]:
        t0 = time.perf_counter()
        rows = self.s.advice(self.advisor)
        return rows, time.perf_counter() - t0

    def hint(self) -> None:
        if self.advisor is None:
            raise InputError("hints are off in this game (--hints none)")
        if self.s.needs_card or self.s.done:
            raise InputError("there is no card to place yet" if not self.s.done else "the game is over")
        rows, dt = self.advice()
        who = self.advisor if rows[0]["plays"] == self.advisor else f"{self.advisor} = {rows[0]['plays']}"
        t = Text(f"Best actions by {who} ({dt:.1f} s):\n")
        t.append(actions_text(rows, self.s, 3, self.plain))
        t.append(f"\n  (what it reaches if it plays on from there: {rows[0]['n']} continuations "
                 "of the game for the first; numberup advise looks longer)")
        self.say(t)

    def propose(self) -> None:
        s = self.s
        if self.advisor is None:
            return
        legal = s.legal_actions()
        if len(legal) == 1:  # nothing to weigh (a setup card on 5x5)
            self.proposal = legal[0]
            self.say(f"Proposal: {format_card(legal[0][0])} on {cell_name(legal[0][1], s.level.size)}"
                     " (the only cell); Enter to place it.")
            return
        rows, dt = self.advice()
        best = rows[0]
        self.proposal = (best["card"], best["cell"])
        t = Text("Proposal: ")
        t.append(card_text(best["card"], self.plain))
        where = "discard it" if best["cell"] < 0 else f"on {cell_name(best['cell'], s.level.size)}"
        t.append(f" {where}  (mean {best['mean']:.1f}, P(gold) {best['p_gold']:.0%}; {best['plays']}, "
                 f"{dt:.1f} s). Enter to accept, or type another cell.")
        self.say(t)

    # -- the end ------------------------------------------------------------------------------

    def finish(self) -> None:
        s = self.s
        self.save()
        sc = s.score()
        self.show()
        self.say(Text(f"Game over: {sc.total} points, {sc.medal}.", style="" if self.plain else "bold"))
        if self.log_path is not None:
            try:
                with open(self.log_path, "a") as f:
                    f.write(json.dumps(s.record(), separators=(",", ":")) + "\n")
                self.say(f"The game is logged in {self.log_path}.")
            except OSError as err:
                self.say(f"Could not write the log {self.log_path}: {err.strerror}.")
        if not self.compare:
            return
        from ..analysis.standing import (
            DEFAULT_SOLVER, foresight_on_deal, foresight_solver, solver_on_deal,
            standing,
        )

        if s.mode == "play":
            others = [DEFAULT_SOLVER] + ([self.advisor] if self.advisor not in (None, DEFAULT_SOLVER)
                                         else [])
            for k, spec in enumerate(others):
                try:
                    solver = solver_on_deal(s.level, s.seed, s.game, spec)
                    from ..players.registry import at_level, parse_player

                    plays = at_level(parse_player(spec), s.level.number).spec
                    named = spec if plays == spec else f"{spec} = {plays}"
                    who = f"The solver ({named})" if k == 0 else f"The hint player ({named})"
                    self.say(f"{who} on the same deal: {solver} ({s.level.medal(solver)}).")
                except Exception as err:
                    self.say(f"{spec}'s game could not be played ({err}).")
            try:
                if foresight_solver() is not None:
                    self.say("Searching this deal with foresight of the whole deck ...")
                fs = foresight_on_deal(s.level.number, s.seed, s.game)
                if fs is not None:
                    found, bound, proven = fs
                    extra = "" if bound is None else (
                        f"; no game on this deal scores more than {math.floor(bound)}" if proven
                        else f"; estimated bound {bound:.0f}")
                    self.say(f"With foresight of the whole deck: {found}{extra}.")
            except Exception as err:
                self.say(f"Foresight could not be computed ({err}).")
        try:
            st = standing(s.level, sc.total)
            self.say(f"Your {sc.total} beats {st.percentile:.0f}% of the solver's results on level "
                     f"{s.level.number} (ties half; {st.source}).")
        except Exception as err:
            self.say(f"The solver's distribution is not available ({err}).")
