"""A proven bound on one deal from a linear programme over line patterns (column generation).

Relaxation. The rows of a full grid split its ``n * n`` cards into ``n`` groups of ``n``, and
so do the columns; two cards share at most one line (a row and a column meet in one cell).
Drop the cells, the adjacency, the draw order, and that a row and a column share exactly one
card; score every line by the order-free rule
(:func:`numberup.analysis.bounds.relaxed_params`). What is left: choose a set of ``n * n``
cards of the deal's pool and two partitions of it (rows, columns) into lines of ``n`` cards,
no two cards together in a row and in a column.

LP. A variable ``x_P`` per ``n``-card pattern ``P`` used as a row and ``y_Q`` per pattern
used as a column:

    max  sum v(P) x_P + sum v(Q) y_Q
    s.t. sum x = n,  sum y = n,
         per card c: sum_{P ni c} x_P = sum_{Q ni c} y_Q <= 1 (= 1 where c must be placed:
         the setup cards, and every card when the pool is exactly the placed set),
         per pair of cards {c, d}: sum_{P ni c, d} x_P + sum_{Q ni c, d} y_Q <= 1,  x, y >= 0.

Without the pair rows the LP would collapse to twice the row LP (``((x + y) / 2, (x + y) /
2)`` is feasible with the same objective); they are what rows and columns sharing cards adds.
Its optimum is at least the best relaxed split, hence at least every legal game on the deal.

Column generation. The restricted master is solved by HiGHS; new patterns are priced by an
exact depth-first enumeration of the ``n``-subsets of the pool (cards sorted by dual price,
a pattern's pair duals added, branches cut when even the largest line value cannot beat the
patterns kept). Whatever the duals (of the right signs), the Lagrangian bound (the duals'
value plus ``n`` times the best reduced cost of a row pattern and of a column pattern) bounds
every feasible point: a proven bound at every pass, so stopping early (time or pass limit) is
safe. The best such bound, floored (scores are integers; multiples of 10 on checkmarker
levels), is returned.

Aggregations: sum of line values (line value), 10 x checkmarkers (line value ``10 x max(0,
markers)``), 10 x lowest line value (``min <= m`` is refuted when the row LP with values
capped at ``m`` stays below ``n * m``: binary search on ``m``; diagonals only lower the
minimum, so they are ignored). Any other combination returns ``None``.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from ..errors import InputError
from ..game import levels as L
from ..game.levels import Level, get_level
from ..game.scoring import _line_score, _line_value

MODE_VALUE, MODE_MARKERS = 0, 1
NO_CAP = 1 << 30
K_BEST = 24  # patterns returned per pricing pass
_LINE = np.arange(8, dtype=np.int64).reshape(1, 8)  # line 0 = cells 0..7 of a scratch grid


@njit(cache=True, nogil=True)
def _pattern_value(p, grid, lines, n, mode, cap):
    """The (relaxed) value of the line whose cards are ``grid[:n]``, in the LP's units."""
    points, markers = _line_score(p, grid, lines, np.int64(0), n)
    if mode == MODE_MARKERS:
        v = 10 * max(markers, 0)
    else:
        v = _line_value(points, markers)
    return min(v, cap)


@njit(cache=True, nogil=True)
def _price(p, lines, cards, cost, pair, n, mode, cap, vmax, floor, out_rc, out_idx):
    """The patterns of largest ``v(P) - cost(P) - pair(P)`` among the ``n``-subsets of
    ``cards`` (int8), ``cost`` (float64, ascending) per card and ``pair`` (float64 >= 0,
    ``m x m``) per pair of cards in the pattern.

    Keeps up to ``len(out_rc)`` patterns above ``floor`` (indexes into ``cards`` in
    ``out_idx``); a branch is cut when ``vmax`` minus its cost so far and its cheapest
    completion (pair costs left out: they are >= 0) cannot beat the kept ones. Returns how many
    were kept; the largest kept reduced cost is the exact maximum over every pattern when any
    was kept, else every pattern is at or below ``floor``.
    """
    m = cards.shape[0]
    k_best = out_rc.shape[0]
    grid = np.full(8, -1, np.int8)
    pre = np.zeros(m + 1)
    for i in range(m):
        pre[i + 1] = pre[i] + cost[i]
    idx = np.zeros(n, np.int64)
    part = np.zeros(n + 1)
    kept = 0
    thresh = floor
    worst = 0
    if m < n:
        return 0
    d = 0
    idx[0] = 0
    while True:
        i = idx[d]
        r = n - d
        # cut: nothing from i on can beat the threshold (costs ascend, so neither can i + 1..)
        if i + r > m or vmax - part[d] - (pre[i + r] - pre[i]) <= thresh:
            if d == 0:
                break
            d -= 1
            idx[d] += 1
            continue
        c = cost[i]
        for j in range(d):
            c += pair[idx[j], i]
        grid[d] = cards[i]
        part[d + 1] = part[d] + c
        if d == n - 1:
            rc = _pattern_value(p, grid, lines, n, mode, cap) - part[n]
            if rc > thresh:
                if kept < k_best:
                    slot = kept
                    kept += 1
                else:
                    slot = worst
                out_rc[slot] = rc
                for j in range(n):
                    out_idx[slot, j] = idx[j]
                if kept == k_best:
                    worst = 0
                    for s in range(1, k_best):
                        if out_rc[s] < out_rc[worst]:
                            worst = s
                    thresh = max(floor, out_rc[worst])
            idx[d] += 1
        else:
            d += 1
            idx[d] = i + 1
    return kept


