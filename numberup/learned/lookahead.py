"""One card further: the learned player's look past its move at the next card (``depth=2``).

The learned player judges an action by the learned value of the grid right after it
(:mod:`numberup.players.learned`). With ``depth=2`` its ``width`` best actions are judged
again, each by what the *next* card will make of it: the expectation, over the next card (every
card still to come alike), of the best learned value after placing that card too (or
discarding it, while discards remain), as expectimax's depth 2 does with its random
completions. What one move deep cannot see, this sees: whether the cells a move leaves open
still suit the cards to come (on levels 6 and 10, where every line needs its own values,
expectimax gains 1-2 points of mean from depth 2).

The cards whose value alone counts (the rules of chapter 2: :data:`numberup.evaluation.exact.VALUES`)
are alike by value, so the next card ranges over the values still to come, each weighted by
how many of its cards are; elsewhere over every card, or, with ``sample=S``, over a random
sample of ``S`` of them, the same sample for every action judged again (the look's cost is
nearly all in trying each next card on each cell). Levels with a hand of five (18-20) keep
the one-move choice (the next decision there ranges over the hand too).
"""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from ..game.engine import _apply, _candidates, _done, _may_discard, _undo_apply
from ..evaluation.completions import _estimate_lines, _line_estimate
from ..evaluation.exact import (
    VALUES, _composition_weights, _exact_line_plus, _exact_mean, _family, _histogram,
)
from .features import _take, _take_from_hand, _tally
from ..jit import kernel
from .value import (
    _afterstate_value, _line_prediction, _medals, _predict_lines, _predictions_ahead, _unplace,
    _value_after_placing,
)
from ..evaluation.sampled import _better, _copy_value, _fill_pool, _restore_lines, _save_lines
from ..game.rng import _below
from ..game.state import I_FILLED, I_HAND, I_UNSEEN

NEXT = 1  # the decision depth of the next card's placements (X.saved, X.cand, X.best, X.child)
MAX_WIDTH = 16  # actions looked past at most


@kernel(inline="always")
def _try_card(p, geo, S, X, cell, card, filled, k, n_pool, exact, depth):
    """The learned value of the grid with ``card`` laid on ``cell`` (``filled`` cards before
    it): the lines through the cell saved at decision depth ``depth``, estimated again and
    predicted. The card stays on the grid until :func:`_take_back`."""
    _save_lines(p, geo, X, cell, depth)
    S.grid[cell] = card
    for q in range(4):
        li = geo.cell_lines[cell, q]
        if li >= 0 and li < p[L.P_NLINES]:
            _line_estimate(p, geo, S, X, li, k, n_pool, exact)
    return _value_after_placing(p, geo, S, X, filled + 1, cell)


@kernel(inline="always")
def _take_back(p, geo, S, X, cell, depth):
    """Undo :func:`_try_card`: the cell empty, its lines' estimates and predictions back."""
    _unplace(p, geo, X, cell)
    S.grid[cell] = -1
    _restore_lines(p, geo, X, cell, depth)


@kernel(inline="always")
def _no_lookahead(p, geo, S, X, cand, n_cand, may_discard, objective, best_slot, best_cell,
                  depth, width, k, exact, sample):
    """The hook's stand-in for the learned player at depth 1: its own choice."""
    return best_slot, best_cell


