"""Game mechanics as numba kernels over a small state of arrays.

One flow serves every level. A game is a sequence of *turns*; each turn the player has the
cards in ``hand`` (the one card just drawn, or the hand of five on levels 18-20) and picks an
action: a hand slot and a cell, or ``cell = -1`` to discard (levels 3 and 13, while discards
remain). During setup the cells offered are the free centre cells (one on 5x5, so no choice),
afterwards the legal cells: empty and orthogonally next to a card.

::

    _start(S)                          empty grid, every card unseen
    while not _done(S):
        _begin_turn(p, geo, S, deck)   draw until the hand is full (1 card, or 5; 1 in setup)
        n = _candidates(geo, S, cand)  the cells on offer
        slot, cell = <player>          any player: random, greedy, searchers
        _apply(p, geo, S, slot, cell)  place (or discard) and rescore the lines it touches

The state holds exactly what the player may know: the grid, the hand, the discards left, and
the unseen cards (deck minus placed, discarded and hand cards), every one of them equally
likely to come next. The deck order itself is passed only to ``_begin_turn``. Each line's
points, markers and value are kept up to date, so a placement rescores only the lines through
its cell (:func:`_result_if`), and :func:`_place` / :func:`_unplace` let searchers walk the
game tree in place.

Kernels here allocate nothing (compiled without numba's reference counting, as in
:mod:`numberup.scoring`); :func:`new_state` allocates. A call to a kernel passes the state's
12 arrays by value, which costs as much as a random player's whole move, so the game loop
inlines the move (:func:`_apply_inline`) and the simple players; searchers call
:func:`_apply`, the same as a call (inlining it at each of their call sites would lengthen the
first compile).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from . import levels as L
from .jit import kernel
from .rng import _game_seed, _player_seed, _shuffle
from .scoring import _aggregate, _line_score, _line_value

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
MAX_HAND = 8
N_IDS = 48
# A searcher's estimate of a line: N_STATS columns (mean, variance, P(value >= bronze/silver/
# gold line target)), then on levels scored by the lowest line P(value >= t) for
# t = DIST_LO + 1 .. DIST_HI.
N_STATS = 5
DIST_LO, DIST_HI = -10, 40  # every line value: a minus marker .. four checkmarkers
EVAL_WIDTH = N_STATS + DIST_HI - DIST_LO


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
    touched : int64 (4,)        :func:`_result_if`'s new values of the lines through a cell

    A player's own working arrays are apart, in :class:`numberup.scratch.Scratch`.
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


@kernel
def _fill_deck(p, deck):
    """The level's cards in sorted order (as :func:`numberup.cards.deck`); returns the count."""
    n = 0
    for v in range(p[L.P_VALUES]):
        for c in range(p[L.P_COLOURS]):
            deck[n] = v * 8 + c
            n += 1
    return n


@kernel
def _start(p, geo, S, deck, n_deck, track):
    """Reset ``S`` to the start of a game whose deck holds ``deck[:n_deck]`` (any order).

    ``track``: keep line scores up to date on every placement (players that judge grids need
    it; a random player does not, and plays three times faster without).
    """
    S.grid[:] = -1
    S.legal_pos[:] = -1
    S.unseen_pos[:] = -1
    for k in range(n_deck):
        S.unseen[k] = deck[k]
        S.unseen_pos[deck[k]] = k
    S.ints[:] = 0
    S.ints[I_UNSEEN] = n_deck
    S.ints[I_DISCARDS] = p[L.P_DISCARDS]
    S.ints[I_DECK] = n_deck
    S.ints[I_TRACK] = track
    if track:
        _rescore_all(p, geo, S)


@kernel
def _deal(p, geo, S, deck, master, game, track):
    """Deal game ``game`` of master seed ``master``: ``deck`` := its cards in draw order, ``S``
    := the start (unseen cards in sorted order: no hint of the deal), and the player's own
    random stream seeded from the game's seed. Returns (game seed, deck size)."""
    seed = _game_seed(master, np.uint64(game))
    n_deck = _fill_deck(p, deck)
    _start(p, geo, S, deck, n_deck, track)
    S.rng[0] = seed
    _shuffle(S.rng, deck, n_deck)
    S.rng[0] = _player_seed(seed)
    return seed, n_deck


@kernel
def _rescore_all(p, geo, S):
    """Score every line afresh (at the start, and at the end of an untracked game)."""
    n = p[L.P_SIZE]
    for li in range(p[L.P_NLINES]):
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        S.line_points[li] = points
        S.line_markers[li] = markers
        S.line_values[li] = _line_value(points, markers)


