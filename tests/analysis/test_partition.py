"""The partition LP bound (numberup.analysis.partition): its pricing against a plain-Python
enumeration, its LP against brute force on tiny grids (every split, every arrangement), and
on real deals between the best game found and the older bound."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from numberup.analysis import bounds, partition as P
from numberup.analysis.hindsight import search
from numberup.game import levels as L
from numberup.game.cards import deal
from numberup.game.levels import get_level
from numberup.game.scoring import _line_score, _line_value


def _mode(lv):
    return P.MODE_MARKERS if lv.aggregation == L.AGG_MARKERS_X10 else P.MODE_VALUE


def _small(level, n):
    """The level's relaxed row and true row, shrunk to lines of ``n`` cards."""
    lv = get_level(level)
    p, q = bounds.relaxed_params(lv), L.PARAMS[lv.number].copy()
    p[L.P_SIZE] = q[L.P_SIZE] = n
    return lv, p, q


def _value(p, cards, mode, cap=P.NO_CAP):
    grid = np.full(8, -1, np.int8)
    grid[: len(cards)] = cards
    return P._pattern_value.py_func(p, grid, P._LINE, len(cards), mode, cap)


@pytest.mark.parametrize("level", [12, 14, 15, 16, 19])
def test_pricing_equals_the_reference(level):
    lv, p, _ = _small(level, 3)
    rng = np.random.default_rng(level)
    deck = deal(level, 7, 0)
    for trial in range(4):
        cards = np.sort(rng.choice(deck, size=9, replace=False)).astype(np.int8)
        cost = np.sort(rng.normal(0, 4, size=9))
        pair = rng.exponential(2.0, size=(9, 9)) * (rng.random((9, 9)) < 0.4)
        pair = np.triu(pair, 1)
        pair = pair + pair.T
        out_rc, out_idx = np.zeros(5), np.zeros((5, 3), np.int64)
        kept = P._price(p, P._LINE, cards, cost, pair, 3, _mode(lv), P.NO_CAP, 40.0, -1e9,
                        out_rc, out_idx)
        ref = P.price_reference(p, cards, cost, pair, 3, _mode(lv))
        assert kept == 5
        assert max(out_rc) == pytest.approx(ref)
        for s in range(kept):  # each kept pattern's reduced cost is its own
            combo = out_idx[s]
            rc = (_value(p, cards[combo], _mode(lv)) - cost[combo].sum()
                  - sum(pair[a, b] for a, b in itertools.combinations(combo, 2)))
            assert out_rc[s] == pytest.approx(rc)


def _splits(items, n):
    """Every split of ``items`` into groups of ``n`` (as tuples of sorted tuples)."""
    if not items:
        yield ()
        return
    first, rest = items[0], items[1:]
    for others in itertools.combinations(rest, n - 1):
        group = (first,) + others
        left = [x for x in rest if x not in others]
        for tail in _splits(left, n):
            yield (group,) + tail


def _pairs(split):
    return {pr for g in split for pr in itertools.combinations(sorted(g), 2)}


def _relaxed_best(p, pool, n, mode, forced):
    """Brute force of the relaxation: n*n pool cards (the forced among them), a row split and
    a column split sharing no pair of cards."""
    best = -np.inf
    for chosen in itertools.combinations(range(len(pool)), n * n):
        if not all(i in chosen for i in np.flatnonzero(forced)):
            continue
        splits = list(_splits(list(chosen), n))
        vals = [sum(_value(p, pool[list(g)], mode) for g in s) for s in splits]
        prs = [_pairs(s) for s in splits]
        for a in range(len(splits)):
            for b in range(len(splits)):
                if not prs[a] & prs[b]:
                    best = max(best, vals[a] + vals[b])
    return best


def _grid_lines(n):
    """Rows then columns of an n x n grid, padded with cell n*n (kept empty) to 6 cells."""
    idx = np.arange(n * n).reshape(n, n)
    lines = np.full((2 * n, 6), n * n, np.int64)
    for k in range(n):
        lines[k, :n], lines[n + k, :n] = idx[k], idx[:, k]
    return lines


