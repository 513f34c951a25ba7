"""The lines of the exact model (:mod:`numberup.analysis.exact`): a small sparse-model builder
and, per rule family, a line's value written with integer variables.

Every formulation keeps one promise: whatever the auxiliary choices, the line's modelled value
is at most its real value, and one choice reaches it. So the model's optimum is the best
game's result and its dual bound a bound of every game. The families: colour sum (levels 1,
5: checkmarkers without big-M, one binary per target and colour), second colour sum (4), the
value counts of chapter 2 (6-10: a one-hot of each value's count), colour count x value count
(11, 12: a one-hot of the product's factors), colour sum x value count scored by checkmarkers
(14), triplet then colour sum (15) and streets anywhere in the line (16, 17: a street's cards
are single cards of the deck, so a street is present when each of its cards is in the line).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError
from ..game import levels as L
from ..game.levels import Level


class Model:
    """Variables and sparse rows, gathered for scipy's milp."""

    def __init__(self):
        self.lb, self.ub, self.integer, self.cost = [], [], [], []
        self.rows, self.cols, self.vals, self.lo, self.hi = [], [], [], [], []

    def var(self, lb=0.0, ub=1.0, integer=True, cost=0.0) -> int:
        self.lb.append(lb)
        self.ub.append(ub)
        self.integer.append(1 if integer else 0)
        self.cost.append(cost)
        return len(self.lb) - 1

    def row(self, terms, lo=-np.inf, hi=np.inf):
        """``lo <= sum(coef * var for var, coef in terms) <= hi``."""
        r = len(self.lo)
        for v, a in terms:
            if a != 0:
                self.rows.append(r)
                self.cols.append(v)
                self.vals.append(float(a))
        self.lo.append(lo)
        self.hi.append(hi)


def _value_of_points(m: Model, lv: Level, P: int, p_min: float, p_max: float, markers_only):
    """The line value from its points variable ``P`` (at most the real points): checkmarkers
    ``m_j`` (``P >= target j``), a minus marker where ``P < 0``, else the chip ``min(P, first
    target - 1)``. Adds the value to the objective: 10 per checkmarker, plus the chip and -10
    for a minus marker unless ``markers_only``."""
    targets = list(lv.targets)
    marks = []
    for t in targets:
        mj = m.var(cost=10.0)
        # P >= t m + p_min (1 - m)
        m.row([(P, 1.0), (mj, -(t - p_min))], lo=p_min)
        if marks:
            m.row([(mj, 1.0), (marks[-1], -1.0)], hi=0.0)
        marks.append(mj)
    if markers_only:
        return
    cap = (targets[0] - 1) if targets else p_max
    if targets:
        assert targets[0] - 1 <= 10, "the value must not fall where a target is reached"
    chip = m.var(0.0, max(cap, 0.0), integer=False, cost=1.0)
    if p_min < 0:
        neg = m.var(cost=-10.0)
        m.row([(chip, 1.0), (P, -1.0), (neg, p_min)], hi=0.0)  # chip <= P + |p_min| neg
        m.row([(chip, 1.0), (neg, max(cap, 0.0))], hi=max(cap, 0.0))  # no chip with a minus
        if marks:
            m.row([(neg, 1.0), (marks[0], 1.0)], hi=1.0)
    else:
        m.row([(chip, 1.0), (P, -1.0)], hi=0.0)
    if marks:
        m.row([(chip, 1.0), (marks[0], max(cap, 0.0))], hi=max(cap, 0.0))  # no chip w/ marker


