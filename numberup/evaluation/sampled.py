"""Searchers: an evaluation of unfinished grids, expectimax, and Monte Carlo rollouts.

Evaluation
----------
Each line's *final contribution* to the result (its value; on levels scored by checkmarkers
10 x its checkmarkers) is estimated as the mean over ``k`` random completions: the line's empty
cells are filled with distinct cards drawn from the cards still to come (unseen and in hand),
and the line is scored by the level's own kernel. This one estimator serves every rule family
and values what the immediate score cannot: an open street (likely to grow), a pair waiting
for its triplet, a single on level 8 that may never pair (likely to cost), a line still
without a triplet on level 15. A full line is scored exactly. Completions use common random
numbers: within one decision the j-th completion of line ``li`` always uses the same draws, so
two candidate moves are compared on the same luck.
The pool is fixed for the whole decision: the cards to come at the decision, the card being
tried included, so a completion may repeat it. Taking it out is the cleaner model but played
worse on most levels (on results/make.sh's decks: level 12 P(gold) 75.6% against 55.7%,
level 15 70.0% against 60.1%): a repeat rewards placing a card among its own colour and value,
which random completions otherwise undervalue.

The grid's estimate combines the lines by the level's aggregation: on summed levels the mean is
the sum of the line means, and P(result >= a medal) comes from a normal approximation with the
summed variances; on levels scored by the lowest line, P(result >= T) is the product over the
lines of P(line value >= T/10), and the mean is 10 x E[lowest line value], the sum over t of
P(every line >= t), from each line's P(value >= t) over its completions (the lines taken as
independent: 10 x the lowest line mean instead would ignore how likely each line is to fall
short, and plays levels 3 and 20 far worse). Every node value is a
4-vector (mean, P(bronze), P(silver), P(gold)); a player maximises one of them (its objective).

Objectives
----------
``objective=mean`` ranks actions by the mean (then the sum of line means). A medal objective
ranks by P(medal) where that estimate is sharp enough to steer (:func:`_objective`): always on
levels scored by the lowest line, where it is a product of per-line probabilities and chasing
Gold pays (on levels 3 and 20 it lifts P(gold) far above the mean player's: see results/), and
on summed levels in the last ``LATE_CELLS`` cards only. Earlier in a summed level the normal
law over random completions is too crude (random completions score far below real play, so
P(medal) is biased low and flat), and ranking by it lost P(gold) against the mean player; there
a medal objective ranks by the mean.

Players
-------
The searchers built on this evaluation are player modules: :mod:`numberup.players.expectimax`
and :mod:`numberup.players.rollout`. Every player's working arrays are one
:class:`numberup.players.scratch.Scratch`, sized from the level (:func:`numberup.players.scratch.new_scratch`).
"""

from __future__ import annotations

import math

import numpy as np

from ..game import levels as L
from ..game.engine import _apply, _undo_apply
from ..jit import kernel
from ..game.rng import _mix
from ..game.scoring import _line_score, _line_value
from .layout import DIST_HI, DIST_LO, EVAL_WIDTH, N_STATS
from ..game.state import I_FILLED, I_HAND, I_UNSEEN, MAX_LINES

LATE_CELLS = 6  # on summed levels, a medal objective steers the last this many cards only

MAX_K = 4096  # completions per line at most
_FIRST_BLOCK = 1024  # completions per line numbered as before k could exceed 1024


@kernel(inline="always")
def _contribution(p, points, markers):
    """What a line adds to the result: its value, or 10 x checkmarkers on such levels."""
    if p[L.P_AGG] == L.AGG_MARKERS_X10:
        return 10.0 * max(markers, 0)
    return float(_line_value(points, markers))


@kernel
def _fill_pool(S, pool):
    """``pool`` := the cards still to come (unseen, then in hand); returns how many."""
    n = 0
    for k in range(S.ints[I_UNSEEN]):
        pool[n] = S.unseen[k]
        n += 1
    for k in range(S.ints[I_HAND]):
        pool[n] = S.hand[k]
        n += 1
    return n


