"""The learned player's line estimates and its look at the next card, against plain Python.

- :mod:`numberup.evaluation.exact`'s exact estimates (value-count and colour-sum rules), every
  completion of a line laid in turn, and one more card of each value: every completion of the line by distinct cards of
  the pool, scored by the reference scorer (tests/oracles/reference.py).
- Stratified completions: their mean over many decisions is the exact mean, and they vary
  less than independent completions of the same number.
- :mod:`numberup.learned.lookahead`: the value-count shortcut gives the values of trying every next
  card on every cell, and both give what plain Python gives (tests/oracles/learned_reference.py) on
  late positions.
"""

import itertools
import math
import random

import numpy as np
import pytest

import oracles.learned_reference as REF
import oracles.reference as R

from numberup.evaluation import completions as CO
from numberup.evaluation import exact as EX
from numberup.learned import value as LE
from numberup.game import levels as L
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.evaluation.layout import DIST_HI, DIST_LO, N_STATS
from numberup.players.scratch import new_scratch
from numberup.game.state import new_state

EXACT_LEVELS = [n for n in range(1, 21) if EX.family(n) != EX.NONE]
VALUE_LEVELS = [n for n in range(1, 21) if EX.family(n) == EX.VALUES]
SAMPLED_LEVELS = [n for n in range(1, 21) if EX.family(n) == EX.NONE]
MAX_SUBSETS = 4000  # completions a brute-force check may enumerate


