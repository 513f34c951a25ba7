"""The campaign's arithmetic (numberup.analysis.campaign): best-of-K, chapter totals and
booklet odds.

It is checked on constructed samples with known answers and against a brute-force enumeration
of every K-tuple of games (exact fractions) on small samples; the command:
tests/cli/test_campaign_command.py.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberup.analysis.campaign import (
    Pmf, best_of_k_pmf, campaign, chapter_odds, chapter_total_pmf, empirical_pmf,
    expected_attempts, level_odds, level_samples, sum_pmf,
)
from numberup.game.levels import CHAPTERS, LEVELS
from numberup.stats import summarize


def approx_dict(d: dict, **kw):
    return {k: pytest.approx(v, **kw) for k, v in d.items()}


# -------------------------------------------------------------------------------------------
# known answers


@pytest.mark.parametrize("k", [1, 2, 3, 10])
def test_constant_level_best_is_the_constant(k):
    assert best_of_k_pmf(np.full(7, 50), k).as_dict() == {50: pytest.approx(1.0)}


def test_two_levels_zero_or_ten_one_attempt():
    level = np.array([0, 10])
    total = sum_pmf([best_of_k_pmf(level, 1)] * 2)
    assert total.as_dict() == approx_dict({0: 0.25, 10: 0.5, 20: 0.25})
    assert total.at_least(10) == pytest.approx(0.75)
    assert total.at_least(11) == pytest.approx(0.25)
    assert total.at_least(-5) == 1.0 and total.at_least(21) == 0.0


def test_best_of_two_zero_or_ten():
    assert best_of_k_pmf([0, 10], 2).as_dict() == approx_dict({0: 0.25, 10: 0.75})
    assert best_of_k_pmf([0, 10, 10, 0], 2).as_dict() == approx_dict({0: 0.25, 10: 0.75})


def test_best_of_k_is_the_kth_power_of_the_cdf():
    scores = np.array([3, 5, 5, 9, 12])
    for k in (1, 2, 5):
        pmf = best_of_k_pmf(scores, k)
        for x in range(0, 14):
            assert pmf.p[pmf.values <= x].sum() == pytest.approx(np.mean(scores <= x) ** k)


def test_floor_counts_lost_games_as_zero():
    # a level whose games are lost (result <= 0) adds 0: lost results are not entered
    assert best_of_k_pmf([-10, -20], 3, floor=0).as_dict() == {0: pytest.approx(1.0)}
    assert best_of_k_pmf([-10, 30], 1, floor=0).as_dict() == approx_dict({0: 0.5, 30: 0.5})
    assert best_of_k_pmf([-10, 30], 1).as_dict() == approx_dict({-10: 0.5, 30: 0.5})
    total = chapter_total_pmf([[-10, 30], [-20]], 1)  # the default floor is 0
    assert total.as_dict() == approx_dict({0: 0.5, 30: 0.5})


def test_empirical_pmf_and_mean():
    pmf = empirical_pmf([1, 3, 3, 7])
    assert pmf.lo == 1 and len(pmf.p) == 7
    assert pmf.as_dict() == approx_dict({1: 0.25, 3: 0.5, 7: 0.25})
    assert pmf.mean() == pytest.approx(3.5)
    assert sum_pmf([]).as_dict() == {0: 1.0}


def test_expected_attempts():
    assert expected_attempts(0.25) == pytest.approx(4.0)
    assert expected_attempts(1.0) == 1.0
    assert math.isinf(expected_attempts(0.0))


def test_level_odds_agree_with_summarize():
    rng = np.random.default_rng(5)
    scores = rng.integers(-20, 120, 500)
    medals = (60, 80, 100)
    odds = level_odds(scores, medals, 3)
    summary = summarize(scores, medals)
    for m in ("bronze", "silver", "gold"):
        assert odds[f"p_{m}"] == summary[f"p_{m}"]
    assert odds["expected_attempts_gold"] == pytest.approx(1 / summary["p_gold"])
    assert odds["p_gold_in_attempts"] == pytest.approx(1 - (1 - summary["p_gold"]) ** 3)
    assert odds["mean_best"] == pytest.approx(best_of_k_pmf(scores, 3, floor=0).mean())


@pytest.mark.parametrize("bad", [[], np.zeros((2, 2)), [1.5, 2.0]])
def test_bad_samples_raise(bad):
    with pytest.raises(ValueError):
        best_of_k_pmf(bad, 1)


@pytest.mark.parametrize("k", [0, -1, 1.5])
def test_bad_attempts_raise(k):
    with pytest.raises(ValueError):
        best_of_k_pmf([1, 2], k)


# -------------------------------------------------------------------------------------------
# brute force: every K-tuple of sampled games, every combination of levels, exact fractions


def brute_chapter(samples, k, floor=0) -> dict[int, Fraction]:
    """The exact distribution of sum over levels of max(floor, best of k draws)."""
    per_level = []
    for s in samples:
        c = Counter()
        for pick in itertools.product(s, repeat=k):  # k draws with replacement, all equally likely
            c[max(floor, max(pick)) if floor is not None else max(pick)] += 1
        n = len(s) ** k
        per_level.append({v: Fraction(m, n) for v, m in c.items()})
    total = Counter({0: Fraction(1)})
    for dist in per_level:
        nxt = Counter()
        for a, pa in total.items():
            for b, pb in dist.items():
                nxt[a + b] += pa * pb
        total = nxt
    return dict(total)


small_samples = st.lists(st.integers(-15, 40), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(small_samples, min_size=1, max_size=3), st.integers(1, 3),
       st.sampled_from([None, 0]))
def test_chapter_total_equals_enumeration(samples, k, floor):
    want = brute_chapter(samples, k, floor)
    got = chapter_total_pmf(samples, k, floor=floor).as_dict()
    assert set(got) == {v for v, p in want.items() if p > 0}
    for v, p in want.items():
        assert got[v] == pytest.approx(float(p), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(small_samples, min_size=2, max_size=3), st.integers(1, 3),
       st.lists(st.integers(-10, 100), min_size=3, max_size=3).map(sorted))
def test_chapter_odds_equal_enumeration(samples, k, medals):
    want = brute_chapter(samples, k)
    odds = chapter_odds(samples, medals, k)
    for name, t in zip(("bronze", "silver", "gold"), medals):
        exact = sum((p for v, p in want.items() if v >= t), Fraction(0))
        assert odds[f"p_{name}"] == pytest.approx(float(exact), abs=1e-12)
    assert odds["mean_total"] == pytest.approx(float(sum(v * p for v, p in want.items())))


def test_pmf_at_least_on_the_support_edges():
    pmf = Pmf(5, np.array([0.5, 0.0, 0.5]))
    assert [pmf.at_least(x) for x in (4, 5, 6, 7, 8)] == [1.0, 1.0, 0.5, 0.5, 0.0]


# -------------------------------------------------------------------------------------------
# the whole booklet


def synthetic_samples(rng, missing=()):
    return {lv.number: rng.integers(0, 2 * lv.medals[2], 40)
            for lv in LEVELS if lv.number not in missing}


def test_campaign_structure_and_booklet_product():
    samples = synthetic_samples(np.random.default_rng(1))
    out = campaign(samples, 2)
    assert out["attempts"] == 2 and out["games"] == 40
    assert [lv["level"] for lv in out["levels"]] == list(range(1, 21))
    assert [c["chapter"] for c in out["chapters"]] == [1, 2, 3, 4]
    for ch, entry in zip(CHAPTERS, out["chapters"]):
        assert entry["name"] == ch.name
        want = chapter_odds([samples[n] for n in ch.levels], ch.medals, 2)
        for m in ("bronze", "silver", "gold"):
            assert entry[f"p_{m}"] == pytest.approx(want[f"p_{m}"])
    for m in ("bronze", "silver", "gold"):
        want = math.prod(c[f"p_{m}"] for c in out["chapters"])
        assert out["booklet"][f"p_{m}"] == pytest.approx(want)


def test_campaign_with_a_missing_level():
    out = campaign(synthetic_samples(np.random.default_rng(2), missing=(7,)), 1)
    ch2 = out["chapters"][1]
    assert ch2["missing"] == [7] and ch2["p_gold"] is None
    assert out["chapters"][0]["p_gold"] is not None
    assert out["booklet"]["p_bronze"] is None
    assert len(out["levels"]) == 19


def test_never_gold():
    samples = synthetic_samples(np.random.default_rng(3))
    samples[19] = np.full(10, 5)  # below bronze 90, never gold
    lv19 = campaign(samples, 3)["levels"][18]
    assert lv19["p_gold"] == 0 and math.isinf(lv19["expected_attempts_gold"])


def test_level_samples_picks_the_player():
    import pandas as pd

    games = pd.DataFrame({"level": [1, 1, 2, 1], "policy": ["a", "b", "a", "a"],
                          "score": [10, 20, 30, 40]})
    got = level_samples(games, "a")
    assert list(got) == [1, 2]
    assert got[1].tolist() == [10, 40] and got[2].tolist() == [30]
