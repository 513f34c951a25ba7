"""The exact endgame: every action of a decision valued by full expectimax to the end of the game.

When at most ``E`` cells are empty, a searcher can stop estimating: :func:`_endgame_decide`
walks the whole rest of the game, a decision node over every action (hand slot x cell on
offer, and a discard while discards remain), a chance node over the next card (every unseen
card equally likely, as :mod:`numberup.game.engine` deals them: one card after each play, the hand
of five refilled on levels 18-20, nothing once the deck is out), and at the leaves the full
grid scored exactly by the level's own kernels. A node's value is the 4-vector (mean result,
P(bronze), P(silver), P(gold)) under play that maximises the objective (mean, or P(medal)),
ties going to the larger mean: the same tree as ``tests/oracles/expectiminimax.py``.

numba cannot cache recursive functions (numba #6061), and a chain of kernels one per depth
(as expectimax's ``BY_DEPTH``) compiles every kernel below into each one above: seven deep,
that took minutes. So the tree is walked by one loop over an explicit stack
(:func:`_after_value`): level ``k`` of :class:`Endgame` holds the decision ``k`` plies below
the root, its cells, the action it is judging and the card that action played, and the
chance node above it (the cards it draws from, the one drawn now, the running sum). Every
action lowers the *budget* (empty cells + discards left) by one, so a tree is at most
:data:`MAX_BUDGET` plies deep.

Pruning, all exact: the last card is not placed but scored in place (:func:`_result_if`
rescoring only the lines through its cell), and on levels with a hand the cards held before
the last draw are scored once for all the cards that may come (:func:`_last_card`). The
levels' decks have no identical cards, so every chance branch is a card of its own.

Work per decision (cards x actions per card still to come) grows about 10x per empty cell on
levels without a hand and 100-200x on levels 18-20: see results/endgame.md for what it costs
and where it pays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..game import levels as L
from ..game.engine import (
    _apply, _candidates, _done, _draw, _hand_capacity, _may_discard, _undo_apply, _undraw,
)
from ..jit import kernel
from ..game.state import I_DISCARDS, I_FILLED, I_HAND, I_TRACK, I_UNSEEN, N_IDS
from ..game.tally import _line_sums, _rescore_all, _result, _result_if

MAX_ENDGAME = 5  # empty cells at most (a level-20 decision at 5 takes half a minute)
MAX_DISCARDS = 2  # the most discards any level allows (levels 3 and 13)
MAX_BUDGET = MAX_ENDGAME + MAX_DISCARDS
N_VALUE = 5  # a node value: mean, P(bronze), P(silver), P(gold), and the mean again (as search's)

# what the walk of :func:`_after_value` does next
_ENTER_AFTER, _DRAW, _ENTER_DECISION, _PLAY, _RETURN_AFTER, _RETURN_DECISION = 0, 1, 2, 3, 4, 5


class Endgame(NamedTuple):
    """The exact endgame's working arrays. The stack has one level per ply below the root
    (``MAX_BUDGET`` levels): level ``k`` holds one decision and the chance node above it.

    cand : int64 (MAX_BUDGET, cells)  the cells on offer at decision k
    n_cand : int64 (MAX_BUDGET,)      how many
    slot, j : int64 (MAX_BUDGET,)     the action decision k is judging: hand slot, and
                                      ``cand[k, j]`` (j == n_cand: the discard)
    card : int64 (MAX_BUDGET,)        the card that action played (to undo it)
    may_discard : int64 (MAX_BUDGET,) 1: decision k may discard
    draws : int64 (MAX_BUDGET, 48)    the cards the chance node above decision k draws from (a
                                      copy: drawing and undrawing reorder the unseen list)
    n_draw : int64 (MAX_BUDGET,)      how many; 0: no card is drawn there (the hand is full)
    drawn : int64 (MAX_BUDGET,)       which of them is drawn now
    best : float64 (MAX_BUDGET, 5)    the best action's value so far at decision k
    total : float64 (MAX_BUDGET, 5)   the chance node's running sum
    value : float64 (5,)              the value the walk carries up a level
    root, root_best : float64 (5,)    the root action being judged, and the best so far
    last_cand : int64 (cells,)        the one cell on offer to the last card
    last_best, last_judged, last_total : float64 (5,)  the last card's choice and chance node
    """

    cand: np.ndarray
    n_cand: np.ndarray
    slot: np.ndarray
    j: np.ndarray
    card: np.ndarray
    may_discard: np.ndarray
    draws: np.ndarray
    n_draw: np.ndarray
    drawn: np.ndarray
    best: np.ndarray
    total: np.ndarray
    value: np.ndarray
    root: np.ndarray
    root_best: np.ndarray
    last_cand: np.ndarray
    last_best: np.ndarray
    last_judged: np.ndarray
    last_total: np.ndarray


def new_endgame(level) -> Endgame:
    """Allocate an :class:`Endgame` for ``level`` (a :class:`~numberup.game.levels.Level`)."""
    rows = MAX_BUDGET
    ints = lambda: np.zeros(rows, np.int64)  # noqa: E731
    vec = lambda: np.zeros(N_VALUE, np.float64)  # noqa: E731
    return Endgame(
        np.zeros((rows, level.cells), np.int64), ints(), ints(), ints(), ints(), ints(),
        np.zeros((rows, N_IDS), np.int64), ints(), ints(),
        np.zeros((rows, N_VALUE), np.float64), np.zeros((rows, N_VALUE), np.float64),
        vec(), vec(), vec(), np.zeros(level.cells, np.int64), vec(), vec(), vec(),
    )


@kernel(inline="always")
def _result_value(p, r, out):
    """``out`` := the node value of a final result ``r``."""
    out[0] = r
    out[1] = 1.0 if r >= p[L.P_BRONZE] else 0.0
    out[2] = 1.0 if r >= p[L.P_SILVER] else 0.0
    out[3] = 1.0 if r >= p[L.P_GOLD] else 0.0
    out[4] = r


@kernel(inline="always")
def _beats(a, b, objective):
    """Value ``a`` is better than ``b`` for the objective, ties going to the larger mean."""
    if a[objective] > b[objective] + 1e-12:
        return True
    if a[objective] < b[objective] - 1e-12:
        return False
    return a[0] > b[0] + 1e-12


@kernel(inline="always")
def _set(dst, src):
    for q in range(N_VALUE):
        dst[q] = src[q]


@kernel(inline="always")
def _budget(p, S):
    """Empty cells + discards left: the plies still to play."""
    return p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED] + S.ints[I_DISCARDS]


@kernel
def _last_card(p, geo, S, G, objective, out):
    """The last card, at a state of budget 1 (one empty cell, no discard left): ``out`` :=
    the value of the best hand card on that cell, after a random next card when the hand has
    room for one (the state after an action), or of the hand as it is (a decision).

    No card is placed: each is scored where it would go (:func:`_result_if`). The cards held
    before the draw are scored once, not once per card drawn: the best of them stays the best
    unless the drawn card beats it (on levels 18-20, four of the five cards; without a hand,
    none)."""
    _candidates(geo, S, G.last_cand)
    cell = G.last_cand[0]
    base_sum, base_markers = _line_sums(p, S)
    held = G.last_best
    judged = G.last_judged
    total = G.last_total
    n_held = S.ints[I_HAND]
    n_draw = S.ints[I_UNSEEN] if n_held < _hand_capacity(p, geo, S) else 0
    for q in range(N_VALUE):
        total[q] = 0.0
    for i in range(n_held + n_draw):
        card = S.hand[i] if i < n_held else S.unseen[i - n_held]
        r, _ = _result_if(p, geo, S, card, cell, base_sum, base_markers)
        _result_value(p, r, judged)
        better = i == 0 or _beats(judged, held, objective)
        if i < n_held:
            if better:
                _set(held, judged)
        else:  # a card drawn: it is played if it beats the best held card
            for q in range(N_VALUE):
                total[q] += judged[q] if better or n_held == 0 else held[q]
    if n_draw == 0:
        _set(out, held)
    else:
        for q in range(N_VALUE):
            out[q] = total[q] / n_draw


@kernel(inline="always")
def _next_action(S, G, k):
    """Move decision ``k`` to its next action (slot-major, the discard after slot 0's cells);
    returns False when there is none."""
    G.j[k] += 1
    if G.j[k] < G.n_cand[k] + (1 if G.may_discard[k] and G.slot[k] == 0 else 0):
        return True
    G.j[k] = 0
    G.slot[k] += 1
    return G.slot[k] < S.ints[I_HAND]


@kernel
def _after_value(p, geo, S, G, objective, out):
    """``out`` := the exact value of the state ``S`` right after an action: the result of a
    full grid, else the average over the next card (when one is drawn) of the best action
    after it, and so on to the end of the game. ``S`` is left as it was.

    A loop over an explicit stack (module doc): ``mode`` says whether the walk enters the
    state after an action or a decision at level ``k``, or returns the value ``G.value`` of
    one of them to the level above."""
    k = 0
    mode = _ENTER_AFTER
    value = G.value
    while True:
        if mode == _ENTER_AFTER:
            if _done(p, S):
                _result_value(p, _result(p, S), value)
                mode = _RETURN_AFTER
            elif _budget(p, S) == 1:
                _last_card(p, geo, S, G, objective, value)
                mode = _RETURN_AFTER
            elif S.ints[I_HAND] < _hand_capacity(p, geo, S) and S.ints[I_UNSEEN] > 0:
                n_draw = S.ints[I_UNSEEN]
                G.n_draw[k] = n_draw
                for i in range(n_draw):
                    G.draws[k, i] = S.unseen[i]
                for q in range(N_VALUE):
                    G.total[k, q] = 0.0
                G.drawn[k] = 0
                mode = _DRAW
            else:
                G.n_draw[k] = 0
                mode = _ENTER_DECISION
        elif mode == _DRAW:
            _draw(S, G.draws[k, G.drawn[k]])
            mode = _ENTER_DECISION
        elif mode == _ENTER_DECISION:  # budget >= 2 here: budget 1 ends in _last_card
            G.n_cand[k] = _candidates(geo, S, G.cand[k])
            G.may_discard[k] = 1 if _may_discard(p, geo, S) else 0
            G.slot[k] = 0
            G.j[k] = 0  # a grid not full always offers a cell (every card touches the centre's)
            mode = _PLAY
        elif mode == _PLAY:  # decision k's current action
            slot, j = G.slot[k], G.j[k]
            G.card[k] = S.hand[slot]
            _apply(p, geo, S, slot, G.cand[k, j] if j < G.n_cand[k] else -1)
            k += 1
            mode = _ENTER_AFTER
        elif mode == _RETURN_AFTER:  # value: of the state after decision k-1's action
            if k == 0:
                _set(out, value)
                return
            k -= 1
            slot, j = G.slot[k], G.j[k]
            _undo_apply(p, geo, S, slot, G.cand[k, j] if j < G.n_cand[k] else -1, G.card[k])
            if (slot == 0 and j == 0) or _beats(value, G.best[k], objective):
                _set(G.best[k], value)
            if _next_action(S, G, k):
                mode = _PLAY
            else:
                _set(value, G.best[k])
                mode = _RETURN_DECISION
        else:  # _RETURN_DECISION: value: of decision k, below its chance node
            n_draw = G.n_draw[k]
            mode = _RETURN_AFTER
            if n_draw > 0:
                _undraw(S, G.draws[k, G.drawn[k]])
                for q in range(N_VALUE):
                    G.total[k, q] += value[q]
                G.drawn[k] += 1
                if G.drawn[k] < n_draw:
                    mode = _DRAW
                else:
                    for q in range(N_VALUE):
                        value[q] = G.total[k, q] / n_draw


@kernel(inline="always")
def _endgame_applies(p, S, endgame):
    """At most ``endgame`` cells are empty (and ``endgame`` > 0: the exact endgame is on)."""
    empty = p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED]
    return endgame > 0 and empty <= endgame and _budget(p, S) <= MAX_BUDGET


@kernel
def _endgame_decide(p, geo, S, X, cand, n_cand, may_discard, endgame, objective):
    """The exact decision when at most ``endgame`` cells are empty, else ``(-1, -1)``.

    The hook of any searcher (first lines of its action kernel)::

        slot, cell = _endgame_decide(p, geo, S, X, cand, n_cand, may_discard, E, objective)
        if slot >= 0:
            return slot, cell

    Returns (hand slot, cell or -1 for a discard) of the best action for ``objective`` (0:
    mean, 1-3: P(bronze/silver/gold)), the first best in action order; ``X.values[a]`` := the
    exact value of action ``a`` (numbered as every searcher's: ``slot * n_cand + j`` for
    ``cand[j]``, the discard last). ``X.endgame`` is the search's scratch. The state is left
    as it was; while searching, line scores are kept up to date (a player that does not track
    them gets them rescored, and untracked again after).
    """
    if not _endgame_applies(p, S, endgame):
        return -1, -1
    G = X.endgame
    track = S.ints[I_TRACK]
    if not track:
        S.ints[I_TRACK] = 1
        _rescore_all(p, geo, S)
    row = G.root
    best = G.root_best
    best_slot, best_cell = -1, -1
    n_hand = S.ints[I_HAND]
    for slot in range(n_hand):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _apply(p, geo, S, slot, cell)
            _after_value(p, geo, S, G, objective, row)
            _undo_apply(p, geo, S, slot, cell, card)
            a = slot * n_cand + j if cell >= 0 else n_hand * n_cand
            for q in range(N_VALUE):
                X.values[a, q] = row[q]
            if best_slot < 0 or _beats(row, best, objective):
                _set(best, row)
                best_slot, best_cell = slot, cell
    S.ints[I_TRACK] = track
    return best_slot, best_cell


@kernel(inline="always")
def _no_endgame(p, geo, S, X, cand, n_cand, may_discard, endgame, objective):
    """The hook's stand-in for a searcher compiled without the exact endgame."""
    return -1, -1
