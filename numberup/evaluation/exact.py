"""Exact expectations of a line's random completions, on the rules that allow them cheaply.

The searchers judge an open line by its *random completions* (:mod:`numberup.evaluation.sampled`): its
empty cells filled with distinct cards drawn uniformly from the cards still to come (the
decision's pool), the line scored by the level's own kernel, ``k`` times. That estimate is
noisy, and the noise costs play: the learned player with ``k=1024`` completions a line scores
up to 2 points more than with its default 64 on levels 2, 7 and 8 (600 paired decks). On two
families of rules the same expectation (the limit of ``k -> infinity``) is exact and costs
less than 64 completions, because the score of a full line depends on a small summary of its
cards and the summaries of the completions can be counted rather than drawn:

- **value counts** (chapter 2: ``RULE_PAIRS``, ``RULE_ONES_TRIPLET``,
  ``RULE_ONES_TRIPLET_MINUS``, ``RULE_SINGLES``; levels 6-10): the score depends on the
  line's value histogram alone. A completion of ``e`` cells by ``e`` distinct cards of a pool
  holding ``c_v`` cards of value ``v`` (``N`` in all) adds ``k_v`` cards of each value with
  probability ``prod_v C(c_v, k_v) / C(N, e)`` (multivariate hypergeometric): every
  composition ``k`` of ``e`` is counted once, and the full line's value is read from a table
  of histograms (:func:`_histogram_values`).
- **colour sums** (``RULE_COLOUR_SUM``, ``RULE_COLOUR_SECOND``; levels 1, 3, 4, 5): the
  score is the largest (second-largest) of the colours' sums. For a threshold ``x``, the
  completions in which every colour's sum stays below ``x`` are counted by a product of one
  polynomial per colour (:mod:`numberup.evaluation.colour_sums`), ``B_c(z) = sum_j z^j #{j-subsets of the pool's cards of colour c
  whose values keep the colour below x}``, whose coefficient of ``z^e`` is the count
  (subsets of different colours combine freely into an ``e``-subset of the pool). The
  second-largest stays below ``x`` when at most one colour reaches it: ``prod B_c + sum_c G_c
  prod_{c' != c} B_c'`` with ``G_c`` the subsets that reach it. The subset counts of each
  colour by size and sum are made once per decision (:func:`_exact_prepare`).

The estimate fills ``line_eval[li]`` exactly as a sampled estimate does (mean, variance,
P(value >= the bronze/silver/gold line targets), and on levels scored by the lowest line
P(value >= t) for every t), with the same pool (the cards to come at the decision, the card
being tried included: see :mod:`numberup.evaluation.sampled`). Other rules keep their random completions,
enumerated or stratified (:mod:`numberup.evaluation.completions`, which dispatches among them).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ..game import levels as L
from ..game.scoring import _line_score, _line_value
from ..jit import kernel
from .layout import DIST_HI, DIST_LO, N_STATS
from .colour_sums import MAX_SUM, _colour_prob

NONE, VALUES, COLOURS = 0, 1, 2  # the families of rules (module doc)
MAX_POOL = 48  # cards in a pool at most


@kernel(inline="always")
def _family(p):
    """The family of the level's rule: ``VALUES``, ``COLOURS``, or ``NONE`` (sampled)."""
    rule = p[L.P_RULE]
    if p[L.P_AGG] == L.AGG_MARKERS_X10:
        return NONE
    if (rule == L.RULE_PAIRS or rule == L.RULE_ONES_TRIPLET
            or rule == L.RULE_ONES_TRIPLET_MINUS or rule == L.RULE_SINGLES):
        return VALUES
    if rule == L.RULE_COLOUR_SUM or rule == L.RULE_COLOUR_SECOND:
        return COLOURS
    return NONE


def family(level: int) -> int:
    """The family of ``level``'s rule (``NONE``: its lines are estimated by sampling)."""
    return int(_family(L.PARAMS[level]))