def price_reference(p, cards, cost, pair, n, mode=MODE_VALUE, cap=NO_CAP):
    """Plain Python: the largest ``v(P) - cost(P) - pair(P)`` over every ``n``-subset."""
    import itertools

    best = -math.inf
    grid = np.full(8, -1, np.int8)
    for combo in itertools.combinations(range(len(cards)), n):
        grid[:n] = [cards[i] for i in combo]
        v = _pattern_value.py_func(p, grid, _LINE, n, mode, cap)
        c = sum(cost[i] for i in combo) + sum(pair[i, j] for i, j in itertools.combinations(combo, 2))
        best = max(best, v - c)
    return best


def _linprog():
    try:
        from scipy.optimize import linprog
    except ImportError:  # pragma: no cover - depends on the install
        raise InputError("the partition bound needs scipy: pip install 'numberup[exact]'") from None
    return linprog


def _sides_of_start(n, forced, start):
    if start is None:
        order = list(np.flatnonzero(forced)) + list(np.flatnonzero(~forced))
        grid = np.array(order[: n * n]).reshape(n, n)
        return [tuple(r) for r in grid], [tuple(c) for c in grid.T]
    return start


def lp_bound(p, n, pool, forced, exact, mode, cap, vmax, deadline, max_passes=200,
             start=None, pairs=True):
    """A proven upper bound of the rows-and-columns LP (see the module doc) by column
    generation.

    ``pool``: int8 cards; ``forced``: bool per pool card, must be placed; ``exact``: the pool
    is exactly the placed set. ``start``: (rows, columns), each ``n`` tuples of pool indexes,
    of one feasible grid; default the first ``n * n`` cards (forced first) in reading order.
    ``pairs``: add the constraints "two cards share at most one line" (else the LP is twice
    the row LP). Returns (bound, passes, converged).
    """
    linprog = _linprog()
    pool = np.asarray(pool, np.int8)
    m = len(pool)
    forced = np.asarray(forced, bool) | bool(exact)
    rows0, cols0 = _sides_of_start(n, forced, start)
    cols = [[], []]  # patterns (sorted tuples of pool indexes) of rows, of columns
    seen = [set(), set()]
    grid = np.full(8, -1, np.int8)

    def value(col):
        grid[:n] = pool[list(col)]
        return float(_pattern_value(p, grid, _LINE, n, mode, cap))

    vals = [[], []]

    def add(side, col):
        col = tuple(sorted(int(i) for i in col))
        if col in seen[side]:
            return False
        seen[side].add(col)
        cols[side].append(col)
        vals[side].append(value(col))
        return True

    for side, start_cols in enumerate((rows0, cols0)):
        for c in start_cols:
            add(side, c)
    eq_rows, ub_rows = np.flatnonzero(forced), np.flatnonzero(~forced)
    pair_id = -np.ones((m, m), np.int64)
    n_pairs = 0
    if pairs:
        for i in range(m):
            for j in range(i + 1, m):
                pair_id[i, j] = pair_id[j, i] = n_pairs
                n_pairs += 1
    best, passes, converged = float(n * vmax * 2), 0, False
    out_rc = np.zeros(K_BEST)
    out_idx = np.zeros((K_BEST, n), np.int64)
    while passes < max_passes:
        passes += 1
        nr, nc = len(cols[0]), len(cols[1])
        inc = np.zeros((m, nr + nc))  # card incidence, rows then columns
        pr = np.zeros((n_pairs, nr + nc))
        for j, c in enumerate(cols[0] + cols[1]):
            inc[list(c), j] = 1.0
            if pairs:
                for a in range(n):
                    for b in range(a + 1, n):
                        pr[pair_id[c[a], c[b]], j] = 1.0
        side_row = np.zeros((2, nr + nc))
        side_row[0, :nr] = 1.0
        side_row[1, nr:] = 1.0
        link = inc.copy()
        link[:, nr:] *= -1.0  # rows' cards = columns' cards
        cap_rows = inc.copy()
        cap_rows[:, nr:] = 0.0  # capacities on the rows' side
        a_eq = np.vstack([side_row, link, cap_rows[eq_rows]])
        b_eq = np.concatenate([[float(n), float(n)], np.zeros(m), np.ones(len(eq_rows))])
        a_ub = np.vstack([cap_rows[ub_rows], pr])
        b_ub = np.ones(len(ub_rows) + n_pairs)
        kw = dict(A_ub=a_ub, b_ub=b_ub) if len(b_ub) else {}
        res = linprog(-np.asarray(vals[0] + vals[1]), A_eq=a_eq, b_eq=b_eq, bounds=(0, None),
                      method="highs", **kw)
        if res.status != 0:
            raise RuntimeError(f"the restricted master failed: {res.message}")
        dual_eq = -np.asarray(res.eqlin.marginals, float)
        mu = dual_eq[:2]
        lam = dual_eq[2:2 + m]
        pi = np.zeros(m)
        pi[eq_rows] = dual_eq[2 + m:]
        sigma = np.zeros((m, m))
        if len(b_ub):
            dual_ub = np.maximum(0.0, -np.asarray(res.ineqlin.marginals, float))
            pi[ub_rows] = dual_ub[: len(ub_rows)]
            if pairs:
                s = dual_ub[len(ub_rows):]
                sigma = np.where(pair_id >= 0, s[np.maximum(pair_id, 0)], 0.0)
        bound = float(pi.sum()) + float(sigma.sum()) / 2
        new = 0
        for side, cost in enumerate((pi + lam, -lam)):
            order = np.argsort(cost, kind="stable")
            kept = _price(p, _LINE, pool[order], cost[order],
                          np.ascontiguousarray(sigma[np.ix_(order, order)]), n, mode, cap,
                          float(vmax), float(mu[side]), out_rc, out_idx)
            bound += n * max([float(mu[side])] + [float(out_rc[s]) for s in range(kept)])
            for s in np.argsort(-out_rc[:kept]):
                if out_rc[s] > mu[side] + 1e-9 and add(side, order[out_idx[s]]):
                    new += 1
        best = min(best, bound)
        if new == 0:
            converged = True
            break
        if time.perf_counter() > deadline:
            break
    return best, passes, converged