def _games_best(q, pool, n, lv, forced):
    """The best result of every arrangement of pool cards on the n x n cells (true rules)."""
    lines = _grid_lines(n)
    grid = np.full(n * n + 1, -1, np.int8)
    best = -np.inf
    for cells in itertools.permutations(range(len(pool)), n * n):
        if not all(i in cells for i in np.flatnonzero(forced)):
            continue
        grid[: n * n] = pool[list(cells)]
        vals, marks = [], []
        for li in range(2 * n):
            points, markers = _line_score.py_func(q, grid, lines, li, n)
            vals.append(_line_value.py_func(points, markers))
            marks.append(max(markers, 0))
        if lv.aggregation == L.AGG_MARKERS_X10:
            best = max(best, 10 * sum(marks))
        elif lv.aggregation == L.AGG_MIN_X10:
            best = max(best, 10 * min(vals))
        else:
            best = max(best, sum(vals))
    return best


@pytest.mark.parametrize("level,seed", [(14, 1), (16, 2), (18, 3), (12, 4), (15, 5), (17, 6)])
def test_lp_is_above_the_relaxation_and_every_game_on_a_tiny_grid(level, seed):
    lv, p, q = _small(level, 2)
    rng = np.random.default_rng(seed)
    # a small pool rich in one colour, so that lines score
    deck = np.sort(deal(level, 3, 0)).astype(np.int8)
    colour = deck[deck % 8 == seed % lv.colours]
    other = rng.choice(deck[deck % 8 != seed % lv.colours], size=2, replace=False)
    pool = np.sort(np.concatenate([colour[:4], other])).astype(np.int8)
    forced = np.zeros(len(pool), bool)
    forced[0] = True
    mode = _mode(lv)
    vmax = max(_value(p, pool[list(c)], mode) for c in itertools.combinations(range(6), 2))
    ub, _, converged = P.lp_bound(p, 2, pool, forced, False, mode, P.NO_CAP, vmax,
                                  time.perf_counter() + 10)
    assert converged
    relaxed = _relaxed_best(p, pool, 2, mode, forced)
    assert ub >= relaxed - 1e-6
    if lv.aggregation != L.AGG_MIN_X10:
        assert ub >= _games_best(q, pool, 2, lv, forced) - 1e-6
    # the LP without the pair rows is twice the row LP: never tighter
    ub2, _, _ = P.lp_bound(p, 2, pool, forced, False, mode, P.NO_CAP, vmax,
                           time.perf_counter() + 10, pairs=False)
    assert ub2 >= ub - 1e-6


def test_a_3x3_exact_pool():
    lv, p, q = _small(16, 3)
    pool = np.array(sorted([0, 8, 16, 1, 9, 17, 2, 10, 24]), np.int8)  # values 1-3 (4), colours
    forced = np.zeros(9, bool)
    mode = _mode(lv)
    ub, _, converged = P.lp_bound(p, 3, pool, forced, True, mode, P.NO_CAP, 30,
                                  time.perf_counter() + 10)
    assert converged
    assert ub >= _relaxed_best(p, pool, 3, mode, forced) - 1e-6


@pytest.mark.parametrize("level", [12, 14, 15, 16, 17, 18, 19, 20])
def test_real_deals_between_found_and_the_line_cap(level):
    seconds = 0.5 if get_level(level).size == 6 else 2.0
    for game in range(2):
        deck = deal(level, 2026, game)
        b = P.partition_bound(level, deck, seconds=seconds)
        assert b is not None
        assert search(level, deck)[0] <= b <= bounds.bound(level, deck)


def test_stopping_early_stays_proven():
    deck = deal(14, 2026, 0)
    full = P.partition_bound(14, deck)
    early = [P.partition_bound(14, deck, max_passes=k) for k in (1, 2, 4)]
    assert all(e >= full for e in early)
    assert full >= search(14, deck)[0]


def test_levels_without_a_sum_of_lines():
    assert P.partition_bound(3, deal(3, 1, 0), seconds=0.5) is not None  # min: diagonals ignored
