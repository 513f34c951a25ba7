"""The learned evaluation (numberup.learned.features, numberup.learned.value): its kernels
against plain Python (tests/oracles/learned_reference.py): the features of every line, the
value of an afterstate, the lines a move touches predicted again, and the medal odds.
Training: tests/training/test_train.py."""

import random

import numpy as np
import pytest

import oracles.learned_reference as REF

from numberup.learned import features as F
from numberup.learned import value as LE
from numberup.game import levels as L
from numberup.game.levels import get_level


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_feature_and_value_kernels_match_python(level):
    from numberup.game.grid import geometry
    from numberup.players.scratch import new_scratch
    from numberup.game.state import I_FILLED, I_HAND, I_UNSEEN, new_state

    lv = get_level(level)
    p = L.PARAMS[level]
    geo = geometry(lv.size)
    rng = random.Random(level)
    weights = np.array([rng.uniform(-5, 5) for _ in range(LE.model_size(level))])
    S, X = new_state(lv.cells), new_scratch(lv, weights=weights)
    out = np.zeros(F.MAX_FEATURES, np.int64)
    for _ in range(60):
        grid, filled, rest = REF.random_grid(lv, rng)
        # on levels with a hand, the last of the cards still to come are in it
        n_hand = rng.randrange(min(lv.hand, len(rest)) + 1) if lv.hand else 0
        hand = rest[len(rest) - n_hand:]
        S.grid[:] = grid
        S.ints[I_FILLED] = filled
        S.ints[I_UNSEEN] = len(rest) - n_hand
        S.unseen[: len(rest) - n_hand] = rest[: len(rest) - n_hand]
        S.hand[:n_hand] = hand
        S.ints[I_HAND] = n_hand
        F._tally(S, X.values_left, X.colours_left, X.masks_left)
        bases = [rng.uniform(-15, 55) for _ in range(14)]
        X.line_eval[:, 0] = bases
        shares = [_random_shares(rng) for _ in range(14)]
        X.line_eval[:, 5:] = shares
        for li in range(int(p[L.P_NLINES])):
            m = F._line_features(p, geo.lines, S.grid, li, filled, X.values_left,
                                  X.colours_left, X.masks_left, bases[li], out)
            want = REF.line_features(p, [int(grid[c]) for c in geo.lines[li][: lv.size]],
                                     filled, rest, bases[li], hand)
            assert list(out[:m]) == want
        got = LE._afterstate_value(p, geo, S, X, filled)
        want = REF.afterstate_value(lv, p, geo.lines[:, : lv.size], grid, filled, rest, bases,
                                    weights, shares, hand)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("level", [1, 3, 8, 13, 14, 18, 19, 20])
def test_predicting_only_the_lines_a_move_touches_gives_the_same_value(level):
    """The learned player predicts every line once per card (_predict_lines) and, per move,
    only the lines through its cell (_value_after_placing): the value is exactly
    _afterstate_value's, and _unplace puts the lines' former state back."""
    from numberup.game.grid import geometry
    from numberup.players.scratch import new_scratch
    from numberup.game.state import I_FILLED, I_UNSEEN, new_state

    lv = get_level(level)
    p = L.PARAMS[level]
    geo = geometry(lv.size)
    rng = random.Random(level)
    weights = np.array([rng.uniform(-5, 5) for _ in range(LE.model_size(level))])
    S, X = new_state(lv.cells), new_scratch(lv, weights=weights)
    state = ("predicted", "rows", "shift", "at_least")
    for _ in range(40):
        grid, filled, rest = REF.random_grid(lv, rng)
        if filled == lv.cells or not rest:
            continue
        S.grid[:] = grid
        S.ints[I_FILLED] = filled
        S.ints[I_UNSEEN] = len(rest)
        S.unseen[: len(rest)] = rest
        F._tally(S, X.values_left, X.colours_left, X.masks_left)
        X.line_eval[:, 0] = [rng.uniform(-15, 55) for _ in range(14)]
        X.line_eval[:, 5:] = [_random_shares(rng) for _ in range(14)]
        card = rest[0]
        F._take(card, X.values_left, X.colours_left, X.masks_left, -1)
        LE._predict_lines(p, geo, S, X, filled + 1)
        before = {name: getattr(X, name).copy() for name in state}
        cell = rng.choice([c for c in range(lv.cells) if grid[c] < 0])
        S.grid[cell] = card
        for q in range(4):  # the move's lines get new random completions, as the player's do
            li = geo.cell_lines[cell, q]
            if 0 <= li < p[L.P_NLINES]:
                X.line_eval[li, 0] = rng.uniform(-15, 55)
                X.line_eval[li, 5:] = _random_shares(rng)
        got = LE._value_after_placing(p, geo, S, X, filled + 1, cell)
        after = {name: getattr(X, name).copy() for name in state}
        assert got == LE._afterstate_value(p, geo, S, X, filled + 1)
        for name in state:  # as _value_after_placing left them
            getattr(X, name)[:] = after[name]
        LE._unplace(p, geo, X, cell)
        for name in state:
            assert np.array_equal(getattr(X, name), before[name]), name
        S.grid[cell] = -1
        F._take(card, X.values_left, X.colours_left, X.masks_left, 1)


def _random_shares(rng):
    """A line's random-completion P(value >= t) for every t: falling with t, from 1 (every
    completion) to 0 (none), with values in between."""
    from numberup.evaluation.layout import EVAL_WIDTH

    width = EVAL_WIDTH - 5
    ones = rng.randrange(width)
    middle = sorted((rng.random() for _ in range(rng.randrange(width - ones + 1))), reverse=True)
    return [1.0] * ones + middle + [0.0] * (width - ones - len(middle))


@pytest.mark.parametrize("level", [3, 8, 14, 20])
def test_medal_kernel_matches_python(level):
    from numberup.learned.value import _medals
    from numberup.players.scratch import new_scratch

    lv = get_level(level)
    p = L.PARAMS[level]
    rng = random.Random(level)
    X = new_scratch(lv, weights=[rng.uniform(-3, 3) for _ in range(LE.model_size(level))])
    out = np.zeros(5)
    for _ in range(100):
        X.predicted[:] = [rng.uniform(-12, 45) for _ in range(14)]
        X.rows[:] = [rng.choice([-1, rng.randrange(F.PHASES * (lv.size + 1))]) for _ in range(14)]
        X.shift[:] = [rng.uniform(-3, 3) for _ in range(14)]
        for li in range(14):
            X.line_eval[li, :2] = rng.uniform(-12, 45), rng.choice([0.0, rng.uniform(0, 40)])
            X.line_eval[li, 5:] = _random_shares(rng)  # P(value >= t) falls with t
        value = rng.uniform(0, 200)
        _medals(p, X, value, out)
        want = REF.medals(p, X.predicted.tolist(), X.line_eval.tolist(), value, X.rows.tolist(),
                          X.shift.tolist(), X.learned)
        assert out.tolist() == pytest.approx(want, rel=1e-9, abs=1e-12)
