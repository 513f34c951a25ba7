"""The sampled evaluation the searchers judge unfinished grids by (numberup.evaluation.sampled):
completions numbered apart for every k up to its maximum, the normal approximation's
continuity correction on levels whose results step by 10, and on levels scored by the lowest
line the expected minimum of the lines."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from numberup.game import levels as L
from numberup.game.levels import get_level
from numberup.players.scratch import new_scratch
from numberup.evaluation.sampled import MAX_K, _completion_index, _evaluate
from numberup.game.state import MAX_LINES


def test_every_completion_has_a_number_of_its_own():
    seen = set()
    for li in range(MAX_LINES):
        for j in range(MAX_K):
            seen.add(_completion_index(li, j))
    assert len(seen) == MAX_LINES * MAX_K
    # the first 1024 of each line keep their numbers: k <= 1024 plays as before
    assert [_completion_index(3, j) for j in (0, 1023)] == [3 * 1024 + 1, 3 * 1024 + 1024]


def _binomial_tail(n, q, m):
    """P(Binomial(n, q) >= m)."""
    return sum(math.comb(n, i) * q ** i * (1 - q) ** (n - i) for i in range(max(m, 0), n + 1))


@pytest.mark.parametrize("level", [12, 14])
def test_continuity_correction_uses_half_a_step_of_ten(level):
    """On levels scored by 10 x checkmarkers, results step by 10. With every line's
    checkmarkers Binomial(targets, q), the total is Binomial(lines x targets, q) checkmarkers,
    and the normal approximation is close to it only when corrected by half a step (5)."""
    lv = get_level(level)
    p = L.PARAMS[level]
    nl, nt = int(p[L.P_NLINES]), int(p[L.P_NTARGETS])
    silver = lv.medals[1]
    q = silver / (10 * nl * nt)  # the mean result is the silver medal's
    X = new_scratch(lv)
    for li in range(nl):
        X.line_eval[li, 0] = 10 * nt * q
        X.line_eval[li, 1] = 100 * nt * q * (1 - q)
    out = np.zeros(5)
    _evaluate(p, X.line_eval, out)
    for col, medal in zip((1, 2, 3), lv.medals):
        exact = _binomial_tail(nl * nt, q, medal // 10)
        assert out[col] == pytest.approx(exact, abs=0.015), f"P(>= {medal})"
    # corrected by half a whole number instead, it would be far off at the mean
    sd = math.sqrt(nl * X.line_eval[0, 1])
    half = 0.5 * math.erfc((silver - 0.5 - silver) / (sd * math.sqrt(2)))
    assert abs(half - _binomial_tail(nl * nt, q, silver // 10)) > 0.04


@pytest.mark.parametrize("level", [3, 20])
def test_lowest_line_mean_is_the_expected_minimum(level):
    """On levels scored by the lowest line, the evaluation's mean is 10 x E[lowest line] of
    independent lines, checked against enumerating every combination of line values."""
    import itertools

    import numpy as np

    from numberup.game import levels as L
    from numberup.evaluation.layout import DIST_HI, DIST_LO
    from numberup.players.scratch import new_scratch
    from numberup.evaluation.sampled import _evaluate

    p = L.PARAMS[level]
    nl = int(p[L.P_NLINES])
    rng = random.Random(level)
    for _ in range(20):
        # every line a small distribution over values in [DIST_LO, DIST_HI]; three uncertain
        lines = []
        for li in range(nl):
            support = rng.sample(range(DIST_LO, DIST_HI + 1), 1 if li >= 3 else 3)
            weights = [rng.random() for _ in support]
            lines.append([(v, w / sum(weights)) for v, w in zip(support, weights)])
        X = new_scratch(get_level(level))
        for li, dist in enumerate(lines):
            for t in range(DIST_LO + 1, DIST_HI + 1):
                X.line_eval[li, 5 + t - DIST_LO - 1] = sum(w for v, w in dist if v >= t)
        out = np.zeros(5)
        _evaluate(p, X.line_eval, out)
        expected = sum(math.prod(w for _, w in combo) * min(v for v, _ in combo)
                       for combo in itertools.product(*lines))
        assert out[0] == pytest.approx(10 * expected, abs=1e-9)