@kernel(inline="always")
def _in_setup(geo, S):
    return S.ints[I_FILLED] < geo.centre.shape[0]


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
def _hand_capacity(p, geo, S):
    """Cards the player holds in this turn: 1 in setup and without a hand, else the hand size."""
    if _in_setup(geo, S) or p[L.P_HAND] == 0:
        return 1
    return p[L.P_HAND]


@kernel(inline="always")
def _begin_turn(p, geo, S, deck):
    """Draw from ``deck`` until the hand is full or the deck is empty."""
    cap = _hand_capacity(p, geo, S)
    while S.ints[I_HAND] < cap and S.ints[I_NEXT] < S.ints[I_DECK]:
        card = deck[S.ints[I_NEXT]]
        S.ints[I_NEXT] += 1
        _remove_unseen(S, card)
        _hand_add(S, card)


@kernel(inline="always")
def _may_discard(p, geo, S):
    return S.ints[I_DISCARDS] > 0 and not _in_setup(geo, S)


@kernel(inline="always")
def _done(p, S):
    return S.ints[I_FILLED] == p[L.P_SIZE] * p[L.P_SIZE]


@kernel(inline="always")
def _candidates(geo, S, out):
    """Write the cells on offer into ``out``; returns how many (free centre cells in setup)."""
    n = 0
    if _in_setup(geo, S):
        for k in range(geo.centre.shape[0]):
            if S.grid[geo.centre[k]] < 0:
                out[n] = geo.centre[k]
                n += 1
        return n
    for k in range(S.ints[I_LEGAL]):
        out[k] = S.legal[k]
    return S.ints[I_LEGAL]


@kernel(inline="always")
def _offered(geo, S, out):
    """``(cells, n)``: the cells on offer as :func:`_candidates`, without copying the legal
    list (``cells`` is ``S.legal`` after setup): for players that do not change the state
    while they read it."""
    if _in_setup(geo, S):
        return out, _candidates(geo, S, out)
    return S.legal, S.ints[I_LEGAL]


@kernel(inline="always")
def _refresh_legal(geo, S, cell):
    """Make ``cell``'s membership of the legal list true: empty with a card next to it."""
    legal = False
    if S.grid[cell] < 0:
        for k in range(4):
            nb = geo.neighbours[cell, k]
            if nb >= 0 and S.grid[nb] >= 0:
                legal = True
                break
    listed = S.legal_pos[cell] >= 0
    if legal and not listed:
        _set_add(S.legal, S.legal_pos, S.ints, I_LEGAL, cell)
    elif listed and not legal:
        _set_remove(S.legal, S.legal_pos, S.ints, I_LEGAL, cell)


@kernel(inline="always")
def _rescore_cell(p, geo, S, cell):
    """Rescore the lines through ``cell``."""
    n = p[L.P_SIZE]
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li < 0 or li >= p[L.P_NLINES]:
            continue
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        S.line_points[li] = points
        S.line_markers[li] = markers
        S.line_values[li] = _line_value(points, markers)


@kernel(inline="always")
def _place(p, geo, S, card, cell):
    """Put ``card`` on the empty ``cell`` (it must already be out of the unseen list).

    A card going down can only make its own cell illegal and its empty neighbours legal, so
    the legal list is updated without looking further; the update is written without
    data-dependent branches (which a random player makes unpredictable)."""
    S.grid[cell] = card
    S.ints[I_FILLED] += 1
    if S.legal_pos[cell] >= 0:
        _set_remove(S.legal, S.legal_pos, S.ints, I_LEGAL, cell)
    count = S.ints[I_LEGAL]
    for k in range(4):
        nb = geo.neighbours[cell, k]
        nb = nb if nb >= 0 else cell  # off the grid: the cell itself, now never added
        add = S.grid[nb] < 0 and S.legal_pos[nb] < 0
        S.legal[count] = nb  # past the list's end unless added (count < cells: cell is full)
        S.legal_pos[nb] = count if add else S.legal_pos[nb]
        count += np.int64(add)
    S.ints[I_LEGAL] = count
    if S.ints[I_TRACK]:
        _rescore_cell(p, geo, S, cell)


@kernel(inline="always")
def _unplace(p, geo, S, cell):
    """Undo :func:`_place`; returns the card that was there."""
    card = S.grid[cell]
    S.grid[cell] = -1
    S.ints[I_FILLED] -= 1
    _refresh_legal(geo, S, cell)
    for k in range(4):
        nb = geo.neighbours[cell, k]
        if nb >= 0:
            _refresh_legal(geo, S, nb)
    if S.ints[I_TRACK]:
        _rescore_cell(p, geo, S, cell)
    return card


