"""The line estimates the learned player and the searchers judge lines by, against plain Python.

- :mod:`numberup.evaluation.exact`'s exact estimates (value-count and colour-sum rules), every
  completion of a line laid in turn, and one more card of each value: every completion of the
  line by distinct cards of the pool, scored by the reference scorer
  (tests/oracles/line_completions.py, tests/oracles/reference.py).
- Stratified completions: their mean over many decisions is the exact mean, and they vary
  less than independent completions of the same number.

The learned look at the next card: tests/learned/test_lookahead.py.
"""

import math
import random

import numpy as np
import pytest

import oracles.line_completions as LC

from numberup.evaluation import completions as CO
from numberup.evaluation import exact as EX
from numberup.game import levels as L
from numberup.evaluation.layout import DIST_HI, DIST_LO, N_STATS

EXACT_LEVELS = [n for n in range(1, 21) if EX.family(n) != EX.NONE]
VALUE_LEVELS = [n for n in range(1, 21) if EX.family(n) == EX.VALUES]
SAMPLED_LEVELS = [n for n in range(1, 21) if EX.family(n) == EX.NONE]


def _expected_columns(level, cells, pool):
    """The columns of a line estimate (mean, variance, P(value >= bronze/silver/gold line
    target), P(value >= t)) over every completion."""
    p = L.PARAMS[level]
    c, v = LC.brute_force(level, cells, pool)
    cols = [c.mean(), c.var()] + [(v >= (p[q] + 9) // 10).mean()
                                  for q in (L.P_BRONZE, L.P_SILVER, L.P_GOLD)]
    dist = [(v >= t).mean() for t in range(DIST_LO + 1, DIST_HI + 1)]
    return np.array(cols), np.array(dist)


@pytest.mark.parametrize("level", EXACT_LEVELS, ids=[f"level-{n}" for n in EXACT_LEVELS])
def test_exact_estimate_is_every_completion(level):
    lv, p, geo, S, X = LC.scratch(level)
    for grid, li, pool in LC.random_lines(level, random.Random(level), 40):
        n_pool = LC.load(S, X, grid, pool)
        EX._exact_prepare(p, X.exact, X.pool, n_pool)
        EX._exact_line(p, geo, S, X.exact, X.line_eval, li, n_pool)
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        cols, dist = _expected_columns(level, cells, pool)
        assert np.allclose(X.line_eval[li, :N_STATS], cols, atol=1e-9), (cells, pool)
        if p[L.P_AGG] == L.AGG_MIN_X10:
            assert np.allclose(X.line_eval[li, N_STATS:N_STATS + len(dist)], dist, atol=1e-9)
        if EX.family(level) == EX.VALUES:
            assert EX._exact_mean(p, geo, S, X.exact, li, n_pool) == pytest.approx(cols[0])


@pytest.mark.parametrize("level", VALUE_LEVELS, ids=[f"level-{n}" for n in VALUE_LEVELS])
def test_one_more_card_of_each_value_is_every_completion(level):
    lv, p, geo, S, X = LC.scratch(level)
    rng = random.Random(100 + level)
    checked = 0
    for grid, li, pool in LC.random_lines(level, rng, 30):
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if -1 not in cells:
            continue
        n_pool = LC.load(S, X, grid, pool)
        EX._exact_prepare(p, X.exact, X.pool, n_pool)
        EX._exact_line_plus(p, geo, S, X.exact, li, n_pool, X.plus)
        used = set(int(c) for c in grid if c >= 0) | set(pool)
        for v in range(lv.values):
            spare = [v * 8 + c for c in range(lv.colours) if v * 8 + c not in used]
            if not spare:  # every card of the value is on the grid or in the pool
                continue
            line = list(cells)
            line[line.index(-1)] = spare[0]
            want = LC.brute_force(level, line, pool)[0].mean()
            assert X.plus[v] == pytest.approx(want, abs=1e-9), (cells, v, pool)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_every_completion_is_every_completion(level):
    lv, p, geo, S, X = LC.scratch(level)
    for grid, li, pool in LC.random_lines(level, random.Random(200 + level), 15):
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if -1 not in cells:
            continue
        n_pool = LC.load(S, X, grid, pool)
        CO._every_completion(p, geo, S, X, li, n_pool)
        assert (S.grid == grid).all()
        cols, dist = _expected_columns(level, cells, pool)
        assert np.allclose(X.line_eval[li, :N_STATS], cols, atol=1e-9)
        if p[L.P_AGG] == L.AGG_MIN_X10:
            assert np.allclose(X.line_eval[li, N_STATS:N_STATS + len(dist)], dist, atol=1e-9)


@pytest.mark.parametrize("level", SAMPLED_LEVELS, ids=[f"level-{n}" for n in SAMPLED_LEVELS])
def test_stratified_completions_are_unbiased_and_steadier(level):
    from numberup.evaluation.sampled import _estimate_line

    lv, p, geo, S, X = LC.scratch(level)
    rng = random.Random(300 + level)
    k, decisions = 16, 300
    lines = [(grid, li, pool) for grid, li, pool in LC.random_lines(level, rng, 40)
             if sum(int(grid[c]) < 0 for c in geo.lines[li][:lv.size]) >= 2][:6]
    assert lines
    var_strata = var_plain = 0.0
    for grid, li, pool in lines:
        n_pool = LC.load(S, X, grid, pool)
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        exact = LC.brute_force(level, cells, pool)[0]
        strata, plain = [], []
        for d in range(decisions):
            S.rng[1] = np.uint64(d * 7919 + 1)
            CO._stratified_line(p, geo, S, X, li, k, n_pool)
            strata.append(X.line_eval[li, 0])
            _estimate_line(p, geo, S, X.line_eval, X.pool, li, k, n_pool)
            plain.append(X.line_eval[li, 0])
        strata, plain = np.array(strata), np.array(plain)
        assert (S.grid == grid).all()  # the completions leave the grid as it was
        se = exact.std() / math.sqrt(k * decisions) + 1e-12
        assert abs(strata.mean() - exact.mean()) < 4 * se, (cells, pool)
        var_strata += strata.var()
        var_plain += plain.var()
    assert var_strata < var_plain