@kernel
def _estimate_line(p, geo, S, line_eval, pool, li, k, n_pool):
    """Fill ``line_eval[li]`` with the line's estimated final contribution (see module doc),
    from completions drawn from ``pool[:n_pool]``."""
    n = p[L.P_SIZE]
    empty = 0  # bit i: the line's i-th cell is empty
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            empty |= 1 << i
    tb = (p[L.P_BRONZE] + 9) // 10
    ts = (p[L.P_SILVER] + 9) // 10
    tg = (p[L.P_GOLD] + 9) // 10
    n_empty = 0
    for i in range(n):
        n_empty += (empty >> i) & 1
    if n_empty == 0 or n_pool < n_empty:
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        v = _line_value(points, markers)
        line_eval[li, 0] = _contribution(p, points, markers)
        line_eval[li, 1] = 0.0
        line_eval[li, 2] = 1.0 if v >= tb else 0.0
        line_eval[li, 3] = 1.0 if v >= ts else 0.0
        line_eval[li, 4] = 1.0 if v >= tg else 0.0
        if p[L.P_AGG] == L.AGG_MIN_X10:
            for t in range(DIST_LO + 1, DIST_HI + 1):
                line_eval[li, _dist_col(t)] = 1.0 if v >= t else 0.0
        return
    total = total2 = 0.0
    nb = ns = ng = 0
    dist = p[L.P_AGG] == L.AGG_MIN_X10
    if dist:
        for q in range(N_STATS, EVAL_WIDTH):
            line_eval[li, q] = 0.0
    for j in range(k):
        # common random numbers: completion j of line li uses the same draws all decision long
        r = _mix(S.rng[1] + np.uint64(_completion_index(li, j)) * _GOLDEN)
        used = np.uint64(0)
        for i in range(n):
            if (empty >> i) & 1:
                while True:
                    r = _mix(r + _GOLDEN)
                    pick = np.int64(((r >> np.uint64(32)) * np.uint64(n_pool)) >> np.uint64(32))
                    bit = np.uint64(1) << np.uint64(pick)
                    if not used & bit:
                        used |= bit
                        break
                S.grid[geo.lines[li, i]] = pool[pick]
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        c = _contribution(p, points, markers)
        v = _line_value(points, markers)
        total += c
        total2 += c * c
        nb += v >= tb
        ns += v >= ts
        ng += v >= tg
        if dist and v > DIST_LO:  # a histogram first: how many completions have value v
            line_eval[li, _dist_col(min(v, DIST_HI))] += 1.0
        for i in range(n):
            if (empty >> i) & 1:
                S.grid[geo.lines[li, i]] = -1
    mean = total / k
    line_eval[li, 0] = mean
    line_eval[li, 1] = max(total2 / k - mean * mean, 0.0)
    line_eval[li, 2] = nb / k
    line_eval[li, 3] = ns / k
    line_eval[li, 4] = ng / k
    if dist:  # the histogram -> P(value >= t), from the top down
        acc = 0.0
        for t in range(DIST_HI, DIST_LO, -1):
            acc += line_eval[li, _dist_col(t)]
            line_eval[li, _dist_col(t)] = acc / k


@kernel(inline="always")
def _completion_index(li, j):
    """A number of its own for completion ``j`` of line ``li``: ``li * 1024 + j + 1`` for the
    first 1024 of each line, and past every line's first 1024 for the rest (j < MAX_K)."""
    if j < _FIRST_BLOCK:
        return li * _FIRST_BLOCK + j + 1
    return MAX_LINES * _FIRST_BLOCK + li * (MAX_K - _FIRST_BLOCK) + (j - _FIRST_BLOCK) + 1


@kernel(inline="always")
def _dist_col(t):
    """The column of ``line_eval`` holding P(line value >= t), DIST_LO < t <= DIST_HI."""
    return N_STATS + t - DIST_LO - 1


@kernel(inline="always")
def _eval_width(p):
    """Columns of ``line_eval`` a level uses (the distribution only where the lowest line
    counts)."""
    return EVAL_WIDTH if p[L.P_AGG] == L.AGG_MIN_X10 else N_STATS


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@kernel
def _estimate_all(p, geo, S, line_eval, pool, k, n_pool):
    for li in range(p[L.P_NLINES]):
        _estimate_line(p, geo, S, line_eval, pool, li, k, n_pool)


@kernel(inline="always")
def _upper_tail(mu, var, threshold, half_step):
    """P(X >= threshold) for X ~ Normal(mu, var) on a lattice of results ``2 * half_step``
    apart (continuity corrected by half a step)."""
    if var <= 1e-12:
        return 1.0 if mu >= threshold - half_step else 0.0
    z = (threshold - half_step - mu) / math.sqrt(var)
    return 0.5 * math.erfc(z / math.sqrt(2.0))


