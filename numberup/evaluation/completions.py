"""A line's base estimate: what its random completions score on average, as exactly as is cheap.

The searchers judge an open line by its *random completions* (:mod:`numberup.evaluation.sampled`): its
empty cells filled with distinct cards drawn uniformly from the cards still to come (the
decision's pool), ``k`` of them. The learned player's base estimate
(:func:`_line_estimate`) is the same expectation with less noise:

- **exact** where the level's rule allows it (:mod:`numberup.evaluation.exact`: value counts and colour
  sums, levels 1, 3-10);
- **every completion** where a line has at most ``ENUMERATE * k`` of them (a line's last cells
  late in the game: :func:`_every_completion`, an odometer over the pool);
- else ``k`` **stratified** completions (:func:`_stratified_line`): in each block of
  ``n_pool`` completions every empty cell takes every card of the pool once (a random
  partial permutation of the pool per cell; a card already laid in the line is skipped to the
  next free one), so the estimate is unbiased and varies less than ``k`` independent
  completions. Its stream is the decision's (``S.rng[1]``) mixed with the line and block:
  every action of a decision is judged on the same luck (common random numbers).

Each fills ``line_eval[li]`` as :func:`numberup.evaluation.sampled._estimate_line` does (mean, variance,
P(value >= the bronze/silver/gold line targets), and on levels scored by the lowest line
P(value >= t) for every t).
"""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from .exact import NONE, _exact_line, _exact_prepare, _family
from ..jit import kernel
from ..game.rng import _below, _mix
from ..game.scoring import _line_score_inlined, _line_value
from .layout import DIST_HI, DIST_LO, N_STATS
from .sampled import _estimate_line
from .streets import _street_chain_line

_STRATA = np.uint64(0xD1B54A32D192ED03)  # spreads the numbers of the strata's streams
ENUMERATE = 2  # a line whose completions are at most this many times k takes them all


@kernel(inline="always")
def _line_estimate(p, geo, S, X, li, k, n_pool, exact):
    """Line ``li``'s estimate into ``X.line_eval[li]``: exact where ``exact`` and the level's
    rule allow it (:func:`_exact_line`; :func:`_estimate_lines` prepared the pool), or where
    ``exact`` and its completions are at most ``ENUMERATE * k`` (every one of them:
    :func:`_every_completion`), or by the street chain where ``exact`` is 2 and the rule is
    the neighbouring streets' (:func:`numberup.evaluation.streets._street_chain_line`), or
    ``k`` stratified completions where ``exact`` (:func:`_stratified_line`), else ``k``
    random completions (:func:`numberup.evaluation.sampled._estimate_line`)."""
    if exact and _family(p) != NONE:
        _exact_line(p, geo, S, X.exact, X.line_eval, li, n_pool)
    elif not exact:
        _estimate_line(p, geo, S, X.line_eval, X.pool, li, k, n_pool)
    else:
        e = _empty_cells(p, geo, S, li)
        if e == 0 or n_pool < e:
            _estimate_line(p, geo, S, X.line_eval, X.pool, li, k, n_pool)  # the line as it is
        elif _completions(n_pool, e) <= ENUMERATE * k:
            _every_completion(p, geo, S, X, li, n_pool)
        elif exact == 2 and p[L.P_RULE] == L.RULE_STREET_RUN:
            _street_chain_line(p, geo, S, X.streets, X.line_eval, li, X.pool, n_pool)
        else:
            _stratified_line(p, geo, S, X, li, k, n_pool)


@kernel(inline="always")
def _completions(n_pool, e):
    """How many ways ``e`` empty cells can take distinct cards of a pool of ``n_pool``."""
    count = 1
    for i in range(e):
        count *= n_pool - i
    return count


@kernel(inline="always")
def _empty_cells(p, geo, S, li):
    e = 0
    for i in range(p[L.P_SIZE]):
        if S.grid[geo.lines[li, i]] < 0:
            e += 1
    return e


@kernel(inline="always")
def _gather_empty(p, geo, S, cells, li):
    """``cells[:e]`` := line ``li``'s empty cells, in order; returns ``e``."""
    e = 0
    for i in range(p[L.P_SIZE]):
        if S.grid[geo.lines[li, i]] < 0:
            cells[e] = geo.lines[li, i]
            e += 1
    return e


