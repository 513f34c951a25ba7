"""The street chain of :mod:`numberup.evaluation.streets` (levels 18-20), against plain Python.

- The kernel's line estimate equals the chain's law worked out by hand: every way of filling
  the line's empty cells with cards of the pool, each weighed by the chain's probabilities
  (1/n of the pool's n cards, or 1/(n - 1) and never the same card right after another empty
  cell), every filled line scored by the reference scorer (tests/oracles/reference.py).
- It is close to the completions' own expectation (distinct cards): on lines with a pool of
  12 or more cards, its mean within half a point of every completion's.
- ``learned:exact=2`` plays the chain only on the neighbouring-street rule: elsewhere its
  games are ``exact=1``'s.
"""

import itertools
import random

import numpy as np
import pytest

import oracles.line_completions as LC
import oracles.reference as R

from numberup.evaluation import streets as ST
from numberup.evaluation.layout import DIST_HI, DIST_LO, N_STATS
from numberup.game import levels as L

STREET_RUN_LEVELS = [n for n in range(1, 21) if L.PARAMS[n][L.P_RULE] == L.RULE_STREET_RUN]


def chain_law(level, cells, pool):
    """(values, probabilities): every filling of the line's empty cells by the chain."""
    empty = [i for i, c in enumerate(cells) if c < 0]
    n = len(pool)
    values, probs = [], []
    for combo in itertools.product(pool, repeat=len(empty)):
        line = list(cells)
        for i, c in zip(empty, combo):
            line[i] = c
        w = 1.0
        for i in empty:
            if i > 0 and cells[i - 1] < 0:  # after an empty cell: any card but the one just laid
                w *= 0.0 if line[i] == line[i - 1] else 1.0 / (n - 1)
            else:
                w *= 1.0 / n
        if w > 0.0:
            points, markers = R._street_line(level, [LC.card(x) for x in line])  # repeats allowed
            values.append(R.ref_value(points, markers))
            probs.append(w)
    return np.array(values), np.array(probs)


def _columns(p, values, probs):
    mean = (values * probs).sum()
    cols = [mean, (values ** 2 * probs).sum() - mean ** 2]
    cols += [probs[values >= (p[q] + 9) // 10].sum() for q in (L.P_BRONZE, L.P_SILVER, L.P_GOLD)]
    dist = [probs[values >= t].sum() for t in range(DIST_LO + 1, DIST_HI + 1)]
    return np.array(cols), np.array(dist)


@pytest.mark.parametrize("level", STREET_RUN_LEVELS, ids=[f"level-{n}" for n in STREET_RUN_LEVELS])
def test_chain_is_its_law_by_hand(level):
    lv, p, geo, S, X = LC.scratch(level)
    checked = 0
    for grid, li, pool in LC.random_lines(level, random.Random(300 + level), 60):
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if -1 not in cells or len(pool) < 2:
            continue
        n_pool = LC.load(S, X, grid, pool)
        X.line_eval[li] = -1.0
        ST._street_chain_line(p, geo, S, X.streets, X.line_eval, li, X.pool, n_pool)
        values, probs = chain_law(level, cells, pool)
        assert probs.sum() == pytest.approx(1.0)
        cols, dist = _columns(p, values, probs)
        assert np.allclose(X.line_eval[li, :N_STATS], cols, atol=1e-9), (cells, pool)
        if p[L.P_AGG] == L.AGG_MIN_X10:
            assert np.allclose(X.line_eval[li, N_STATS:N_STATS + len(dist)], dist, atol=1e-9)
        assert (S.grid == grid).all()  # the grid is left as it was
        checked += 1
    assert checked > 30
    # the working arrays are left clear for the next line
    assert not X.streets.mass.any() and not X.streets.weight.any()
    assert not X.streets.by_card.any()


@pytest.mark.parametrize("level", STREET_RUN_LEVELS, ids=[f"level-{n}" for n in STREET_RUN_LEVELS])
def test_chain_is_close_to_the_completions(level):
    """On pools of 12 cards or more the chain's mean is within half a point of the mean of
    the completions by distinct cards (every one of them, for lines of up to 3 empty cells)."""
    lv, p, geo, S, X = LC.scratch(level)
    rng = random.Random(500 + level)
    deck = [(v - 1) * 8 + c for v in range(1, lv.values + 1) for c in range(lv.colours)]
    checked = 0
    while checked < 15:
        rng.shuffle(deck)
        grid = np.full(lv.cells, -1, np.int8)
        filled = rng.randrange(lv.cells - 12)
        for cell, c in zip(rng.sample(range(lv.cells), filled), deck):
            grid[cell] = c
        pool = deck[filled:filled + rng.randrange(12, 16)]
        li = rng.randrange(int(p[L.P_NLINES]))
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if not 2 <= cells.count(-1) <= 3:
            continue
        n_pool = LC.load(S, X, grid, pool)
        ST._street_chain_line(p, geo, S, X.streets, X.line_eval, li, X.pool, n_pool)
        contributions, _ = LC.brute_force(level, cells, pool)
        assert abs(X.line_eval[li, 0] - contributions.mean()) < 0.5, (cells, pool)
        checked += 1


def test_line_values_are_every_street_value():
    # level 18: 1-5 on 5 cells; 19: 1-5 on 6 cells (a street of 5 at most); 20: 1-6 on 6, the
    # 5-6 (11) a checkmarker
    assert ST.line_values(18) == [-10, 3, 5, 7, 9, 10, 20, 30]
    assert ST.line_values(19) == [-10, 3, 5, 7, 9, 10, 20, 30]
    assert ST.line_values(20) == [-10, 3, 5, 7, 9, 10, 20, 30, 40]
    lv = L.LEVELS[0]
    assert ST.new_streets(lv).mass.size == 0  # sized on the neighbouring-street rule only


@pytest.mark.parametrize("level", [16, 20])
def test_exact_2_plays_the_chain_on_its_rule_only(level):
    """``learned:exact=2`` plays ``exact=1``'s games on a rule without the chain (level 16:
    streets anywhere in the line), and other games where the chain judges the lines (20)."""
    from numberup.game.levels import get_level
    from numberup.players.registry import parse_player
    from numberup.runs.simulate import run

    lv = get_level(level)
    one = run(lv, parse_player("learned:objective=gold"), 6, seed=11, jobs=1).all_scores
    two = run(lv, parse_player("learned:objective=gold,exact=2"), 6, seed=11, jobs=1).all_scores
    assert (one.tolist() == two.tolist()) == (level not in STREET_RUN_LEVELS)