def _value_of_max(m: Model, lv: Level, exprs: dict, cap_expr: float, markers_only,
                  gate=None):
    """The line value when the points are the largest of ``exprs`` (linear terms, each at
    least 0), without big-M in the checkmarkers: checkmarker j is a binary ``y[j, k]`` per
    expression with ``target_j y[j, k] <= expr_k``. The chip is at most the expression a
    binary picks, and none with a checkmarker. ``gate``: a binary without which the line has
    a minus marker (no checkmarker, no chip, -10)."""
    targets = list(lv.targets)
    prev = None
    first = None
    for t in targets:
        ys = []
        for terms in exprs.values():
            y = m.var(cost=10.0)
            ys.append(y)
            m.row([(y, float(t))] + [(v, -a) for v, a in terms], hi=0.0)
        if gate is None:
            m.row([(y, 1.0) for y in ys], hi=1.0)
        else:
            m.row([(y, 1.0) for y in ys] + [(gate, -1.0)], hi=0.0)
        if prev is not None:  # the j+1-th checkmarker only with the j-th
            m.row([(y, 1.0) for y in ys] + [(y, -1.0) for y in prev], hi=0.0)
        if first is None:
            first = ys
        prev = ys
    if markers_only:
        return
    cap = float(targets[0] - 1) if targets else cap_expr
    if targets:
        assert targets[0] - 1 <= 10, "the value must not fall where a target is reached"
    chip = m.var(0.0, cap, integer=False, cost=1.0)
    zs = []
    for terms in exprs.values():
        z = m.var()
        zs.append(z)
        m.row([(chip, 1.0)] + [(v, -a) for v, a in terms] + [(z, cap)], hi=cap)
    # one pick: a chip's expression, a checkmarker, or (gate off) the minus marker; the chip
    # is 0 without a chip's pick
    pick = [(z, 1.0) for z in zs] + [(y, 1.0) for y in (first or [])]
    m.row([(chip, 1.0)] + [(z, -cap) for z in zs], hi=0.0)
    if gate is None:
        m.row(pick, lo=1.0, hi=1.0)
    else:
        neg = m.var(cost=-10.0)
        m.row(pick + [(neg, 1.0)], lo=1.0, hi=1.0)
        m.row([(neg, 1.0), (gate, 1.0)], lo=1.0)  # a minus marker where the gate is off


def _select_max(m: Model, sums: dict, big: float) -> int:
    """A variable at most one of ``sums`` (linear terms), the one a binary picks."""
    S = m.var(0.0, big, integer=False)
    picks = []
    for terms in sums.values():
        z = m.var()
        picks.append(z)
        m.row([(S, 1.0)] + [(v, -a) for v, a in terms] + [(z, big)], hi=big)
    m.row([(z, 1.0) for z in picks], lo=1.0, hi=1.0)
    return S


