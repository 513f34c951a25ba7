"""A game a person plays, kept apart from the terminal: position, legal actions, apply, undo,
save and resume, and the log record.

Two kinds of session share one class:

- ``play``: a level dealt from ``(seed, game)`` exactly as ``numberup simulate`` deals game
  ``game`` of master seed ``seed`` (:func:`deal`), so the person's game can be compared with the
  solver's on the same cards. Cards are drawn automatically as in the engine: one per turn (the
  setup cards one by one), or on levels 18-20 a hand of five refilled after every card played.
- ``assist``: the physical game on the table. The deck order is unknown; the person types each
  card as it is drawn (:meth:`Session.draw`), and the session checks it against the level's
  deck and the cards already seen.

The session is a list of events replayed from the start whenever it changes (a game has at
most 38 of them), so undo is exact and the saved file is tiny: in ``play`` the moves, in
``assist`` the typed cards and the moves in the order they happened. A cell is an index into
the row-major grid (``row * size + col``), ``-1`` for a discard.

Cells are written for people as a column letter and a row number, both from the top left:
``b3`` is column b (the second), row 3; or as two numbers, row then column: ``3 2`` is the
same cell.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..game.cards import EMPTY, format_card, format_grid, parse_card
from ..errors import InputError
from ..game.cells import cell_name, centre_cells
from ..game.levels import Level, get_level

SAVE_VERSION = 1
PERSON = "person"  # the policy name in the log


def deal(level: int | Level, seed: int, game: int) -> list[int]:
    """The draw order of game ``game`` of master seed ``seed``: the deck ``simulate`` deals
    (:func:`numberup.game.cards.deal`)."""
    from ..game.cards import deal as dealt

    return [int(c) for c in dealt(level, seed, game)]


@dataclass
class Session:
    """One game of ``level`` in progress (see the module doc).

    Attributes
    ----------
    mode : 'play' or 'assist'
    seed, game : int
        The deal (``play``); 0 in ``assist``.
    events : list of (kind, card, cell)
        ``('draw', card, 0)`` a card typed as drawn (``assist`` only), ``('move', card, cell)``
        a card played on ``cell`` or discarded (``cell = -1``).
    """

    level: Level
    mode: str = "play"
    seed: int = 1
    game: int = 0
    events: list[tuple[str, int, int]] = field(default_factory=list)

    def __post_init__(self):
        self.level = get_level(self.level)
        if self.mode not in ("play", "assist"):
            raise ValueError(f"unknown session mode {self.mode!r}")
        self.deck = deal(self.level, self.seed, self.game) if self.mode == "play" else None
        self._replay()

    # -- the position ------------------------------------------------------------------------

    def _replay(self) -> None:
        """Recompute the position from the events (the deck's draws in ``play``)."""
        lv = self.level
        self.grid = np.full(lv.cells, EMPTY, dtype=np.int8)
        self.hand: list[int] = []
        self.discarded: list[int] = []
        self.drawn: list[int] = []  # every card drawn, in order
        self.moves: list[tuple[int, int]] = []
        self.filled = 0
        for kind, card, cell in self.events:
            if kind == "draw":
                self.drawn.append(card)
                self.hand.append(card)
                continue
            self._auto_draw()
            self.hand.remove(card)
            self.moves.append((card, cell))
            if cell < 0:
                self.discarded.append(card)
            else:
                self.grid[cell] = card
                self.filled += 1
        self._auto_draw()

    def _auto_draw(self) -> None:
        if self.deck is None:
            return
        while len(self.hand) < self.capacity and len(self.drawn) < len(self.deck):
            card = self.deck[len(self.drawn)]
            self.drawn.append(card)
            self.hand.append(card)

    @property
    def in_setup(self) -> bool:
        return self.filled < len(centre_cells(self.level.size))

    @property
    def capacity(self) -> int:
        """Cards held this turn: 1 in setup and on levels without a hand, else the hand size,
        never more than the cards left in the deck."""
        lv = self.level
        full = 1 if self.in_setup or not lv.hand else lv.hand
        left = lv.deck_size - len(self.drawn) + len(self.hand)
        return min(full, left)

    @property
    def done(self) -> bool:
        return self.filled == self.level.cells

    @property
    def discards_left(self) -> int:
        return self.level.discards - len(self.discarded)

    @property
    def may_discard(self) -> bool:
        return self.discards_left > 0 and not self.in_setup and not self.done

    @property
    def needs_card(self) -> bool:
        """``assist``: the person must type the next card drawn before anything is played."""
        return not self.done and len(self.hand) < self.capacity

    def unseen(self) -> list[int]:
        """The cards still to come (sorted): the deck minus everything drawn."""
        from ..game.cards import deck

        gone = set(self.drawn)
        return [int(c) for c in deck(self.level) if int(c) not in gone]

    def legal_cells(self) -> list[int]:
        """The cells on offer now: free centre cells in setup, else empty cells next to a card
        (:func:`numberup.game.position.legal_cells`)."""
        from ..game.position import legal_cells

        return [] if self.done else legal_cells(self.level, self.grid)

    def legal_actions(self) -> list[tuple[int, int]]:
        """Every ``(card, cell)`` the person may play now (``cell = -1``: discard)."""
        if self.needs_card:
            return []
        cells = self.legal_cells()
        out = [(card, cell) for card in self.hand for cell in cells]
        if self.may_discard:
            out += [(card, -1) for card in self.hand]
        return out

    # -- changing it ---------------------------------------------------------------------------

    def draw(self, card: int) -> None:
        """``assist``: the person drew ``card``; :class:`InputError` if it cannot be so."""
        lv = self.level
        if self.mode != "assist":
            raise InputError("cards are dealt from the seed in this game: type a cell instead")
        if self.done:
            raise InputError("the grid is full: the game is over")
        if card in self.drawn:
            where = ("on the grid at " + cell_name(int(np.flatnonzero(self.grid == card)[0]), lv.size)
                     if card in self.grid else "in your hand" if card in self.hand else "discarded")
            raise InputError(f"{format_card(card)} was already drawn ({where}): each card exists once")
        if not self.needs_card:
            raise InputError(
                f"you already hold {self._hand_text()}: play it before drawing another card"
            )
        self.events.append(("draw", card, 0))
        self._replay()

    def apply(self, card: int, cell: int) -> None:
        """Play ``card`` (in hand) on ``cell``, or discard it (``cell = -1``)."""
        lv = self.level
        if self.done:
            raise InputError("the grid is full: the game is over")
        if self.needs_card:
            raise InputError("type the card you drew first (e.g. 3g)")
        if card not in self.hand:
            raise InputError(f"{format_card(card)} is not in your hand ({self._hand_text()})")
        if cell < 0:
            if lv.discards == 0:
                raise InputError(f"level {lv.number} has no discards")
            if self.in_setup:
                raise InputError("the setup card(s) on the centre cannot be discarded")
            if self.discards_left == 0:
                raise InputError(f"both of level {lv.number}'s {lv.discards} discards are used")
        elif cell not in self.legal_cells():
            name = cell_name(cell, lv.size)
            if self.grid[cell] != EMPTY:
                why = f"already holds {format_card(int(self.grid[cell]))}"
            elif self.in_setup:
                why = "is not a free centre cell (setup cards go on " + ", ".join(
                    cell_name(c, lv.size) for c in self.legal_cells()) + ")"
            else:
                why = "does not touch a card on the grid (a card goes next to one, not diagonally)"
            raise InputError(f"{name} {why}")
        self.events.append(("move", card, cell))
        self._replay()

    def undo(self) -> str:
        """Take back the person's last step (a move; in ``assist`` also a card typed as
        drawn); returns what was undone, in words."""
        if self.mode == "play":
            for k in range(len(self.events) - 1, -1, -1):
                if self.events[k][0] == "move":
                    _, card, cell = self.events.pop(k)
                    self._replay()
                    return f"took back {self._move_text(card, cell)}"
        elif self.events:
            kind, card, cell = self.events.pop()
            self._replay()
            if kind == "draw":
                return f"took back the drawn card {format_card(card)}"
            return f"took back {self._move_text(card, cell)}"
        raise InputError("nothing to undo")

    def _move_text(self, card: int, cell: int) -> str:
        where = "the discard" if cell < 0 else cell_name(cell, self.level.size)
        return f"{format_card(card)} on {where}" if cell >= 0 else f"the discard of {format_card(card)}"

    def _hand_text(self) -> str:
        return " ".join(format_card(c) for c in self.hand) or "nothing"

    # -- reading it -----------------------------------------------------------------------------

    def score(self):
        """:class:`numberup.game.scorecard.GameScore` of the grid as it stands (partial lines scored
        on the cards present)."""
        from ..game.scorecard import score

        return score(self.level, self.grid)

    def grid_text(self) -> str:
        return format_grid(self.grid, self.level.size)

    def advice(self, player: str) -> list[dict]:
        """The candidate actions ranked and estimated by ``player`` (any player spec, 'best' by
        default) with :func:`numberup.analysis.advise.advice` on a hint's time (about
        :data:`~numberup.analysis.advise.HINT_SECONDS` of continuations): ``{"card", "cell",
        "mean", "p_bronze", "p_silver", "p_gold", "n", "close"}``, best first; ``cell`` is the
        cell index here (-1: discard); ``close``: within noise of the first."""
        from ..analysis.advise import HINT_SECONDS, advice

        got = advice(self.level, self.grid_text(), self._hand_text(),
                     " ".join(format_card(c) for c in self.discarded), self.discards_left,
                     player, seed=(self.seed + 1000003 * len(self.moves)) % 2**63,
                     candidates=4, seconds=HINT_SECONDS, jobs=2)
        rows = []
        for a in got["actions"]:
            e = a["estimate"]
            if e is None:
                continue
            rows.append({"card": parse_card(a["card"], self.level),
                         "cell": -1 if a["cell"] is None else a["cell"][0] * self.level.size + a["cell"][1],
                         **{k: e[k] for k in ("mean", "p_bronze", "p_silver", "p_gold", "n")},
                         "close": bool(a["vs_first"] and a["vs_first"]["close"]),
                         "plays": got["plays"]})
        return rows

    def record(self) -> dict:
        """The finished game as one object of ``simulate --log``'s JSON Lines.

        In ``assist`` the deck is the cards in the order they were drawn, then the cards never
        drawn in sorted order (their order is unknown and played no part)."""
        if not self.done:
            raise InputError("the game is not finished")
        if self.deck is not None:
            deck_cards, seed = self.deck, _game_seed(self.seed, self.game)
        else:
            deck_cards, seed = self.drawn + self.unseen(), 0
        return {
            "level": self.level.number,
            "game": self.game,
            "seed": seed,
            "policy": PERSON if self.mode == "play" else "assist",
            "score": self.score().total,
            "deck": [format_card(c) for c in deck_cards],
            "moves": [
                {"card": format_card(c), "discard": True} if cell < 0 else
                {"card": format_card(c), "cell": [cell // self.level.size, cell % self.level.size]}
                for c, cell in self.moves
            ],
        }

    # -- save and resume ---------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "numberup": "session", "version": SAVE_VERSION, "mode": self.mode,
            "level": self.level.number, "seed": self.seed, "game": self.game,
            "events": [[kind, format_card(card), cell] for kind, card, cell in self.events],
        }

    def save(self, path) -> None:
        """Write the session to ``path`` whole (a temporary file renamed over it)."""
        from ..files import written_whole

        with written_whole(path) as tmp:
            tmp.write_text(json.dumps(self.to_dict()) + "\n")

    @classmethod
    def from_dict(cls, data, source: str = "saved game") -> "Session":
        """Rebuild a session, checking every event as if it were typed again."""
        if not isinstance(data, dict) or data.get("numberup") != "session":
            raise InputError(f"{source}: not a saved numberup game")
        try:
            mode, level = data["mode"], int(data["level"])
            seed, game, events = int(data["seed"]), int(data["game"]), list(data["events"])
        except (KeyError, TypeError, ValueError) as err:
            raise InputError(f"{source}: a saved game lacks or garbles {err}") from None
        if (mode not in ("play", "assist") or not 1 <= level <= 20 or seed < 0
                or not 0 <= game < 2**63):
            raise InputError(f"{source}: mode {mode!r}, level {level}, seed {seed}, game {game} "
                             "is not a game")
        s = cls(get_level(level), mode, seed, game)
        for k, ev in enumerate(events):
            try:
                kind, card_text, cell = ev
                card = parse_card(str(card_text), s.level)
                if kind == "draw":
                    s.draw(card)
                elif kind == "move" and isinstance(cell, int) and -1 <= cell < s.level.cells:
                    s.apply(card, cell)
                else:
                    raise InputError(f"{ev!r} is not a draw or a move")
            except (TypeError, ValueError) as err:
                raise InputError(f"{source}: event {k + 1}: {err}") from None
        return s

    @classmethod
    def load(cls, path) -> "Session":
        try:
            data = json.loads(Path(path).read_text())
        except OSError as err:
            raise InputError(f"{path}: cannot read it ({err.strerror})") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise InputError(f"{path}: not a saved game (bad JSON: {err})") from None
        return cls.from_dict(data, str(path))


def _game_seed(seed: int, game: int) -> int:
    from ..game.rng import game_seed

    return game_seed(seed, game)