@kernel(inline="always")
def _apply_inline(p, geo, S, slot, cell):
    """Play the card in hand ``slot`` on ``cell``, or discard it (``cell = -1``)."""
    card = _hand_remove(S, slot)
    if cell < 0:
        S.ints[I_DISCARDS] -= 1
    else:
        _place(p, geo, S, card, cell)
    return card


@kernel
def _apply(p, geo, S, slot, cell):
    """Play the card in hand ``slot`` on ``cell``, or discard it (``cell = -1``)."""
    return _apply_inline(p, geo, S, slot, cell)


@kernel
def _undo_apply(p, geo, S, slot, cell, card):
    """Undo :func:`_apply` of ``card`` from hand ``slot``: the hand is as it was, in order."""
    if cell < 0:
        S.ints[I_DISCARDS] += 1
    else:
        _unplace(p, geo, S, cell)
    last = S.ints[I_HAND]
    S.hand[last] = S.hand[slot]
    S.hand[slot] = card
    S.ints[I_HAND] = last + 1


@kernel(inline="always")
def _draw(S, card):
    """The player draws ``card`` (a searcher supposing what comes next)."""
    _remove_unseen(S, card)
    _hand_add(S, card)
    S.ints[I_NEXT] += 1


@kernel(inline="always")
def _undraw(S, card):
    """Undo :func:`_draw` (the card is the last in hand)."""
    S.ints[I_HAND] -= 1
    _restore_unseen(S, card)
    S.ints[I_NEXT] -= 1


@kernel
def _load_state(p, geo, S, deck, n_deck, grid, hand, n_hand, gone, n_gone, discards_left):
    """Set ``S`` to a game in progress: ``grid`` as laid, ``hand[:n_hand]`` held,
    ``gone[:n_gone]`` discarded, ``discards_left`` discards to come (for advice)."""
    _start(p, geo, S, deck, n_deck, True)
    for cell in range(grid.shape[0]):
        if grid[cell] >= 0:
            _remove_unseen(S, grid[cell])
            _place(p, geo, S, grid[cell], cell)
    for k in range(n_hand):
        _draw(S, hand[k])
    for k in range(n_gone):
        _remove_unseen(S, gone[k])
    S.ints[I_NEXT] = S.ints[I_FILLED] + n_hand + n_gone
    S.ints[I_DISCARDS] = discards_left


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


@kernel(inline="always")
def _aggregate_lines(agg, values, markers, n_lines):
    acc_sum, acc_min, acc_markers = 0, 1 << 30, 0
    for li in range(n_lines):
        acc_sum += values[li]
        acc_min = min(acc_min, values[li])
        acc_markers += max(markers[li], 0)
    return _aggregate(agg, acc_sum, acc_min, acc_markers)


@kernel(inline="always")
def _result(p, S):
    """The game result of the grid as it stands."""
    return _aggregate_lines(p[L.P_AGG], S.line_values, S.line_markers, p[L.P_NLINES])


@kernel(inline="always")
def _line_sums(p, S):
    """(sum of line values, sum of checkmarkers) of the grid as it stands."""
    acc_sum, acc_markers = 0, 0
    for li in range(p[L.P_NLINES]):
        acc_sum += S.line_values[li]
        acc_markers += max(S.line_markers[li], 0)
    return acc_sum, acc_markers


@kernel(inline="always")
def _result_if(p, geo, S, card, cell, base_sum, base_markers):
    """(game result, sum of line values) if ``card`` went on ``cell``; the state is left as
    it was. ``base_sum``, ``base_markers``: :func:`_line_sums` of the state, so that only the
    lines through ``cell`` are rescored. The sum tells apart grids of equal result on levels
    scored by the lowest line or by checkmarkers alone."""
    n = p[L.P_SIZE]
    nl = p[L.P_NLINES]
    agg = p[L.P_AGG]
    S.grid[cell] = card
    acc_sum, acc_markers = base_sum, base_markers
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li < 0 or li >= nl:
            continue
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        value = _line_value(points, markers)
        acc_sum += value - S.line_values[li]
        acc_markers += max(markers, 0) - max(S.line_markers[li], 0)
        S.touched[k] = value
    acc_min = 1 << 30
    if agg == L.AGG_MIN_X10:
        for li in range(nl):
            value = S.line_values[li]
            for k in range(4):
                if geo.cell_lines[cell, k] == li:
                    value = S.touched[k]
            acc_min = min(acc_min, value)
    S.grid[cell] = -1
    return _aggregate(agg, acc_sum, acc_min, acc_markers), acc_sum