@kernel
def _next_card_value(p, geo, S, X, k, exact, objective, n_next, out):
    """``out`` := the value (mean, P(bronze), P(silver), P(gold), sum of the line
    predictions) of the grid in ``S`` before the next card: its expectation over the next
    card of the best learned value after that card is placed (or discarded). The next card
    ranges over ``X.draws[:n_next]`` (:func:`_next_cards`), each alike, or, on value-count
    rules (all the cards to come there), over their values weighted by their counts."""
    filled = S.ints[I_FILLED]
    n_pool = _fill_pool(S, X.pool)
    _estimate_lines(p, geo, S, X, k, n_pool, exact)
    _tally(S, X.values_left, X.colours_left, X.masks_left)
    cand = X.cand[NEXT]
    n_cand = _candidates(geo, S, cand)
    may_discard = _may_discard(p, geo, S)
    by_value = _family(p) == VALUES
    acc = X.chance_sum
    acc[:5] = 0.0
    best = X.best[NEXT]
    child = X.child[NEXT]
    seen = 0  # the values already judged (by_value)
    for u in range(n_next):
        card = X.draws[u]
        weight = 1.0
        if by_value:
            bit = 1 << (card // 8)
            if seen & bit:
                continue
            seen |= bit
            weight = float(X.values_left[card // 8])
        best[:5] = -1e300
        _take(card, X.values_left, X.colours_left, X.masks_left, -1)
        _predict_lines(p, geo, S, X, filled + 1)
        for j in range(n_cand + (1 if may_discard else 0)):
            if j < n_cand:
                cell = cand[j]
                v = _try_card(p, geo, S, X, cell, card, filled, k, n_pool, exact, NEXT)
                _child(p, X, v, child, objective)
                _take_back(p, geo, S, X, cell, NEXT)
            else:  # the discard: the grid as it is, the card gone
                v = _afterstate_value(p, geo, S, X, filled)
                _child(p, X, v, child, objective)
            if _better(child, best, objective):
                _copy_value(best, child)
        _take(card, X.values_left, X.colours_left, X.masks_left, 1)
        for q in range(5):
            acc[q] += weight * best[q]
    total = float(n_next)
    for q in range(5):
        out[q] = acc[q] / total


@kernel(inline="always")
def _next_cards(p, S, X, sample):
    """``X.draws[:n]`` := the next cards the look tries, and returns ``n``: every card to
    come, or (``sample`` > 0, fewer than the cards to come, a rule where cards are not alike
    by value) a random sample of ``sample`` of them from the player's stream."""
    n = S.ints[I_UNSEEN]
    for j in range(n):
        X.draws[j] = S.unseen[j]
    if sample > 0 and sample < n and _family(p) != VALUES:
        for j in range(sample):
            t = j + _below(S.rng, n - j)
            X.draws[j], X.draws[t] = X.draws[t], X.draws[j]
        n = sample
    return n


@kernel(inline="always")
def _child(p, X, v, out, objective):
    """``out`` := the node value of an afterstate of learned value ``v`` (its medal odds
    only when playing for a medal)."""
    if objective != 0:
        _medals(p, X, v, out)
    else:
        out[:5] = 0.0
        out[0] = v
        out[4] = v


@kernel(inline="always")
def _depth0_looks(p):
    """Whether depth 0 looks at the next card on this level: where that is cheap, the
    value-count rules (levels 6-10), and never with a hand. Elsewhere depth 0 plays depth 1's
    games (:func:`numberup.players.learned._on_level` relies on it)."""
    return p[L.P_HAND] == 0 and _family(p) == VALUES


@kernel
def _lookahead(p, geo, S, X, cand, n_cand, may_discard, objective, best_slot, best_cell,
               depth, width, k, exact, sample):
    """Among the ``width`` actions of the best one-move values (``X.values[a]``, as the
    learned player left them), the one whose grid is worth most before the next card
    (:func:`_next_card_value`); ``X.values[a]`` := that value for the actions judged so.
    Ties keep the one-move order. ``depth`` 0 looks only where it is cheap (value-count
    rules: :func:`_values_lookahead`), 2 everywhere; levels with a hand keep the one-move
    choice. ``sample``: the next cards tried, at most (:func:`_next_cards`)."""
    if p[L.P_HAND] > 0 or width <= 1:
        return best_slot, best_cell
    if depth == 0 and not _depth0_looks(p):  # depth 0: look only where it is cheap
        return best_slot, best_cell
    values = _family(p) == VALUES
    if values and exact and objective == 0 and p[L.P_AGG] == L.AGG_SUM:
        return _values_lookahead(p, geo, S, X, cand, n_cand, width)
    return _card_by_card(p, geo, S, X, cand, n_cand, may_discard, objective, width, k, exact,
                         sample)


@kernel
def _card_by_card(p, geo, S, X, cand, n_cand, may_discard, objective, width, k, exact,
                  sample):
    """:func:`_lookahead` on any rule: every next card (or a sample of ``sample``, the same
    for every action: :func:`_next_cards`) tried on every cell on offer
    (:func:`_next_card_value`)."""
    n_hand = S.ints[I_HAND]
    n_act = n_hand * n_cand + (1 if may_discard else 0)
    m = _select(X, n_act, width, objective)
    order = X.order
    best = X.best[0]
    best[:5] = -1e300
    value = X.drawn
    chosen = order[0]
    n_next = _next_cards(p, S, X, sample)
    for q in range(m):
        a = order[q]
        slot, cell = (0, -1) if a == n_hand * n_cand else (a // n_cand, cand[a % n_cand])
        card = S.hand[slot]
        _apply(p, geo, S, slot, cell)
        if _done(p, S):
            n_pool = _fill_pool(S, X.pool)
            _estimate_lines(p, geo, S, X, k, n_pool, exact)
            _tally(S, X.values_left, X.colours_left, X.masks_left)
            v = _afterstate_value(p, geo, S, X, S.ints[I_FILLED])
            _child(p, X, v, value, objective)
        else:
            _next_card_value(p, geo, S, X, k, exact, objective, n_next, value)
        _undo_apply(p, geo, S, slot, cell, card)
        _copy_value(X.values[a], value)
        if _better(value, best, objective):
            _copy_value(best, value)
            chosen = a
    if chosen == n_hand * n_cand:
        return 0, -1
    return chosen // n_cand, cand[chosen % n_cand]


@kernel(inline="always")
def _select(X, n_act, width, objective):
    """``X.order[:m]`` := the ``m = min(width, n_act)`` actions of the best one-move values
    (``X.values``), best first; returns ``m``. Ties go to the one met first as the selection
    swaps (not always the lower action: a swap can move it back; the games of every level's
    model were measured with this order, so it stays)."""
    order = X.order
    for a in range(n_act):
        order[a] = a
    m = min(width, n_act)
    for q in range(m):
        top = q
        for r in range(q + 1, n_act):
            if _better(X.values[order[r]], X.values[order[top]], objective):
                top = r
        order[q], order[top] = order[top], order[q]
    return m


@kernel
def _line_ahead(p, geo, S, X, li, filled, before, after, n_pool):
    """For every value ``v`` of the cards still to come after the move (``X.exact.counts``,
    ``n_pool`` cards, their compositions weighed; ``X.values_left`` counts them too):
    ``before[v]`` := line ``li``'s learned prediction once a card of value ``v`` is drawn,
    ``after[v]`` := the same with that card on one of the line's empty cells (the cell does
    not matter on value-count rules; a full line: its contribution). Both depend on the line's
    value histogram only, so a line whose histogram was met before in the same look
    (``X.ahead_keys[:X.ahead_n[0]]``) takes them from there. ``filled``: the cards on the
    grid after the next card."""
    h = _histogram(p, S.grid, geo.lines, li)
    nv = p[L.P_VALUES]
    for q in range(X.ahead_n[0]):
        if X.ahead_keys[q] == h:
            for v in range(nv):
                before[v] = X.ahead_memo[0, q, v]
                after[v] = X.ahead_memo[1, q, v]
            return
    E = X.exact
    n = p[L.P_SIZE]
    base = _exact_mean(p, geo, S, E, li, n_pool)  # the line's base as it is
    full = True
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            full = False
    if full:
        y = _line_prediction(p, geo, S, X.learned, li, filled, X.values_left, X.colours_left,
                             X.masks_left, base, X.features)
        for v in range(nv):
            before[v] = after[v] = y
    else:
        _exact_line_plus(p, geo, S, E, li, n_pool, X.plus)
        _predictions_ahead(p, geo, S, X.learned, li, filled, X.values_left, base, X.plus,
                           E.counts, before, after)
    q = X.ahead_n[0]
    if q < X.ahead_keys.shape[0]:
        X.ahead_keys[q] = h
        for v in range(nv):
            X.ahead_memo[0, q, v] = before[v]
            X.ahead_memo[1, q, v] = after[v]
        X.ahead_n[0] = q + 1


@kernel
def _values_lookahead(p, geo, S, X, cand, n_cand, width):
    """:func:`_lookahead` on value-count rules (levels 6-10, summed, one card in hand, no
    discards) playing for the mean, without trying every next card on every cell: the next
    card matters by its value only, and where it goes on a line does not, so each line's
    learned prediction before and after one more card of each value (:func:`_line_ahead`) is
    worked out once for the grid as it stands and once for the lines through each cell
    tried; an action's value is then, for each value, the sum of the lines' predictions
    before the card plus the best gain over the cells on offer after the move, weighted by
    how many cards of that value are still to come."""
    nl = p[L.P_NLINES]
    nv = p[L.P_VALUES]
    E = X.exact
    card = S.hand[0]
    n_pool = S.ints[I_UNSEEN]  # the cards still to come once this one is placed
    E.counts[card // 8] -= 1
    _composition_weights(p, E, n_pool)
    _take_from_hand(card, X.values_left, X.colours_left, X.masks_left, -1)
    filled = S.ints[I_FILLED] + 2
    X.ahead_n[0] = 0
    A = X.ahead  # A[0, li, v]: line li before a next card of value v; A[1]: its gain
    for li in range(nl):
        _line_ahead(p, geo, S, X, li, filled, A[0, li], A[1, li], n_pool)
        for v in range(nv):
            A[1, li, v] -= A[0, li, v]
    for v in range(nv):
        s = 0.0
        for li in range(nl):
            s += A[0, li, v]
        X.ahead_sum[v] = s  # every line's prediction before the next card, if it is a v
    m = _select(X, n_cand, width, 0)
    chosen = X.order[0]
    best = -1e300
    next_cand = X.cand[NEXT]
    C = X.ahead_cell  # C[0, r]: line r through the cell tried, as A[0]; C[1, r]: its gain
    K = X.kept_ahead  # A's rows of those lines, put back after the action
    for q in range(m):
        a = X.order[q]
        cell = cand[a]
        _apply(p, geo, S, np.int64(0), cell)  # int64, not a literal: one compile
        full = _done(p, S)
        n_next = _candidates(geo, S, next_cand)
        if not full:
            for r in range(4):
                li = geo.cell_lines[cell, r]
                if li >= 0 and li < nl:
                    _line_ahead(p, geo, S, X, li, filled, C[0, r], C[1, r], n_pool)
        _undo_apply(p, geo, S, np.int64(0), cell, card)
        if full:
            value = X.values[a, 0]
        else:
            value = 0.0
            for r in range(4):  # the lines through the cell, as the move leaves them
                li = geo.cell_lines[cell, r]
                if li >= 0 and li < nl:
                    for v in range(nv):
                        K[0, r, v] = A[0, li, v]
                        K[1, r, v] = A[1, li, v]
                        A[1, li, v] = C[1, r, v] - C[0, r, v]
            for v in range(nv):
                if E.counts[v] == 0:
                    continue
                total = X.ahead_sum[v]
                for r in range(4):
                    li = geo.cell_lines[cell, r]
                    if li >= 0 and li < nl:
                        total += C[0, r, v] - K[0, r, v]
                gain = -1e300
                for j in range(n_next):
                    x = next_cand[j]
                    g = 0.0
                    for t in range(4):
                        lj = geo.cell_lines[x, t]
                        if lj >= 0 and lj < nl:
                            g += A[1, lj, v]
                    gain = max(gain, g)
                value += E.counts[v] * (total + gain)
            value /= n_pool
            for r in range(4):
                li = geo.cell_lines[cell, r]
                if li >= 0 and li < nl:
                    for v in range(nv):
                        A[1, li, v] = K[1, r, v]
        X.values[a, 0] = value
        X.values[a, 4] = value
        if value > best:
            best = value
            chosen = a
    E.counts[card // 8] += 1
    _composition_weights(p, E, n_pool + 1)
    _take_from_hand(card, X.values_left, X.colours_left, X.masks_left, 1)
    return 0, cand[chosen]
