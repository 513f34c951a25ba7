"""The searchers' limits: completions numbered apart for every k up to its maximum, the normal
approximation's continuity correction on levels whose results step by 10, and parameter
maxima that fail with a one-line error instead of running for hours."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oracles.cli_checks import assert_one_line_error, run_main
from numberup.game import levels as L
from numberup.errors import InputError
from numberup.game.levels import get_level
from numberup.players.registry import parse_player
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


@pytest.mark.parametrize("spec, name", [
    ("expectimax:k=4097", "k"), ("expectimax:k=99999999999", "k"),
    ("expectimax:sample=49", "sample"), ("rollout:n=100001", "n"),
])
def test_parameter_maxima(spec, name, capsys):
    with pytest.raises(InputError, match=f"{name}=.* is above its maximum"):
        parse_player(spec)
    code, out, err = run_main(["simulate", "--level", "14", "--games", "10", "--policy", spec],
                              capsys)
    assert_one_line_error(code, out, err, must_name=[f"{name}="])