class Exact(NamedTuple):
    """The working arrays of the exact estimates of one level (:func:`new_exact`).

    values : int8 ((n+1)**values,)      VALUES: the value of a full line by its histogram
                                         (index ``sum_v count_v (n+1)**v``); else empty
    comp_inc : int64 (n+1, C)           VALUES: for ``e`` empty cells, every composition of
                                         ``e`` into one count per value, as the increment of
                                         the histogram index it adds ...
    comp_k : int64 (n+1, C, values)      ... and its counts
    n_comp : int64 (n+1,)                ... and how many there are
    binom : float64 (MAX_POOL + 1, n+1)  C(a, b)
    counts : int64 (8,)                  the pool's cards by value (:func:`_exact_prepare`)
    weights : float64 (n+1, C)           VALUES: the probability of each composition of ``e``
                                         (:func:`_composition_weights`)
    sums : int64 (8,)                    COLOURS: the line's sum of each colour
    below : float64 (8, n+1, MAX_SUM + 2)  COLOURS: per colour, the subsets of the pool's cards
                                         of that colour by size and by sum < t
    subsets : float64 (8, n+1)           ... and by size
    poly : float64 (9, n+1)              scratch: prefix products of the colours' polynomials
    term : float64 (4, n+1)              scratch: one colour's polynomial, suffix products
    prob : float64 (DIST_HI - DIST_LO + 1,)  the line's value distribution
    """

    values: np.ndarray
    comp_inc: np.ndarray
    comp_k: np.ndarray
    n_comp: np.ndarray
    binom: np.ndarray
    counts: np.ndarray
    weights: np.ndarray
    sums: np.ndarray
    below: np.ndarray
    subsets: np.ndarray
    poly: np.ndarray
    term: np.ndarray
    prob: np.ndarray


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every tuple of ``parts`` counts >= 0 adding up to ``total``."""
    if parts == 1:
        return [(total,)]
    return [(first,) + rest for first in range(total + 1)
            for rest in _compositions(total - first, parts - 1)]


def new_exact(level) -> Exact:
    """Allocate the :class:`Exact` of ``level`` (a :class:`~numberup.game.levels.Level`): its
    read-only tables (:func:`_tables`, shared) and working arrays of its own."""
    values, comp_inc, comp_k, n_comp, binom = _tables(level.number)
    n = level.size
    colours = 8 if _family(L.PARAMS[level.number]) == COLOURS else 0
    return Exact(values, comp_inc, comp_k, n_comp, binom, np.zeros(8, np.int64),
                 np.zeros(comp_inc.shape, np.float64), np.zeros(8, np.int64),
                 np.zeros((colours, n + 1, MAX_SUM + 2), np.float64),
                 np.zeros((colours, n + 1), np.float64), np.zeros((9, n + 1), np.float64),
                 np.zeros((4, n + 1), np.float64),
                 np.zeros(DIST_HI - DIST_LO + 1, np.float64))


@cache
def _tables(number: int):
    """The read-only tables of level ``number``'s :class:`Exact`: values, comp_inc, comp_k,
    n_comp, binom (empty where the rule has no exact estimate)."""
    from math import comb

    from ..game.grid import geometry
    from ..game.levels import get_level

    level = get_level(number)
    p = L.PARAMS[number]
    n, nv = level.size, level.values
    fam = _family(p)
    binom = np.array([[comb(a, b) for b in range(n + 1)] for a in range(MAX_POOL + 1)],
                     np.float64)
    if fam == VALUES:
        comps = [_compositions(e, nv) for e in range(n + 1)]
        width = max(len(c) for c in comps)
        comp_k = np.zeros((n + 1, width, nv), np.int64)
        comp_inc = np.zeros((n + 1, width), np.int64)
        radix = (n + 1) ** np.arange(nv)
        for e, cs in enumerate(comps):
            comp_k[e, :len(cs)] = cs
            comp_inc[e, :len(cs)] = np.asarray(cs, np.int64) @ radix
        n_comp = np.array([len(c) for c in comps], np.int64)
        values = np.zeros((n + 1) ** nv, np.int8)
        _histogram_values(p, geometry(n).lines, np.full(n * n, -1, np.int8), values)
    else:
        comp_k = np.zeros((n + 1, 0, nv), np.int64)
        comp_inc = np.zeros((n + 1, 0), np.int64)
        n_comp = np.zeros(n + 1, np.int64)
        values = np.zeros(0, np.int8)
    tables = (values, comp_inc, comp_k, n_comp, binom)
    for a in tables:
        a.setflags(write=False)
    return tables


@kernel
def _histogram_values(p, lines, grid, out):
    """``out[h]`` := the value of a full line whose value histogram has index ``h``
    (``sum_v count_v (n+1)**v``), scored by the level's kernel on the first line of ``grid``
    (cards of distinct colours; the rules of the family read values only). Histograms of
    more or fewer than ``n`` cards are left at 0."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    for h in range(out.shape[0]):
        x = h
        cell = 0
        for v in range(nv):
            c = x % (n + 1)
            x //= n + 1
            for q in range(c):
                if cell < n:
                    grid[lines[0, cell]] = v * 8 + q
                cell += 1
        if cell != n:
            out[h] = 0
            continue
        points, markers = _line_score(p, grid, lines, np.int64(0), n)
        out[h] = _line_value(points, markers)
    for i in range(n):
        grid[lines[0, i]] = -1


