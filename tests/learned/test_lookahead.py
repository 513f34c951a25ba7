"""The learned player's look at the next card (numberup.learned.lookahead), against plain
Python: the predictions ahead are line predictions (tests/oracles/learned_reference.py), the
value-count shortcut gives the values of trying every next card on every cell, and both give
what plain Python gives on late positions, over every next card or over the sample of them
``sample=S`` draws (the same for every action; a sample of all of them, or on a value-count
rule, is the whole look)."""

import itertools
import random

import numpy as np
import pytest

import oracles.learned_reference as REF
import oracles.line_completions as LC

from numberup.evaluation import exact as EX
from numberup.game import levels as L
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.learned import value as LE
from numberup.players.scratch import new_scratch
from numberup.learned.modelfile import read_only

VALUE_LEVELS = [n for n in range(1, 21) if EX.family(n) == EX.VALUES]


@pytest.mark.parametrize("level", VALUE_LEVELS, ids=[f"level-{n}" for n in VALUE_LEVELS])
def test_predictions_ahead_are_line_predictions(level):
    from numberup.learned.lookahead import _line_ahead

    lv, p, geo, S, X = LC.scratch(level)
    rng = random.Random(400 + level)
    W = np.array([rng.uniform(-3, 3) for _ in range(LE.model_size(level))])
    X = X._replace(learned=read_only(W))
    for grid, li, pool in LC.random_lines(level, rng, 30):
        n_pool = LC.load(S, X, grid, pool)
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
            base = LC.mean_with_repeats(level, cells, pool)
            idx = REF.line_features(p, cells, filled, left, base)
            want = base + sum(W[i] for i in idx) if idx else REF.line_contribution(lv, cells)
            assert X.ahead[0, li, v] == pytest.approx(want, abs=1e-9)
            if -1 in cells:
                line = list(cells)
                line[line.index(-1)] = v * 8
                base = LC.mean_with_repeats(level, line, pool)
                idx = REF.line_features(p, line, filled, left, base)
                want = base + sum(W[i] for i in idx) if idx else base
                assert X.ahead[1, li, v] == pytest.approx(want, abs=1e-9)


def _learned_positions(level, games):
    """Every decision of ``games`` games of the learned player (one move deep), with its
    one-move values: (S, X, cand, n_cand, may_discard, rng state) at each, in turn."""
    from numberup.game.engine import (
        _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard,
    )
    from numberup.players.registry import parse_player
    from numberup.players.learned import kernel_for

    lv, p, geo, S, _ = LC.scratch(level)
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
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, 1, 0)
        slow = X.values[:n_cand, 0].copy()
        decide()
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, 1, 2)
        assert np.allclose(X.values[:n_cand, 0], slow, atol=1e-9)  # no sample by value
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


def _python_look(level, grid, card, unseen, W, nexts=None):
    """Each action's value one card further, in plain Python: for the card placed on a cell
    on offer, the mean over the next card (each unseen card alike, or each of ``nexts``) of
    the best learned value (tests/oracles/learned_reference.py) after it is placed too, every
    line's base the exact mean of its completions from the cards to come (``unseen``;
    enumerated, scored by the package)."""
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
        nexts = unseen if nexts is None else nexts
        for nxt in nexts:
            left = [c for c in unseen if c != nxt]
            best = -1e300
            for x in _frontier(lv.size, g2):
                g3 = g2.copy()
                g3[x] = nxt
                bases = [base(g3, li) for li in range(len(lines))]
                best = max(best, REF.afterstate_value(lv, p, lines, g3, int((g3 >= 0).sum()),
                                                      left, bases, W))
            total += best
        values[a] = total / len(nexts)
    return values


@pytest.mark.parametrize("level", [1, 6], ids=["level-1", "level-6"])
def test_the_look_at_the_next_card_matches_python(level):
    from numberup.learned.lookahead import _card_by_card

    p = L.PARAMS[level]
    lv = get_level(level)
    geo = geometry(lv.size)
    checked = sampled = 0
    for S, X, cand, n_cand, md, decide in _learned_positions(level, 2):
        if lv.cells - int(S.ints[4]) > 4 or n_cand < 2:  # late positions: few cards to enumerate
            continue
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, 1, 0)
        unseen = [int(c) for c in S.unseen[:S.ints[1]]]
        want = _python_look(level, S.grid.copy(), int(S.hand[0]), unseen, X.learned)
        for j in range(n_cand):
            assert X.values[j, 0] == pytest.approx(want[int(cand[j])], abs=1e-6)
        whole = X.values[:n_cand, 0].copy()
        decide()
        _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, 1, len(unseen))
        assert np.allclose(X.values[:n_cand, 0], whole, atol=1e-9)  # a sample of all: the look
        if level not in VALUE_LEVELS and len(unseen) > 2:
            decide()
            rng = S.rng.copy()
            _card_by_card(p, geo, S, X, cand.copy(), n_cand, md, 0, n_cand, 64, 1, 2)
            assert not np.array_equal(S.rng, rng)  # the sample comes from the player's stream
            nexts = [int(c) for c in X.draws[:2]]
            assert len(set(nexts)) == 2 and set(nexts) <= set(unseen)
            want = _python_look(level, S.grid.copy(), int(S.hand[0]), unseen, X.learned, nexts)
            for j in range(n_cand):
                assert X.values[j, 0] == pytest.approx(want[int(cand[j])], abs=1e-6)
            sampled += 1
        checked += 1
    assert checked >= 3
    assert sampled >= 3 or level in VALUE_LEVELS
