"""A position as a person writes it down: the grid, the hand, the discards.

The one place that says whether such a position can arise in a game of a level
(:func:`check_position`) and what is legal in it (:func:`legal_cells`, the engine's own
:func:`~numberup.game.engine._candidates` on the position loaded by
:func:`~numberup.game.engine._load_state`): ``advise``, ``play`` and ``assist`` all ask here.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import levels as L
from .cards import EMPTY, format_card
from .engine import _candidates, _fill_deck, _load_state
from .grid import geometry
from .levels import Level
from .state import State, new_state


def check_position(level: Level, grid: np.ndarray, hand: list[int], gone: list[int]) -> None:
    """Raise :class:`InputError` for a position that cannot arise in a game of ``level``: a
    card twice, more discards than the level allows, a full grid, cards outside the centre
    before it is filled or not connected to it, a hand of the wrong size."""
    geo = geometry(level.size)
    where = {int(c): f"the grid (row {i // level.size}, col {i % level.size})"
             for i, c in enumerate(grid) if c != EMPTY}
    for name, cards in (("the hand", hand), ("the discards", gone)):
        for c in cards:
            if c in where:
                raise InputError(f"card {format_card(c)} is in {name} and in {where[c]}: each card exists once")
            where[c] = name
    if len(gone) > level.discards:
        raise InputError(f"level {level.number} allows {level.discards} discards, not {len(gone)}")
    placed = [i for i, c in enumerate(grid) if c != EMPTY]
    if len(placed) == level.cells:
        raise InputError("the grid is full: the game is over, there is nothing to advise")
    centre = [int(c) for c in geo.centre]
    empty_centre = [c for c in centre if grid[c] == EMPTY]
    outside = [i for i in placed if i not in centre]
    if outside and empty_centre:
        c = empty_centre[0]
        raise InputError(
            f"row {c // level.size}, col {c % level.size}: the centre must be filled before any "
            "other cell (setup)"
        )
    seen = set(c for c in centre if grid[c] != EMPTY)
    todo = list(seen)
    while todo:
        cell = todo.pop()
        for nb in geo.neighbours[cell]:
            if nb >= 0 and grid[nb] != EMPTY and nb not in seen:
                seen.add(int(nb))
                todo.append(int(nb))
    for i in placed:
        if i not in seen:
            raise InputError(
                f"row {i // level.size}, col {i % level.size}: card {format_card(int(grid[i]))} "
                "is not connected to the centre"
            )
    cards_left = level.deck_size - len(placed) - len(gone)
    if level.hand:
        want = min(level.hand, cards_left) if len(placed) >= len(centre) else 1
        if len(hand) != want:
            raise InputError(f"level {level.number} is played from a hand of {want} here, not {len(hand)} (--hand)")
    elif len(hand) != 1:
        raise InputError(
            f"level {level.number} has no hand: --card takes the one card just drawn, "
            f"not {len(hand)} cards"
        )


def load_position(level: Level, grid: np.ndarray, hand=(), gone=(), discards_left: int = 0,
                  S: State | None = None) -> State:
    """The engine's state of the position (into ``S``, or a new one): ``grid`` as laid (int8,
    :data:`~numberup.game.cards.EMPTY` for an empty cell), ``hand`` held, ``gone`` discarded,
    ``discards_left`` discards to come."""
    p = L.PARAMS[level.number]
    S = new_state(level.cells) if S is None else S
    deck = np.zeros(level.deck_size, np.int8)
    n_deck = _fill_deck(p, deck)
    _load_state(p, geometry(level.size), S, deck, n_deck, np.asarray(grid, np.int8),
                np.array(list(hand) or [0], np.int8), len(hand),
                np.array(list(gone) + [0], np.int8), len(gone), discards_left)
    return S


def legal_cells(level: Level, grid: np.ndarray) -> list[int]:
    """The cells on offer in ``grid`` (ascending): the free centre cells during setup, else
    every empty cell next to a card."""
    S = load_position(level, grid)
    out = np.zeros(level.cells, np.int64)
    n = _candidates(geometry(level.size), S, out)
    return sorted(int(c) for c in out[:n])

