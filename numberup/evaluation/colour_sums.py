"""Exact counts of a line's completions on the colour-sum rules (levels 1, 3, 4, 5): how many
completions keep the line's points below a threshold, by a product of one polynomial per colour
(:mod:`numberup.evaluation.exact` explains the method and calls these)."""

from __future__ import annotations

from ..game import levels as L
from ..game.scoring import _line_value, _target_markers
from ..game.state import MAX_LINE_CELLS
from ..jit import kernel
from .layout import DIST_LO

MAX_SUM = 6 * MAX_LINE_CELLS  # a colour's sum in a line at most (six values 1..6)


@kernel(inline="always")
def _poly_times(a, b, out, e):
    """``out[:e+1]`` := the product of polynomials ``a`` and ``b`` (coefficients by degree),
    truncated at degree ``e``; ``out`` may not be ``a`` or ``b``."""
    for d in range(e + 1):
        s = 0.0
        for j in range(d + 1):
            s += a[j] * b[d - j]
        out[d] = s


@kernel(inline="always")
def _count_below(p, E, sums, e, x, n_colours):
    """The completions of ``e`` cards (of the pool) in which the line's points stay below
    ``x``: every colour's sum (``sums[c]`` on the line already, plus the completion's) below
    ``x``, or on ``RULE_COLOUR_SECOND`` all colours but at most one."""
    second = p[L.P_RULE] == L.RULE_COLOUR_SECOND
    P = E.poly  # P[c] := prod over colours < c of B (prefix products)
    for d in range(e + 1):
        P[0, d] = 1.0 if d == 0 else 0.0
    for c in range(n_colours):
        t = min(max(x - sums[c], 0), MAX_SUM + 1)
        for d in range(e + 1):
            E.term[0, d] = E.below[c, d, t]
        _poly_times(P[c], E.term[0], P[c + 1], e)
    count = P[n_colours, e]
    if not second:
        return count
    suffix = E.term[1]  # prod over colours > c of B, from the last colour down
    tmp = E.term[2]
    both = E.term[3]
    for d in range(e + 1):
        suffix[d] = 1.0 if d == 0 else 0.0
    for c in range(n_colours - 1, -1, -1):
        t = min(max(x - sums[c], 0), MAX_SUM + 1)
        _poly_times(P[c], suffix, both, e)  # the other colours below x
        for d in range(e + 1):  # ... times colour c's subsets reaching x, at degree e
            count += (E.subsets[c, d] - E.below[c, d, t]) * both[e - d]
        for d in range(e + 1):
            E.term[0, d] = E.below[c, d, t]
        _poly_times(suffix, E.term[0], tmp, e)
        for d in range(e + 1):
            suffix[d] = tmp[d]
    return count


@kernel(inline="always")
def _colour_prob(p, E, grid, lines, li, n, e, n_pool):
    """``E.prob`` := line ``li``'s value distribution over its completions on a colour-sum
    rule (module doc): from P(points < x) for x = 1 .. the last target."""
    nc = p[L.P_COLOURS]
    sums = E.sums
    for c in range(nc):
        sums[c] = 0
    for i in range(n):
        card = grid[lines[li, i]]
        if card >= 0:
            sums[card % 8] += card // 8 + 1
    top = p[L.P_TARGET0 + p[L.P_NTARGETS] - 1]
    whole = E.binom[n_pool, e]
    top1 = top2 = 0  # the line's largest and second-largest colour sums so far
    for c in range(nc):
        if sums[c] > top1:
            top1, top2 = sums[c], top1
        elif sums[c] > top2:
            top2 = sums[c]
    # points below it have probability 0: the line's largest (second-largest) sum, plus one
    lowest = max(1, (top1 if p[L.P_RULE] == L.RULE_COLOUR_SUM else top2) + 1)
    below_prev = 0.0  # P(points < x - 1)
    for x in range(min(lowest, top + 1), top + 1):
        below = _count_below(p, E, sums, e, x, nc) / whole
        j = x - 1  # P(points == j) = P(< x) - P(< j)
        if below > below_prev:
            E.prob[_line_value(j, _target_markers(p, j)) - DIST_LO] += below - below_prev
        below_prev = below
        if below >= 1.0:
            break
    if below_prev < 1.0:  # points >= the last target: every checkmarker
        E.prob[10 * p[L.P_NTARGETS] - DIST_LO] += 1.0 - below_prev