@kernel(inline="always")
def _open_estimate(p, line_eval, li):
    """Start a line's estimate from completions: on levels scored by the lowest line, its
    value histogram in ``line_eval[li]`` at 0; returns the line targets of bronze, silver and
    gold, and the sums (:func:`_count_completion`) at 0."""
    if p[L.P_AGG] == L.AGG_MIN_X10:
        for q in range(N_STATS, N_STATS + DIST_HI - DIST_LO):
            line_eval[li, q] = 0.0
    targets = ((p[L.P_BRONZE] + 9) // 10, (p[L.P_SILVER] + 9) // 10, (p[L.P_GOLD] + 9) // 10)
    return targets, (0.0, 0.0, 0, 0, 0)


@kernel(inline="always")
def _count_completion(p, line_eval, li, points, markers, targets, sums):
    """``sums`` (contribution, its square, reaching bronze/silver/gold) with one completion of
    line ``li`` more, scored ``(points, markers)``; on levels scored by the lowest line its
    value also goes to the histogram in ``line_eval[li]``."""
    v = _line_value(points, markers)
    c = 10.0 * max(markers, 0) if p[L.P_AGG] == L.AGG_MARKERS_X10 else float(v)
    if p[L.P_AGG] == L.AGG_MIN_X10 and v > DIST_LO:
        line_eval[li, N_STATS + min(v, DIST_HI) - DIST_LO - 1] += 1.0
    return (sums[0] + c, sums[1] + c * c, sums[2] + (v >= targets[0]),
            sums[3] + (v >= targets[1]), sums[4] + (v >= targets[2]))


@kernel(inline="always")
def _close_estimate(p, line_eval, li, sums, count):
    """``line_eval[li]`` from the sums of ``count`` completions (the columns of
    :func:`numberup.evaluation.sampled._estimate_line`)."""
    mean = sums[0] / count
    line_eval[li, 0] = mean
    line_eval[li, 1] = max(sums[1] / count - mean * mean, 0.0)
    line_eval[li, 2] = sums[2] / count
    line_eval[li, 3] = sums[3] / count
    line_eval[li, 4] = sums[4] / count
    if p[L.P_AGG] == L.AGG_MIN_X10:  # the histogram -> P(value >= t), from the top down
        run = 0.0
        for t in range(DIST_HI, DIST_LO, -1):
            run += line_eval[li, N_STATS + t - DIST_LO - 1]
            line_eval[li, N_STATS + t - DIST_LO - 1] = run / count


@kernel
def _every_completion(p, geo, S, X, li, n_pool):
    """``X.line_eval[li]`` := the exact estimate of line ``li``: every way of laying distinct
    cards of the pool (``X.pool[:n_pool]``) on its empty cells, in turn (an odometer over the
    cells' places in the pool, the cards in use skipped)."""
    n = p[L.P_SIZE]
    e = _gather_empty(p, geo, S, X.strata_cells, li)
    targets, sums = _open_estimate(p, X.line_eval, li)
    idx = X.odometer
    used = np.uint64(0)
    count = 0
    depth = 0
    idx[0] = -1
    while depth >= 0:
        if idx[depth] >= 0:  # the cell's card so far is free again
            used ^= np.uint64(1) << np.uint64(idx[depth])
        q = idx[depth] + 1
        while q < n_pool and (used >> np.uint64(q)) & np.uint64(1):
            q += 1
        if q >= n_pool:  # every card tried on this cell: back to the one before
            idx[depth] = -1
            depth -= 1
            continue
        idx[depth] = q
        used |= np.uint64(1) << np.uint64(q)
        S.grid[X.strata_cells[depth]] = X.pool[q]
        if depth == e - 1:
            points, markers = _line_score_inlined(p, S.grid, geo.lines, li, n)
            sums = _count_completion(p, X.line_eval, li, points, markers, targets, sums)
            count += 1
        else:
            depth += 1
            idx[depth] = -1
    for i in range(e):
        S.grid[X.strata_cells[i]] = -1
    _close_estimate(p, X.line_eval, li, sums, count)


@kernel
def _stratified_line(p, geo, S, X, li, k, n_pool):
    """``X.line_eval[li]`` := the estimate of line ``li`` from ``k`` random completions, drawn
    *stratified*: in every block of ``n_pool`` completions each empty cell takes each card of
    the pool once (the cells' orders of the pool are random permutations, each its own; a
    card already on the line in that completion gives way to a random card not on it). Every
    completion is still a uniform draw of distinct cards, but the blocks cover the pool
    evenly cell by cell, so the estimate varies less than with independent completions. The
    permutations come from this decision's random numbers (``S.rng[1]``), so a line's
    completions are the same for every action of the decision."""
    n = p[L.P_SIZE]
    e = _gather_empty(p, geo, S, X.strata_cells, li)
    targets, sums = _open_estimate(p, X.line_eval, li)
    R = X.strata_rng
    for i in range(e):  # any order of the pool: a random permutation of it is uniform too
        for q in range(n_pool):
            X.strata[i, q] = q
    done = 0
    block = 0
    while done < k:
        size = min(n_pool, k - done)
        for i in range(e):  # the first `size` places of a random permutation of the pool
            R[0] = _mix(S.rng[1] + np.uint64((li * 64 + block) * 8 + i + 1) * _STRATA)
            for q in range(size):
                t = q + _below(R, n_pool - q)
                X.strata[i, q], X.strata[i, t] = X.strata[i, t], X.strata[i, q]
        for j in range(size):
            used = np.uint64(0)
            for i in range(e):
                pick = X.strata[i, j]
                bit = np.uint64(1) << np.uint64(pick)
                while used & bit:
                    pick = _below(R, n_pool)
                    bit = np.uint64(1) << np.uint64(pick)
                used |= bit
                S.grid[X.strata_cells[i]] = X.pool[pick]
            points, markers = _line_score_inlined(p, S.grid, geo.lines, li, n)
            sums = _count_completion(p, X.line_eval, li, points, markers, targets, sums)
        done += size
        block += 1
    for i in range(e):
        S.grid[X.strata_cells[i]] = -1
    _close_estimate(p, X.line_eval, li, sums, k)


@kernel
def _estimate_lines(p, geo, S, X, k, n_pool, exact):
    """Every line's estimate (:func:`_line_estimate`) from the decision's pool ``X.pool``."""
    if exact:
        _exact_prepare(p, X.exact, X.pool, n_pool)
    for li in range(p[L.P_NLINES]):
        _line_estimate(p, geo, S, X, li, k, n_pool, exact)
