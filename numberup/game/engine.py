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

The state (:mod:`numberup.game.state`) holds exactly what the player may know; the deck order
itself is passed only to ``_begin_turn``. Each line's points, markers and value are kept up to
date (:mod:`numberup.game.tally`), so a placement rescores only the lines through its cell, and
:func:`_place` / :func:`_unplace` let searchers walk the game tree in place.

Kernels here allocate nothing (compiled without numba's reference counting, as in
:mod:`numberup.game.scoring`); :func:`numberup.game.state.new_state` allocates. A call to a kernel
passes the state's 12 arrays by value, which costs as much as a random player's whole move, so
the game loop inlines the move (:func:`_apply_inline`) and the simple players; searchers call
:func:`_apply`, the same as a call (inlining it at each of their call sites would lengthen the
first compile).
"""

from __future__ import annotations

import numpy as np
from . import levels as L
from ..jit import kernel
from .rng import _game_seed, _player_seed, _shuffle
from .state import (
    I_DECK, I_DISCARDS, I_FILLED, I_HAND, I_LEGAL, I_NEXT, I_TRACK, I_UNSEEN, _hand_add,
    _hand_remove, _remove_unseen, _restore_unseen, _set_add, _set_remove,
)
from .tally import _rescore_all, _rescore_cell


@kernel
def _fill_deck(p, deck):
    """The level's cards in sorted order (as :func:`numberup.game.cards.deck`); returns the count."""
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


@kernel(inline="always")
def _in_setup(geo, S):
    return S.ints[I_FILLED] < geo.centre.shape[0]


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
def _hand_slot(S, card):
    """The hand slot holding ``card`` (the last, if several do), or -1 if none does."""
    slot = -1
    for k in range(S.ints[I_HAND]):
        if S.hand[k] == card:
            slot = k
    return slot


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
def _on_offer(geo, S, cell):
    """Whether ``cell`` is one of the cells on offer (:func:`_candidates`) without listing
    them: a free centre cell in setup, else a free cell touching a card."""
    if cell < 0 or cell >= S.grid.shape[0] or S.grid[cell] >= 0:
        return False
    if _in_setup(geo, S):
        for k in range(geo.centre.shape[0]):
            if geo.centre[k] == cell:
                return True
        return False
    return S.legal_pos[cell] >= 0


@kernel(inline="always")
def _given_move(p, geo, S, card, cell):
    """The hand slot to play ``card`` from, to ``cell`` (-1: a discard), after
    :func:`_begin_turn`; -1 when that is not a legal move: the card is not in the hand, the
    cell is not on offer, or no discard is allowed. For replaying given decisions."""
    slot = _hand_slot(S, card)
    if slot < 0 or not (_may_discard(p, geo, S) if cell < 0 else _on_offer(geo, S, cell)):
        return -1
    return slot


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


