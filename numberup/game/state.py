"""The player's view of a game: a small state of arrays (:class:`State`), its scalars, and
the indexed sets kept in it.

The state holds exactly what the player may know: the grid, the hand, the discards left, and
the unseen cards (deck minus placed, discarded and hand cards), every one of them equally
likely to come next. The deck order itself is passed only to
:func:`numberup.game.engine._begin_turn`. The unseen cards, the legal cells and the hand are kept as
indexed sets (a list and each item's position in it), so a card or a cell comes and goes in
O(1) and a searcher can undo every step.

:func:`new_state` allocates (plain Python); the kernels here allocate nothing. The game
mechanics that change a state are :mod:`numberup.game.engine`, and the running score of its lines
:mod:`numberup.game.tally`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import kernel

# Scalars of the state, in State.ints.
I_LEGAL = 0  # number of legal cells (first entries of State.legal)
I_UNSEEN = 1  # number of unseen cards (first entries of State.unseen)
I_HAND = 2  # number of cards in hand
I_DISCARDS = 3  # discards left
I_FILLED = 4  # cards on the grid
I_NEXT = 5  # index of the next card of the deck
I_DECK = 6  # deck size
I_TRACK = 7  # 1: keep every line's score up to date as cards go down (players that look)
N_INTS = 8

MAX_LINES = 14
MAX_LINE_CELLS = 6  # cells of a line at most (6x6)
MAX_HAND = 8
N_IDS = 48


class State(NamedTuple):
    """The player's view of a game (arrays, mutated in place by the kernels).

    grid : int8 (cells,)        card ids, -1 empty
    legal : int64 (cells,)      the legal cells, first ``ints[I_LEGAL]`` entries
    legal_pos : int64 (cells,)  position of a cell in ``legal``, -1 if not legal
    unseen : int8 (48,)         the unseen cards, first ``ints[I_UNSEEN]`` entries
    unseen_pos : int64 (48,)    position of a card id in ``unseen``, -1 if seen
    hand : int8 (8,)            the cards the player may play now, first ``ints[I_HAND]``
    line_points, line_markers, line_values : int64 (14,)   each line's score now
    ints : int64 (8,)           the ``I_*`` scalars
    rng : uint64 (2,)           the player's random stream; [1]: a searcher's per-decision seed
    touched : int64 (4,)        :func:`numberup.game.tally._result_if`'s new values of the lines
                                through a cell

    A player's own working arrays are apart, in :class:`numberup.players.scratch.Scratch`.
    """

    grid: np.ndarray
    legal: np.ndarray
    legal_pos: np.ndarray
    unseen: np.ndarray
    unseen_pos: np.ndarray
    hand: np.ndarray
    line_points: np.ndarray
    line_markers: np.ndarray
    line_values: np.ndarray
    ints: np.ndarray
    rng: np.ndarray
    touched: np.ndarray


def new_state(cells):
    """Allocate a state for a grid of ``cells`` cells (plain Python: compiling the
    allocations cost seconds of the first run, and no kernel allocates a state)."""
    return State(
        np.full(cells, -1, np.int8),
        np.zeros(cells, np.int64),
        np.full(cells, -1, np.int64),
        np.zeros(N_IDS, np.int8),
        np.full(N_IDS, -1, np.int64),
        np.zeros(MAX_HAND, np.int8),
        np.zeros(MAX_LINES, np.int64),
        np.zeros(MAX_LINES, np.int64),
        np.zeros(MAX_LINES, np.int64),
        np.zeros(N_INTS, np.int64),
        np.zeros(2, np.uint64),
        np.zeros(4, np.int64),
    )


@kernel(inline="always")
def _set_add(items, pos, ints, count, x):
    """Append ``x`` to the indexed set ``items[:ints[count]]`` (``pos[x]``: its index)."""
    k = ints[count]
    items[k] = x
    pos[x] = k
    ints[count] = k + 1


@kernel(inline="always")
def _set_remove(items, pos, ints, count, x):
    """Remove ``x`` from the indexed set in O(1): the last item takes its place."""
    k = pos[x]
    last = ints[count] - 1
    moved = items[last]
    items[k] = moved
    pos[moved] = k
    pos[x] = -1
    ints[count] = last


@kernel(inline="always")
def _remove_unseen(S, card):
    """The card is seen: take it out of the unseen list."""
    _set_remove(S.unseen, S.unseen_pos, S.ints, I_UNSEEN, card)


@kernel(inline="always")
def _restore_unseen(S, card):
    """Undo :func:`_remove_unseen` (the order of the unseen list may change)."""
    _set_add(S.unseen, S.unseen_pos, S.ints, I_UNSEEN, card)


@kernel(inline="always")
def _hand_add(S, card):
    S.hand[S.ints[I_HAND]] = card
    S.ints[I_HAND] += 1


@kernel(inline="always")
def _hand_remove(S, slot):
    """Remove the card in ``slot`` (the last card takes its place); returns it."""
    card = S.hand[slot]
    last = S.ints[I_HAND] - 1
    S.hand[slot] = S.hand[last]
    S.hand[last] = card
    S.ints[I_HAND] = last
    return card


@kernel(inline="always")
def _copy_into(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def _copy_state(S, T):
    """Make ``T`` a copy of ``S`` (both from :func:`new_state` of the same size)."""
    _copy_into(T.grid, S.grid)
    _copy_into(T.legal, S.legal)
    _copy_into(T.legal_pos, S.legal_pos)
    _copy_into(T.unseen, S.unseen)
    _copy_into(T.unseen_pos, S.unseen_pos)
    _copy_into(T.hand, S.hand)
    _copy_into(T.line_points, S.line_points)
    _copy_into(T.line_markers, S.line_markers)
    _copy_into(T.line_values, S.line_values)
    _copy_into(T.ints, S.ints)