@kernel
def _exact_prepare(p, E, pool, n_pool):
    """Count the decision's pool for the exact estimates: ``E.counts`` (cards by value), and on
    colour-sum rules each colour's subsets by size and sum (``E.below``, ``E.subsets``)."""
    fam = _family(p)
    if fam == NONE:
        return
    n = p[L.P_SIZE]
    for v in range(8):
        E.counts[v] = 0
    for q in range(n_pool):
        E.counts[pool[q] // 8] += 1
    if fam == VALUES:
        _composition_weights(p, E, n_pool)
        return
    for c in range(p[L.P_COLOURS]):
        for j in range(n + 1):
            for s in range(MAX_SUM + 2):
                E.below[c, j, s] = 0.0
        E.below[c, 0, 0] = 1.0  # first the exact counts by (size, sum), the empty subset
        for q in range(n_pool):
            card = pool[q]
            if card % 8 != c:
                continue
            u = card // 8 + 1
            for j in range(n - 1, -1, -1):
                for s in range(MAX_SUM - u, -1, -1):
                    E.below[c, j + 1, s + u] += E.below[c, j, s]
        for j in range(n + 1):  # then cumulative: below[c, j, t] = subsets with sum < t
            acc = 0.0
            for s in range(MAX_SUM + 2):
                here = E.below[c, j, s] if s <= MAX_SUM else 0.0
                E.below[c, j, s] = acc
                acc += here
            E.subsets[c, j] = acc


@kernel
def _composition_weights(p, E, n_pool):
    """``E.weights[e, q]`` := the probability that ``e`` distinct cards drawn from the pool
    (``E.counts`` by value, ``n_pool`` cards) have the value counts of composition ``q``:
    ``prod_v C(counts_v, k_v) / C(n_pool, e)`` (0 where the pool has too few)."""
    nv = p[L.P_VALUES]
    for e in range(p[L.P_SIZE] + 1):
        whole = E.binom[n_pool, e] if n_pool >= e else 0.0
        for q in range(E.n_comp[e]):
            w = 0.0
            if whole > 0.0:
                w = 1.0
                for v in range(nv):
                    w *= E.binom[E.counts[v], E.comp_k[e, q, v]]
                w /= whole
            E.weights[e, q] = w


@kernel
def _exact_line(p, geo, S, E, line_eval, li, n_pool):
    """Fill ``line_eval[li]`` with the exact expectation of line ``li``'s random completions
    from the decision's pool (:func:`_exact_prepare` counted it; ``n_pool`` cards), for the
    rules of :func:`_family` (module doc); the same columns as a sampled estimate."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    e = 0
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            e += 1
    prob = E.prob
    for q in range(prob.shape[0]):
        prob[q] = 0.0
    if e == 0 or n_pool < e:
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        prob[_line_value(points, markers) - DIST_LO] = 1.0
    elif _family(p) == VALUES:
        h = _histogram(p, S.grid, geo.lines, li)
        for q in range(E.n_comp[e]):
            w = E.weights[e, q]
            if w > 0.0:
                prob[E.values[h + E.comp_inc[e, q]] - DIST_LO] += w
    else:
        _colour_prob(p, E, S.grid, geo.lines, li, n, e, n_pool)
    _finish(p, prob, 1.0, line_eval, li)


@kernel(inline="always")
def _histogram(p, grid, lines, li):
    """The index of line ``li``'s value histogram: ``sum_v count_v (n+1)**v``."""
    n = p[L.P_SIZE]
    h = 0
    radix = 1
    for v in range(p[L.P_VALUES]):
        c = 0
        for i in range(n):
            card = grid[lines[li, i]]
            if card >= 0 and card // 8 == v:
                c += 1
        h += c * radix
        radix *= n + 1
    return h


@kernel
def _exact_mean(p, geo, S, E, li, n_pool):
    """The exact mean of line ``li``'s random completions on a value-count rule: the first
    column of :func:`_exact_line`'s estimate, alone (the pool's compositions weighed by
    :func:`_exact_prepare`, ``n_pool`` cards)."""
    n = p[L.P_SIZE]
    e = 0
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            e += 1
    if e == 0 or n_pool < e:
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        return float(_line_value(points, markers))
    h = _histogram(p, S.grid, geo.lines, li)
    mean = 0.0
    for q in range(E.n_comp[e]):
        mean += E.weights[e, q] * E.values[h + E.comp_inc[e, q]]
    return mean


@kernel
def _exact_line_plus(p, geo, S, E, li, n_pool, out):
    """``out[v]`` := the exact mean of line ``li``'s random completions once one more card of
    value ``v`` lies on one of its empty cells, for every value ``v`` (value-count rules; the
    pool as :func:`_exact_prepare` counted it and weighed its compositions, ``n_pool`` cards;
    the cell does not matter on these rules). The line has an empty cell."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    e = -1  # the cells left empty after the card
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            e += 1
    h = _histogram(p, S.grid, geo.lines, li)
    for v in range(nv):
        out[v] = 0.0
    if n_pool < e:  # no completion: the line as it would lie, scored on the cards present
        for i in range(n):
            cell = geo.lines[li, i]
            if S.grid[cell] < 0:
                for v in range(nv):
                    S.grid[cell] = v * 8
                    points, markers = _line_score(p, S.grid, geo.lines, li, n)
                    out[v] = _line_value(points, markers)
                S.grid[cell] = -1
                return
    for q in range(E.n_comp[e]):
        w = E.weights[e, q]
        if w != 0.0:
            base = h + E.comp_inc[e, q]
            radix = 1
            for v in range(nv):
                out[v] += w * E.values[base + radix]
                radix *= n + 1


@kernel(inline="always")
def _finish(p, prob, total, line_eval, li):
    """``line_eval[li]`` from the line value's distribution ``prob`` (index v - DIST_LO; its
    weights sum to ``total``, 1 for a probability distribution): mean, variance, P(value >=
    the bronze/silver/gold line targets), and on levels scored by the lowest line P(value >= t)
    for every t."""
    tb = (p[L.P_BRONZE] + 9) // 10
    ts = (p[L.P_SILVER] + 9) // 10
    tg = (p[L.P_GOLD] + 9) // 10
    mean = mean2 = 0.0
    pb = ps = pg = 0.0
    for q in range(prob.shape[0]):
        w = prob[q]
        if w == 0.0:
            continue
        v = q + DIST_LO
        mean += w * v
        mean2 += w * v * v
        if v >= tb:
            pb += w
        if v >= ts:
            ps += w
        if v >= tg:
            pg += w
    mean /= total
    line_eval[li, 0] = mean
    line_eval[li, 1] = max(mean2 / total - mean * mean, 0.0)
    line_eval[li, 2] = pb / total
    line_eval[li, 3] = ps / total
    line_eval[li, 4] = pg / total
    if p[L.P_AGG] == L.AGG_MIN_X10:
        acc = 0.0
        for t in range(DIST_HI, DIST_LO, -1):
            acc += prob[t - DIST_LO]
            line_eval[li, N_STATS + t - DIST_LO - 1] = acc / total
