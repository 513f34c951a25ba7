"""The exact endgame: every action of a decision valued by full expectimax to the end of the game.

When at most ``E`` cells are empty, a searcher can stop estimating: :func:`_endgame_decide`
walks the whole rest of the game, a decision node over every action (hand slot x cell on
offer, and a discard while discards remain), a chance node over the next card (every unseen
card equally likely, as :mod:`numberup.engine` deals them: one card after each play, the hand
of five refilled on levels 18-20, nothing once the deck is out), and at the leaves the full
grid scored exactly by the level's own kernels. A node's value is the 4-vector (mean result,
P(bronze), P(silver), P(gold)) under play that maximises the objective (mean, or P(medal)),
ties going to the larger mean: the same tree as ``tests/expectiminimax.py``.

numba cannot cache recursive functions (numba #6061), so the tree is built from templates,
one kernel per *budget* ``b`` = empty cells + discards left: every action lowers it by one
(a placement fills a cell, a discard uses one), so the decision of budget ``b`` calls the
chance node of budget ``b - 1``, down to 0 (the grid is full). :data:`MAX_ENDGAME` empty
cells and the level's discards bound it (:data:`MAX_BUDGET`).

Pruning, all exact: the last card is not placed but scored in place (:func:`_result_if`
rescoring only the lines through its cell), and no node is searched twice for the same card.
The level's decks have no identical cards, so every chance branch is a card of its own.

Work per decision (cards x actions per card still to come) grows about 10x per empty cell on
levels without a hand and 50-100x on levels 18-20: see results/endgame.md for what it costs
and where it pays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import levels as L
from .engine import (
    I_DISCARDS, I_FILLED, I_HAND, I_TRACK, I_UNSEEN, N_IDS, _apply, _candidates, _done, _draw,
    _hand_capacity, _line_sums, _may_discard, _rescore_all, _result, _result_if, _undo_apply,
    _undraw,
)
from .jit import kernel, specialize

MAX_ENDGAME = 5  # empty cells at most (a level-20 decision at 5 takes minutes: results/endgame.md)
MAX_DISCARDS = 2  # the most discards any level allows (levels 3 and 13)
MAX_BUDGET = MAX_ENDGAME + MAX_DISCARDS
N_VALUE = 5  # a node value: mean, P(bronze), P(silver), P(gold), and the mean again (as search's)


class Endgame(NamedTuple):
    """The exact endgame's working arrays, one row per budget ``b`` (the tree's depth: a
    node of budget ``b`` uses row ``b`` only, so no two live nodes share a row).

    cand : int64 (MAX_BUDGET + 1, cells)   the cells on offer at the decision of budget b
    draws : int64 (MAX_BUDGET + 1, 48)     the cards a chance node of budget b draws from (a
                                           copy: drawing and undrawing reorder the unseen list)
    best : float64 (MAX_BUDGET + 1, 5)     the best action's value so far at a decision
    judged : float64 (MAX_BUDGET + 1, 5)   the value of the action being judged at a decision
    drawn : float64 (MAX_BUDGET + 1, 5)    a chance node's value after one card
    total : float64 (MAX_BUDGET + 1, 5)    a chance node's running sum
    """

    cand: np.ndarray
    draws: np.ndarray
    best: np.ndarray
    judged: np.ndarray
    drawn: np.ndarray
    total: np.ndarray


def new_endgame(level) -> Endgame:
    """Allocate an :class:`Endgame` for ``level`` (a :class:`~numberup.levels.Level`)."""
    rows = MAX_BUDGET + 1
    return Endgame(
        np.zeros((rows, level.cells), np.int64),
        np.zeros((rows, N_IDS), np.int64),
        *(np.zeros((rows, N_VALUE), np.float64) for _ in range(4)),
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


@kernel
def _last_card(p, geo, S, G, objective, out):
    """The decision of budget 1: one empty cell, no discard left. Each hand card is scored
    where it would go, without placing it; ``out`` := the best one's value."""
    cand = G.cand[1]
    _candidates(geo, S, cand)
    cell = cand[0]
    base_sum, base_markers = _line_sums(p, S)
    best = G.best[1]
    judged = G.judged[1]
    for slot in range(S.ints[I_HAND]):
        r, _ = _result_if(p, geo, S, S.hand[slot], cell, base_sum, base_markers)
        _result_value(p, r, judged)
        if slot == 0 or _beats(judged, best, objective):
            _set(best, judged)
    _set(out, best)