def line(m: Model, lv: Level, cards: np.ndarray, X, cells):
    """Adds line ``cells``'s value to the objective. ``X[t][c]``: the assignment variables."""
    n = lv.size
    values = cards // 8 + 1
    colours = cards % 8
    t_all = range(len(cards))
    inl = {t: [(X[t][c], 1.0) for c in cells] for t in t_all}  # card t in the line
    markers_only = lv.aggregation == L.AGG_MARKERS_X10
    rule = lv.rule

    def colour_sums():
        return {k: [(v, float(values[t])) for t in t_all if colours[t] == k for v, _ in inl[t]]
                for k in range(lv.colours)}

    def colour_counts():
        return {k: [(v, 1.0) for t in t_all if colours[t] == k for v, _ in inl[t]]
                for k in range(lv.colours)}

    def value_counts():
        return {v: [(x, 1.0) for t in t_all if values[t] == v for x, _ in inl[t]]
                for v in range(1, lv.values + 1)}

    big_sum = float(n * lv.values)
    if rule == L.RULE_STREET_ANY:
        placed = {int(c): t for t, c in enumerate(cards)}
        picks = []
        for k in range(lv.colours):
            for v0 in range(1, lv.values + 1):
                for length in range(2, min(n, lv.values - v0 + 1) + 1):
                    need = [(v - 1) * 8 + k for v in range(v0, v0 + length)]
                    if not all(c in placed for c in need):
                        continue
                    total = sum(range(v0, v0 + length))
                    if length >= 3:
                        value = 10 * (length - 2)
                    else:
                        mk = sum(total >= t for t in lv.targets)
                        value = 10 * mk if mk > 0 else total
                    s = m.var(cost=float(value + 10))  # the line is -10 without a street
                    picks.append(s)
                    for c in need:
                        m.row([(s, 1.0)] + [(x, -1.0) for x, _ in inl[placed[c]]], hi=0.0)
        if picks:
            m.row([(s, 1.0) for s in picks], hi=1.0)
        return -10.0  # the constant of the line's value
    if rule in (L.RULE_PAIRS, L.RULE_ONES_TRIPLET, L.RULE_ONES_TRIPLET_MINUS, L.RULE_SINGLES):
        P = m.var(-big_sum, 9.0 * lv.values, integer=False)
        terms = [(P, 1.0)]
        for v, count in value_counts().items():
            e = [m.var() for _ in range(n + 1)]
            m.row([(x, 1.0) for x in e], lo=1.0, hi=1.0)
            m.row([(e[j], float(j)) for j in range(n + 1)] + [(x, -1.0) for x, _ in count],
                  lo=0.0, hi=0.0)
            for j in range(n + 1):
                if rule == L.RULE_PAIRS:
                    f = 9 if j >= 3 else (v if j == 2 else 0)
                elif rule == L.RULE_SINGLES:
                    f = v if j == 1 else 0
                else:
                    f = (v if j >= 2 else 0) + (8 if v == 1 and j >= 3 else 0)
                    if rule == L.RULE_ONES_TRIPLET_MINUS and j == 1:
                        f = -v
                terms.append((e[j], -float(f)))
        m.row(terms, lo=0.0, hi=0.0)
        lo_p = -float(sum(range(1, lv.values + 1))) if rule == L.RULE_ONES_TRIPLET_MINUS else 0.0
        _value_of_points(m, lv, P, lo_p, 9.0 * lv.values, markers_only)
        return 0.0
    if rule == L.RULE_COLOUR_SUM:
        _value_of_max(m, lv, colour_sums(), big_sum, markers_only)
        return 0.0
    if rule == L.RULE_COLOUR_SECOND:
        P = m.var(0.0, big_sum, integer=False)
        sums = colour_sums()
        z1 = {k: m.var() for k in sums}
        z2 = {k: m.var() for k in sums}
        for z in (z1, z2):
            m.row([(v, 1.0) for v in z.values()], lo=1.0, hi=1.0)
            for k, terms in sums.items():
                m.row([(P, 1.0)] + [(v, -a) for v, a in terms] + [(z[k], big_sum)], hi=big_sum)
        for k in sums:
            m.row([(z1[k], 1.0), (z2[k], 1.0)], hi=1.0)
        _value_of_points(m, lv, P, 0.0, big_sum, markers_only)
        return 0.0
    if rule == L.RULE_TRIPLET_COLOUR_SUM:
        S = _select_max(m, colour_sums(), big_sum)
        P = m.var(-1.0, big_sum, integer=False)
        h = m.var()
        gs = []
        for v, count in value_counts().items():
            g = m.var()
            gs.append(g)
            m.row([(g, 3.0)] + [(x, -1.0) for x, _ in count], hi=0.0)
        m.row([(h, 1.0)] + [(g, -1.0) for g in gs], hi=0.0)
        m.row([(P, 1.0), (S, -1.0)], hi=0.0)
        m.row([(P, 1.0), (h, -(big_sum + 1.0))], hi=-1.0)  # P <= -1 without a triplet
        _value_of_points(m, lv, P, -1.0, big_sum, markers_only)
        return 0.0
    if rule in (L.RULE_COUNT_X_COUNT, L.RULE_SUM_X_COUNT):
        firsts = colour_counts() if rule == L.RULE_COUNT_X_COUNT else colour_sums()
        A = _select_max(m, firsts, big_sum)
        B = _select_max(m, value_counts(), float(n))
        w = {j: m.var() for j in range(1, n + 1)}  # the value count the product uses
        m.row([(x, 1.0) for x in w.values()], lo=1.0, hi=1.0)
        m.row([(w[j], float(j)) for j in w] + [(B, -1.0)], hi=0.0)
        if rule == L.RULE_COUNT_X_COUNT:
            # points = i * j over a one-hot of (colour count i, value count j)
            P = m.var(0.0, float(n * n), integer=False)
            u = {i: m.var() for i in range(1, n + 1)}
            m.row([(x, 1.0) for x in u.values()], lo=1.0, hi=1.0)
            m.row([(u[i], float(i)) for i in u] + [(A, -1.0)], hi=0.0)
            q = {(i, j): m.var() for i in u for j in w}
            for i in u:
                m.row([(q[i, j], 1.0) for j in w] + [(u[i], -1.0)], lo=0.0, hi=0.0)
            for j in w:
                m.row([(q[i, j], 1.0) for i in u] + [(w[j], -1.0)], lo=0.0, hi=0.0)
            m.row([(P, 1.0)] + [(q[k], -float(k[0] * k[1])) for k in q], hi=0.0)
            _value_of_points(m, lv, P, 0.0, float(n * n), markers_only)
            return 0.0
        # colour sum x value count, scored by checkmarkers alone: target t is reached when
        # the colour sum is at least ceil(t / j) for the value count j chosen
        assert markers_only, "level 14's rule is modelled for 10 x checkmarkers"
        prev = None
        big = big_sum + max(lv.targets)
        for t in lv.targets:
            mk = m.var(cost=10.0)
            need = [(w[j], -float(math.ceil(t / j))) for j in w]
            m.row([(A, 1.0)] + need + [(mk, -big)], lo=-big)
            if prev is not None:
                m.row([(mk, 1.0), (prev, -1.0)], hi=0.0)
            prev = mk
        return 0.0
    raise InputError(f"level {lv.number}: no exact model for its rule")  # pragma: no cover