@kernel
def _evaluate(p, line_eval, out):
    """``out[:5]`` := (mean, P(bronze), P(silver), P(gold), sum of the line means) of the grid,
    from the line estimates. The sum breaks ties of the others: on levels scored by the lowest
    line, many moves leave the same lowest line, and the sum still tells them apart."""
    nl = p[L.P_NLINES]
    total = 0.0
    for li in range(nl):
        total += line_eval[li, 0]
    out[4] = total
    if p[L.P_AGG] == L.AGG_MIN_X10:
        pb = ps = pg = 1.0
        for li in range(nl):
            pb *= line_eval[li, 2]
            ps *= line_eval[li, 3]
            pg *= line_eval[li, 4]
        low = float(DIST_LO)  # E[lowest] = DIST_LO + sum over t of P(every line >= t)
        for t in range(DIST_LO + 1, DIST_HI + 1):
            every = 1.0
            for li in range(nl):
                every *= line_eval[li, _dist_col(t)]
            if every == 0.0:
                break
            low += every
        out[0] = 10.0 * low
        out[1] = pb
        out[2] = ps
        out[3] = pg
        return
    mu = var = 0.0
    for li in range(nl):
        mu += line_eval[li, 0]
        var += line_eval[li, 1]
    # results step by 1, or by 10 where they are 10 x the checkmarkers (levels 12 and 14)
    half_step = 5.0 if p[L.P_AGG] == L.AGG_MARKERS_X10 else 0.5
    out[0] = mu
    out[1] = _upper_tail(mu, var, p[L.P_BRONZE], half_step)
    out[2] = _upper_tail(mu, var, p[L.P_SILVER], half_step)
    out[3] = _upper_tail(mu, var, p[L.P_GOLD], half_step)


@kernel(inline="always")
def _save_lines(p, geo, X, cell, depth):
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li >= 0 and li < p[L.P_NLINES]:
            for q in range(_eval_width(p)):
                X.saved[depth, k, q] = X.line_eval[li, q]


@kernel(inline="always")
def _restore_lines(p, geo, X, cell, depth):
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li >= 0 and li < p[L.P_NLINES]:
            for q in range(_eval_width(p)):
                X.line_eval[li, q] = X.saved[depth, k, q]


@kernel(inline="always")
def _reestimate(p, geo, S, X, cell, k, n_pool):
    for q in range(4):
        li = geo.cell_lines[cell, q]
        if li >= 0 and li < p[L.P_NLINES]:
            _estimate_line(p, geo, S, X.line_eval, X.pool, li, k, n_pool)


@kernel(inline="always")
def _try(p, geo, S, X, slot, cell, k, n_pool, depth):
    """Play hand ``slot`` on ``cell`` (-1: discard) inside the search, re-estimating the lines
    it touches; the estimates it replaces are kept in ``X.saved[depth]`` (the decision depth)."""
    if cell >= 0:
        _save_lines(p, geo, X, cell, depth)
    _apply(p, geo, S, slot, cell)
    if cell >= 0:
        _reestimate(p, geo, S, X, cell, k, n_pool)


@kernel(inline="always")
def _untry(p, geo, S, X, slot, cell, card, depth):
    """Undo :func:`_try` of ``card``: the grid, hand and line estimates are as they were."""
    _undo_apply(p, geo, S, slot, cell, card)
    if cell >= 0:
        _restore_lines(p, geo, X, cell, depth)


@kernel(inline="always")
def _objective(p, S, objective):
    """The objective a decision ranks by: a medal objective only where P(medal) is sharp
    enough to steer (module doc, Objectives), else the mean."""
    if objective == 0 or p[L.P_AGG] == L.AGG_MIN_X10:
        return objective
    empty = p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED]
    return objective if empty <= LATE_CELLS else 0


@kernel(inline="always")
def _copy_value(dst, src):
    """Copy a node value (its 5 entries)."""
    for q in range(5):
        dst[q] = src[q]


@kernel(inline="always")
def _better(a, b, objective):
    """Node value ``a`` beats ``b`` under the objective (ties: the larger mean, then the larger
    sum of line means)."""
    if a[objective] > b[objective] + 1e-12:
        return True
    if a[objective] < b[objective] - 1e-12:
        return False
    if a[0] > b[0] + 1e-12:
        return True
    if a[0] < b[0] - 1e-12:
        return False
    return a[4] > b[4] + 1e-12