def _decision(p, geo, S, G, objective, out):
    """A decision of budget ``_B``: ``out`` := the value of its best action, each action
    judged by the chance node below it (``_AFTER``, budget ``_B - 1``). A template
    (:data:`DECISIONS`)."""
    b = _B  # noqa: F821
    cand = G.cand[b]
    n_cand = _candidates(geo, S, cand)
    best = G.best[b]
    judged = G.judged[b]
    may_discard = _may_discard(p, geo, S)
    first = True
    for slot in range(S.ints[I_HAND]):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _apply(p, geo, S, slot, cell)
            _AFTER(p, geo, S, G, objective, judged)  # noqa: F821
            _undo_apply(p, geo, S, slot, cell, card)
            if first or _beats(judged, best, objective):
                _set(best, judged)
                first = False
    _set(out, best)


def _chance(p, geo, S, G, objective, out):
    """The state after an action, of budget ``_B``: the full grid's result; else the next card
    (every unseen card alike, when the hand has room and the deck is not out) and the decision
    below it (``_DECIDE``, budget ``_B``). A template (:data:`CHANCES`)."""
    b = _B  # noqa: F821
    if _done(p, S):
        _result_value(p, _result(p, S), out)
        return
    n_draw = S.ints[I_UNSEEN]
    if S.ints[I_HAND] >= _hand_capacity(p, geo, S) or n_draw == 0:
        _DECIDE(p, geo, S, G, objective, out)  # noqa: F821
        return
    draws = G.draws[b]
    for j in range(n_draw):
        draws[j] = S.unseen[j]
    total = G.total[b]
    drawn = G.drawn[b]
    for q in range(N_VALUE):
        total[q] = 0.0
    for j in range(n_draw):
        card = draws[j]
        _draw(S, card)
        _DECIDE(p, geo, S, G, objective, drawn)  # noqa: F821
        _undraw(S, card)
        for q in range(N_VALUE):
            total[q] += drawn[q]
    for q in range(N_VALUE):
        out[q] = total[q] / n_draw


@kernel
def _full_grid(p, geo, S, G, objective, out):
    """The chance node of budget 0: the grid is full (every card placed, no discard left)."""
    _result_value(p, _result(p, S), out)


def _build():
    """The chain of templates: CHANCES[b] and DECISIONS[b] for b = 0 .. MAX_BUDGET."""
    chances, decisions = [_full_grid], [None, _last_card]
    for b in range(1, MAX_BUDGET + 1):
        if b > 1:
            decisions.append(specialize(_decision, f"_endgame_decision{b}", _B=b,
                                        _AFTER=chances[b - 1]))
        chances.append(specialize(_chance, f"_endgame_chance{b}", _B=b, _DECIDE=decisions[b]))
    return tuple(chances), tuple(decisions)


CHANCES, DECISIONS = _build()


def _after_any(b, p, geo, S, G, objective, out):
    """``CHANCES[b]`` (0 <= b <= MAX_BUDGET), for a budget known at run time."""
    if b == 0:
        _C0(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 1:
        _C1(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 2:
        _C2(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 3:
        _C3(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 4:
        _C4(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 5:
        _C5(p, geo, S, G, objective, out)  # noqa: F821
    elif b == 6:
        _C6(p, geo, S, G, objective, out)  # noqa: F821
    else:
        _C7(p, geo, S, G, objective, out)  # noqa: F821


assert MAX_BUDGET == 7, "_after_any names every budget"
_after = specialize(_after_any, "_endgame_after", **{f"_C{b}": CHANCES[b] for b in range(8)})


@kernel(inline="always")
def _endgame_applies(p, S, endgame):
    """At most ``endgame`` cells are empty (and ``endgame`` > 0: the exact endgame is on)."""
    empty = p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED]
    return endgame > 0 and empty <= endgame and empty + S.ints[I_DISCARDS] <= MAX_BUDGET


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
    ``cand[j]``, the discard last). ``X.endgame`` is the tree's scratch. The state is left as
    it was; while searching, line scores are kept up to date (a player that does not track
    them gets them rescored, and untracked again after).
    """
    if not _endgame_applies(p, S, endgame):
        return -1, -1
    G = X.endgame
    track = S.ints[I_TRACK]
    if not track:
        S.ints[I_TRACK] = 1
        _rescore_all(p, geo, S)
    b = p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED] + S.ints[I_DISCARDS]
    row = G.judged[0]
    best = G.best[0]
    best_slot, best_cell = -1, -1
    n_hand = S.ints[I_HAND]
    for slot in range(n_hand):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _apply(p, geo, S, slot, cell)
            _after(b - 1, p, geo, S, G, objective, row)
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