def _setup_cards(level: Level) -> int:
    return 1 if level.size == 5 else 4


def placed_pool(level: Level, deck: np.ndarray):
    """(pool, forced, exact): the cards that can reach the grid, which of them must (the setup
    cards), and whether the pool is exactly the placed set (draw-and-place, no discards)."""
    from .bounds import pool as bounds_pool

    deck = np.asarray(deck, np.int8)
    if level.hand:
        cards = bounds_pool(level, deck)
        exact = False
    else:
        cards = np.sort(deck[: level.cells + level.discards])
        exact = level.discards == 0
    setup = set(int(c) for c in deck[: _setup_cards(level)])
    forced = np.array([int(c) in setup for c in cards], bool)
    return cards, forced, exact


def _warm_up(p, n, mode):
    """Compile the pricing kernel outside the timed passes."""
    cards = np.arange(n, dtype=np.int8)
    _price(p, _LINE, cards, np.zeros(n), np.zeros((n, n)), n, mode, NO_CAP, 0.0, 0.0,
           np.zeros(K_BEST), np.zeros((K_BEST, n), np.int64))


def partition_bound(level: int | Level, deck: np.ndarray, seconds: float = 5.0,
                    max_passes: int = 200, pairs: bool = True) -> int | None:
    """A proven upper bound of every game's result on this deal (see the module doc), or
    ``None`` where this relaxation does not apply. ``seconds`` and ``max_passes`` stop the
    column generation early (the bound stays proven, only looser)."""
    from .bounds import line_max, relaxed_params

    lv = get_level(level)
    agg = lv.aggregation
    if lv.diagonals and agg != L.AGG_MIN_X10:
        return None
    if agg not in (L.AGG_SUM, L.AGG_MARKERS_X10, L.AGG_MIN_X10):
        return None
    _linprog()
    n = lv.size
    p = relaxed_params(lv)
    cards, forced, exact = placed_pool(lv, deck)
    vmax_value, vmax_markers = line_max(lv, deck)  # over a superset of the pool: an upper bound
    mode = MODE_MARKERS if agg == L.AGG_MARKERS_X10 else MODE_VALUE
    _warm_up(p, n, mode)
    t0 = time.perf_counter()
    tol = 1e-6

    def solve(cap, vmax, share):
        return lp_bound(p, n, cards, forced, exact, mode, cap, vmax, t0 + share, max_passes,
                        pairs=pairs)[0]

    if agg == L.AGG_MARKERS_X10:
        ub = solve(NO_CAP, 10 * max(vmax_markers, 0), seconds)
        return int(math.floor((ub + tol) / 10.0)) * 10
    ub = solve(NO_CAP, vmax_value, seconds / 2 if agg == L.AGG_MIN_X10 else seconds)
    if agg == L.AGG_SUM:
        return int(math.floor(ub + tol))
    # 10 x lowest line: the lowest line is at most the mean line value; then "every line is
    # worth m or more" is refuted when the LP with values capped at m stays below 2 n m
    lo, hi = -10, min(int(math.floor(ub / (2 * n) + tol)), int(vmax_value))
    if hi <= lo:
        return 10 * max(hi, lo)  # -10 is the least any line is worth
    while lo < hi:  # the largest m not refuted; lo is never tested (no line is below -10)
        mid = (lo + hi + 1) // 2
        elapsed = time.perf_counter() - t0
        cap_ub = solve(mid, min(vmax_value, mid), max(elapsed + seconds / 10, seconds))
        if cap_ub < 2 * n * mid - tol:
            hi = mid - 1
        else:
            lo = mid
    return 10 * lo