def _card(cid):
    return None if cid < 0 else (cid // 8 + 1, cid % 8)


def _contribution(level, cells):
    """What a full line adds, by the reference scorer: its value, or 10 x checkmarkers."""
    points, markers = R.ref_line(level, cells)
    if R.LEVELS[level].aggregation == "checks":
        return 10.0 * max(markers, 0), R.ref_value(points, markers)
    v = R.ref_value(points, markers)
    return float(v), v


def _brute_force(level, cells, pool):
    """Every completion of the line (``cells``: card ids, -1 empty) by distinct cards of
    ``pool``: (contributions, values), one of each per completion (order does not matter to
    these checks: each subset is laid on the empty cells in every order)."""
    empty = [i for i, c in enumerate(cells) if c < 0]
    contributions, values = [], []
    for combo in itertools.permutations(pool, len(empty)):
        line = list(cells)
        for i, c in zip(empty, combo):
            line[i] = c
        c, v = _contribution(level, [_card(x) for x in line])
        contributions.append(c)
        values.append(v)
    return np.array(contributions), np.array(values)


def _expected_columns(level, cells, pool):
    """The columns of a line estimate (mean, variance, P(value >= bronze/silver/gold line
    target), P(value >= t)) over every completion."""
    p = L.PARAMS[level]
    c, v = _brute_force(level, cells, pool)
    cols = [c.mean(), c.var()] + [(v >= (p[q] + 9) // 10).mean()
                                  for q in (L.P_BRONZE, L.P_SILVER, L.P_GOLD)]
    dist = [(v >= t).mean() for t in range(DIST_LO + 1, DIST_HI + 1)]
    return np.array(cols), np.array(dist)


def _random_lines(level, rng, want, max_empty=None):
    """Positions of ``level``: (grid, line index, pool) with the line's completions few
    enough to enumerate; ``want`` of them. ``max_empty``: the line's empty cells at most."""
    lv = get_level(level)
    geo = geometry(lv.size)
    deck = [(v - 1) * 8 + c for v in range(1, lv.values + 1) for c in range(lv.colours)]
    out = []
    while len(out) < want:
        grid, _, pool = REF.random_grid(lv, rng, deck, min_pool=1)
        li = rng.randrange(int(L.PARAMS[level][L.P_NLINES]))
        e = sum(grid[c] < 0 for c in geo.lines[li][:lv.size])
        if max_empty is not None and e > max_empty:
            continue
        if e > len(pool) or math.perm(len(pool), e) > MAX_SUBSETS:
            continue
        out.append((grid, li, list(pool)))
    return out


def _scratch(level):
    lv = get_level(level)
    return lv, L.PARAMS[level], geometry(lv.size), new_state(lv.cells), new_scratch(lv)


def _load(S, X, grid, pool):
    S.grid[:] = grid
    X.pool[:len(pool)] = pool
    return len(pool)


@pytest.mark.parametrize("level", EXACT_LEVELS, ids=[f"level-{n}" for n in EXACT_LEVELS])
def test_exact_estimate_is_every_completion(level):
    lv, p, geo, S, X = _scratch(level)
    for grid, li, pool in _random_lines(level, random.Random(level), 40):
        n_pool = _load(S, X, grid, pool)
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
    lv, p, geo, S, X = _scratch(level)
    rng = random.Random(100 + level)
    checked = 0
    for grid, li, pool in _random_lines(level, rng, 30):
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if -1 not in cells:
            continue
        n_pool = _load(S, X, grid, pool)
        EX._exact_prepare(p, X.exact, X.pool, n_pool)
        EX._exact_line_plus(p, geo, S, X.exact, li, n_pool, X.plus)
        used = set(int(c) for c in grid if c >= 0) | set(pool)
        for v in range(lv.values):
            spare = [v * 8 + c for c in range(lv.colours) if v * 8 + c not in used]
            if not spare:  # every card of the value is on the grid or in the pool
                continue
            line = list(cells)
            line[line.index(-1)] = spare[0]
            want = _brute_force(level, line, pool)[0].mean()
            assert X.plus[v] == pytest.approx(want, abs=1e-9), (cells, v, pool)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_every_completion_is_every_completion(level):
    lv, p, geo, S, X = _scratch(level)
    for grid, li, pool in _random_lines(level, random.Random(200 + level), 15):
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        if -1 not in cells:
            continue
        n_pool = _load(S, X, grid, pool)
        CO._every_completion(p, geo, S, X, li, n_pool)
        assert (S.grid == grid).all()
        cols, dist = _expected_columns(level, cells, pool)
        assert np.allclose(X.line_eval[li, :N_STATS], cols, atol=1e-9)
        if p[L.P_AGG] == L.AGG_MIN_X10:
            assert np.allclose(X.line_eval[li, N_STATS:N_STATS + len(dist)], dist, atol=1e-9)


@pytest.mark.parametrize("level", SAMPLED_LEVELS, ids=[f"level-{n}" for n in SAMPLED_LEVELS])
def test_stratified_completions_are_unbiased_and_steadier(level):
    from numberup.evaluation.sampled import _estimate_line

    lv, p, geo, S, X = _scratch(level)
    rng = random.Random(300 + level)
    k, decisions = 16, 300
    lines = [(grid, li, pool) for grid, li, pool in _random_lines(level, rng, 40)
             if sum(int(grid[c]) < 0 for c in geo.lines[li][:lv.size]) >= 2][:6]
    assert lines
    var_strata = var_plain = 0.0
    for grid, li, pool in lines:
        n_pool = _load(S, X, grid, pool)
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        exact = _brute_force(level, cells, pool)[0]
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


@pytest.mark.parametrize("level", VALUE_LEVELS, ids=[f"level-{n}" for n in VALUE_LEVELS])
def test_predictions_ahead_are_line_predictions(level):
    from numberup.learned.lookahead import _line_ahead

    lv, p, geo, S, X = _scratch(level)
    rng = random.Random(400 + level)
    W = np.array([rng.uniform(-3, 3) for _ in range(LE.model_size(level))])
    X = X._replace(learned=W)
    for grid, li, pool in _random_lines(level, rng, 30):
        n_pool = _load(S, X, grid, pool)
        EX._exact_prepare(p, X.exact, X.pool, n_pool)
        for v in range(8):
            X.values_left[v] = sum(c // 8 == v for c in pool)
        filled = int((grid >= 0).sum()) + 2
        X.ahead_n[0] = 0
        _line_ahead(p, geo, S, X, li, filled, X.ahead[0, li], X.ahead[1, li], n_pool)
        cells = [int(grid[c]) for c in geo.lines[li][:lv.size]]
        for v in range(lv.values):
            if X.exact.counts[v] == 0:
                continue
            left = list(pool)
            left.remove(next(c for c in pool if c // 8 == v))
            base = REF_mean(level, cells, pool)
            idx = REF.line_features(p, cells, filled, left, base)
            want = base + sum(W[i] for i in idx) if idx else REF.line_contribution(lv, cells)
            assert X.ahead[0, li, v] == pytest.approx(want, abs=1e-9)
            if -1 in cells:
                line = list(cells)
                line[line.index(-1)] = v * 8
                base = REF_mean(level, line, pool)
                idx = REF.line_features(p, line, filled, left, base)
                want = base + sum(W[i] for i in idx) if idx else base
                assert X.ahead[1, li, v] == pytest.approx(want, abs=1e-9)


def REF_mean(level, cells, pool):
    """The mean contribution of a line's completions from ``pool`` (repeats of a card on the
    line allowed, as the searchers' pools hold the card being tried: value-count rules read
    values only, so a repeat is scored as another card of its value)."""
    lv = R.LEVELS[level]
    empty = [i for i, c in enumerate(cells) if c < 0]
    total, count = 0.0, 0
    for combo in itertools.combinations(pool, len(empty)):
        line = list(cells)
        for i, c in zip(empty, combo):
            line[i] = c
        cards, seen = [], set()
        for c in line:  # a repeat takes a colour of its value not on the line
            value, colour = c // 8 + 1, c % 8
            while (value, colour) in seen:
                colour = (colour + 1) % lv.colours
            seen.add((value, colour))
            cards.append((value, colour))
        total += _contribution(level, cards)[0]
        count += 1
    return total / count


def _learned_positions(level, games):
    """Every decision of ``games`` games of the learned player (one move deep), with its
    one-move values: (S, X, cand, n_cand, may_discard, rng state) at each, in turn."""
    from numberup.game.engine import (
        _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard,
    )
    from numberup.players.registry import parse_player
    from numberup.players.learned import kernel_for

    lv, p, geo, S, _ = _scratch(level)
    player = parse_player("learned:depth=1")
    X = new_scratch(lv, player)
    one_move = kernel_for(False, 1)
    deck = np.zeros(lv.deck_size, np.int8)
    for g in range(games):
        _deal(p, geo, S, deck, np.uint64(11), g, False)
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            cand = X.cand[0].copy()
            n_cand = _candidates(geo, S, cand)
            md = _may_discard(p, geo, S)
            rng = S.rng.copy()

            def decide():  # the one-move decision again, as it was
                S.rng[:] = rng
                return one_move(p, geo, S, X, cand.copy(), n_cand, md, player.params)

            slot, cell = decide()
            yield S, X, cand, n_cand, md, decide
            decide()
            _apply_inline(p, geo, S, slot, cell)


@pytest.mark.parametrize("level", VALUE_LEVELS, ids=[f"level-{n}" for n in VALUE_LEVELS])
def test_the_value_count_look_is_every_card_on_every_cell(level):
    from numberup.learned.lookahead import _card_by_card, _values_lookahead

    p = L.PARAMS[level]
    geo = geometry(get_level(level).size)
    count = 0
    for S, X, cand, n_cand, md, decide in _learned_positions(level, 3):
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, True)
        slow = X.values[:n_cand, 0].copy()
        grid = S.grid.copy()
        decide()
        _values_lookahead(p, geo, S, X, cand.copy(), n_cand, n_cand)
        assert np.allclose(X.values[:n_cand, 0], slow, atol=1e-9)
        assert (S.grid == grid).all()
        count += 1
    assert count > 50


def _frontier(n, grid):
    """The cells on offer once the setup is over: empty, next to a card."""
    out = []
    for cell in range(n * n):
        if grid[cell] >= 0:
            continue
        r, c = divmod(cell, n)
        near = [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < n and 0 <= c + dc < n]
        if any(grid[x] >= 0 for x in near):
            out.append(cell)
    return out


def _python_look(level, grid, card, unseen, W):
    """Each action's value one card further, in plain Python: for the card placed on a cell
    on offer, the mean over the next card (each unseen card alike) of the best learned value
    (tests/oracles/learned_reference.py) after it is placed too, every line's base the exact mean of
    its completions from the cards to come (``unseen``; enumerated, scored by the package)."""
    from numberup.game.scorecard import score_line

    lv = get_level(level)
    p = L.PARAMS[level]
    lines = geometry(lv.size).lines[: int(p[L.P_NLINES]), : lv.size]

    def base(g, li):
        cells = [int(g[c]) for c in lines[li]]
        empty = [i for i, c in enumerate(cells) if c < 0]
        if not empty:
            return REF.line_contribution(lv, cells)
        vals = []
        for combo in itertools.combinations(unseen, len(empty)):
            line = list(cells)
            for i, c in zip(empty, combo):
                line[i] = c
            vals.append(float(score_line(lv, line).value))
        return float(np.mean(vals))

    values = {}
    for a in _frontier(lv.size, grid):
        g2 = grid.copy()
        g2[a] = card
        total = 0.0
        for nxt in unseen:
            left = [c for c in unseen if c != nxt]
            best = -1e300
            for x in _frontier(lv.size, g2):
                g3 = g2.copy()
                g3[x] = nxt
                bases = [base(g3, li) for li in range(len(lines))]
                best = max(best, REF.afterstate_value(lv, p, lines, g3, int((g3 >= 0).sum()),
                                                      left, bases, W))
            total += best
        values[a] = total / len(unseen)
    return values


@pytest.mark.parametrize("level", [1, 6], ids=["level-1", "level-6"])
def test_the_look_at_the_next_card_matches_python(level):
    from numberup.learned.lookahead import _card_by_card

    p = L.PARAMS[level]
    lv = get_level(level)
    geo = geometry(lv.size)
    checked = 0
    for S, X, cand, n_cand, md, decide in _learned_positions(level, 2):
        if lv.cells - int(S.ints[4]) > 4 or n_cand < 2:  # late positions: few cards to enumerate
            continue
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, True)
        unseen = [int(c) for c in S.unseen[:S.ints[1]]]
        want = _python_look(level, S.grid.copy(), int(S.hand[0]), unseen, X.learned)
        for j in range(n_cand):
            assert X.values[j, 0] == pytest.approx(want[int(cand[j])], abs=1e-6)
        checked += 1
    assert checked >= 3
