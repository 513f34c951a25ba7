"""A learned evaluation of afterstates: what each line will finally add, as a sum of table
entries (n-tuple style), learned from the game's own play (:mod:`numberup.training.train`).

A line's *base estimate* is the mean of its random completions with the cards still to come
(as :mod:`numberup.evaluation.sampled` defines them), worked out as exactly as is cheap
(:func:`numberup.evaluation.completions._line_estimate`): exact on the value-count and colour-sum rules (levels
1, 3-10), every completion of a line that has at most ``2k`` of them, else ``k`` completions
drawn stratified. Feature version 4 is trained with those estimates (version 3 had ``TRAIN_K``
independent completions everywhere; the noise of 64 cost the player up to 3 points of mean).

The value of a grid right after a move (its *afterstate*), with the cards still to come, is

    V = sum over lines of  y(line),   y = exact contribution of a full line, else its base
                                       estimate (the mean of its random completions: see
                                       below) + the weights its features index

(on the levels scored by their lowest line, a learned distribution of each line instead: see
below). A line's features are indices into one flat ``float64`` weight array
(:mod:`numberup.learned.features`: the value histogram by phase, each value's count and how many of it
are still to come, the strongest colours, streets, sequences of neighbouring cells, the base
estimate itself binned), every table shared by all lines of the level.

``y`` is trained by Monte Carlo regression on the lines' final contributions in self-play of
the learned player itself, with ``TRAIN_K`` completions for the base estimate (the player uses
more by default: its parameter ``k``). A model file (``.npz``) holds the weights, the level, the feature
version, the seed and the games (:mod:`numberup.learned.modelfile` writes and reads them); the
package's models live in ``numberup/learned/models/``.

**Levels scored by their lowest line** (3, 20; feature version 3). There the spread of each
line matters more than its mean, so the model learns each open line's *distribution*: for every
whole ``t`` (``DIST_LO < t <= DIST_HI``)

    P(line's final value >= t) = sigmoid(logit(q_t) + shift + cut[phase, empty, t])

``q_t``: the share of the line's random completions worth ``t`` or more (clipped to
``[EPS, 1 - EPS]``; where every completion reached ``t``, P is 1); ``shift``: the sum of the weights its features index (the same features
as above, one shift for every ``t``: an ordinal logistic model); ``cut``: one entry per phase,
empty cells and ``t``, stored after the feature tables. A full line is worth its value. With the
lines taken as independent, E[lowest line] = ``DIST_LO`` + the sum over ``t`` of the product
of the lines' P(>= t) (the sum stops once that product falls below ``TINY_P``); the value is
10 x that, plus a thousandth of the sum of the lines' random-completion means (a tie-break). With
every weight 0 it is expectimax's own estimate of the lowest line. Training moves every
logged line's logits toward whether the line finally reached each ``t`` (the gradient of the
log loss).

**Scale.** A player plays with the weights times a *scale* (0: the random completions alone, 1:
the whole correction). Each line's correction is learned on its own, as what such lines finally
made in the player's games; but those games rescued many a weak line, and a player that trusts
the whole correction no longer rescues them (it sees them as safe). Half-way is much better on
most levels (level 18: 70 points with the whole correction, 87 with half of it). Training
chooses the scale that plays best on decks of its seed past the training games
(:func:`numberup.training.train.tune_scale`), and the model file keeps it.

**Distilled** (level 2): after that, the player's look at the next card is distilled into the
weights as played (:mod:`numberup.training.distil`), and the model keeps them at scale 1.
"""

from __future__ import annotations

import math

from ..game import levels as L
from ..evaluation.exact import _histogram
from .features import LEFT_MAX, PHASES, _base_bin, _layout, _line_features
from ..jit import kernel
from ..game.scoring import _line_score, _line_value
from ..evaluation.layout import DIST_HI, DIST_LO, N_STATS
from ..evaluation.sampled import _upper_tail

FEATURE_VERSION = 5  # 3: a model keeps its scale, lowest-line levels learn distributions;
# 4: trained on exact or stratified base estimates (numberup.evaluation.exact); 5: on street
# levels played from a hand, what the hand holds (numberup.learned.features, hand)
TRAIN_K = 16  # random completions per line of a sampled base estimate in training
NT = DIST_HI - DIST_LO  # thresholds t of a line's learned distribution (lowest-line levels)
EPS = 1.0 / 256  # the random completions' share q_t is clipped to [EPS, 1 - EPS] for its logit
TINY_P = 1e-12  # E[lowest line] stops summing P(every line >= t) below this
MAX_SCALE = 2.0  # the largest scale of the learned corrections a player may ask for


@kernel(inline="always")
def _lowest(p):
    """Whether the level is scored by its lowest line (its model learns distributions)."""
    return p[L.P_AGG] == L.AGG_MIN_X10


def model_size(level: int) -> int:
    """Entries of the weight array of ``level``: the feature tables, and on levels scored by
    the lowest line the cut table after them."""
    p = L.PARAMS[level]
    size = int(_layout(p)[7])
    if _lowest(p):
        size += PHASES * (int(p[L.P_SIZE]) + 1) * NT
    return size


@kernel(inline="always")
def _line_contribution(p, grid, lines, li, n):
    """What line ``li`` adds to the result as it stands: its value, or 10 x checkmarkers."""
    points, markers = _line_score(p, grid, lines, li, n)
    if p[L.P_AGG] == L.AGG_MARKERS_X10:
        return 10.0 * max(markers, 0)
    return float(_line_value(points, markers))


@kernel
def _line_prediction(p, geo, S, W, li, filled, values_left, colours_left, masks_left, base,
                     features):
    """Line ``li``'s predicted final contribution: exact if full, else its base estimate plus
    the sum of its features' weights (``features``: scratch for their indices)."""
    n = p[L.P_SIZE]
    m = _line_features(p, geo.lines, S.grid, li, filled, values_left, colours_left, masks_left,
                       base, features)
    if m == 0:
        return _line_contribution(p, S.grid, geo.lines, li, n)
    y = base
    for q in range(m):
        y += W[features[q]]
    return y


@kernel
def _predictions_ahead(p, geo, S, W, li, filled, values_left, base, plus, counts, before,
                       after):
    """On the value-count rules (whose lines have the histogram, per-value and base features
    only): for every value ``v`` with ``counts[v] > 0``, ``before[v]`` := line ``li``'s
    prediction (:func:`_line_prediction`) once a card of value ``v`` has left the cards to
    come (``values_left`` before it), its base estimate ``base``, and ``after[v]`` := the same
    with that card on one of the line's empty cells, its base estimate ``plus[v]``; each
    from the weights of the features that change, not all of them again. The line has an
    empty cell."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    o1, o2, o3, o4, o5, o6, o7, total = _layout(p)
    empty = 0
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            empty += 1
    phase = min(filled * PHASES // (n * n), PHASES - 1)
    h = _histogram(p, S.grid, geo.lines, li)  # every value's count in the line, as digits
    radix = (n + 1) ** nv
    now = W[phase * radix + h] + W[_base_bin(p, o6, phase, empty, base)]
    later = 0.0  # the per-value weights with one cell fewer empty, every value as it is
    step = 1
    for v in range(nv):
        c = (h // step) % (n + 1)
        left = min(values_left[v], LEFT_MAX)
        now += W[o1 + ((v * (n + 1) + c) * (LEFT_MAX + 1) + left) * (n + 1) + empty]
        later += W[o1 + ((v * (n + 1) + c) * (LEFT_MAX + 1) + left) * (n + 1) + empty - 1]
        step *= n + 1
    step = 1
    for v in range(nv):
        if counts[v] == 0:
            step *= n + 1
            continue
        c = (h // step) % (n + 1)
        left = min(values_left[v], LEFT_MAX)
        fewer = min(values_left[v] - 1, LEFT_MAX)
        row = o1 + (v * (n + 1) + c) * (LEFT_MAX + 1) * (n + 1)
        before[v] = (base + now - W[row + left * (n + 1) + empty]
                     + W[row + fewer * (n + 1) + empty])
        if empty == 1:  # the card fills the line: its value
            after[v] = plus[v]
        else:
            up = o1 + (v * (n + 1) + c + 1) * (LEFT_MAX + 1) * (n + 1)
            after[v] = (plus[v] + W[phase * radix + h + step]
                        + W[_base_bin(p, o6, phase, empty - 1, plus[v])]
                        + later - W[row + left * (n + 1) + empty - 1]
                        + W[up + fewer * (n + 1) + empty - 1])
        step *= n + 1


@kernel(inline="always")
def _row(p, grid, lines, li, filled):
    """The cut table's row of line ``li``: phase x (cells + 1) + empty cells."""
    n = p[L.P_SIZE]
    empty = 0
    for i in range(n):
        if grid[lines[li, i]] < 0:
            empty += 1
    return min(filled * PHASES // (n * n), PHASES - 1) * (n + 1) + empty


@kernel(inline="always")
def _sigmoid(z):
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@kernel(inline="always")
def _logit_share(q):
    """The logit of a random-completion share, clipped to [EPS, 1 - EPS]."""
    q = min(max(q, EPS), 1.0 - EPS)
    return math.log(q / (1.0 - q))


@kernel(inline="always")
def _p_at_least(p, X, li, t, cut0):
    """The learned P(line ``li``'s final value >= ``t``) (levels scored by the lowest line;
    :func:`_afterstate_value` set ``X.rows``, ``X.shift`` and ``X.predicted``; ``cut0``: where
    the cut table starts, ``_layout(p)[7]``)."""
    if X.rows[li] < 0:  # a full line: its value
        return 1.0 if X.predicted[li] >= t else 0.0
    if t <= DIST_LO:
        return 1.0
    if t > DIST_HI:
        return 0.0
    q = X.line_eval[li, N_STATS + t - DIST_LO - 1]
    if q >= 1.0:  # every completion reached t
        return 1.0
    cut = cut0 + X.rows[li] * NT + t - DIST_LO - 1
    return _sigmoid(_logit_share(q) + X.shift[li] + X.learned[cut])


@kernel
def _line_state(p, geo, S, X, li, filled, cut0):
    """Line ``li``'s learned state on a level scored by its lowest line: ``X.rows[li]`` (-1:
    full), ``X.shift[li]``, ``X.predicted[li]`` (its random-completion mean, or its value if
    full) and ``X.at_least[li, i]`` := P(its final value >= DIST_LO + 1 + i) for every i."""
    m = _line_features(p, geo.lines, S.grid, li, filled, X.values_left, X.colours_left,
                       X.masks_left, X.line_eval[li, 0], X.features)
    if m == 0:
        X.rows[li] = -1
        X.shift[li] = 0.0
        X.predicted[li] = _line_contribution(p, S.grid, geo.lines, li, p[L.P_SIZE])
    else:
        X.rows[li] = _row(p, S.grid, geo.lines, li, filled)
        shift = 0.0
        for q in range(m):
            shift += X.learned[X.features[q]]
        X.shift[li] = shift
        X.predicted[li] = X.line_eval[li, 0]
    for i in range(NT):
        X.at_least[li, i] = _p_at_least(p, X, li, DIST_LO + 1 + i, cut0)


@kernel(inline="always")
def _predict_line(p, geo, S, X, li, filled, cut0):
    """Line ``li``'s prediction, into ``X.predicted[li]`` (on levels scored by the lowest line,
    its whole state: :func:`_line_state`)."""
    if _lowest(p):
        _line_state(p, geo, S, X, li, filled, cut0)
    else:
        X.predicted[li] = _line_prediction(p, geo, S, X.learned, li, filled, X.values_left,
                                           X.colours_left, X.masks_left, X.line_eval[li, 0],
                                           X.features)


@kernel
def _value_of_lines(p, X):
    """V from the lines' predictions in ``X``: their sum; on levels scored by the lowest line
    10 x E[lowest line] (the sum over t of the product of the lines' P(>= t), stopping once it
    falls below ``TINY_P``) plus a thousandth of their sum."""
    nl = p[L.P_NLINES]
    total = 0.0
    for li in range(nl):
        total += X.predicted[li]
    if not _lowest(p):
        return total
    low = float(DIST_LO)
    for i in range(NT):
        every = 1.0
        for li in range(nl):
            every *= X.at_least[li, i]
        if every < TINY_P:
            break
        low += every
    return 10.0 * low + 1e-3 * total


@kernel
def _afterstate_value(p, geo, S, X, filled):
    """V of the grid in ``S`` with the cards still to come in ``X.values_left`` and
    ``X.colours_left``: the sum of the line predictions; on levels scored by the lowest line
    10 x the learned E[lowest line] plus a thousandth of the sum of the lines' random-completion
    means (module doc). ``X.line_eval[li]``: each line's random completions
    (:func:`numberup.evaluation.sampled._estimate_line`); every line's prediction is left in ``X``
    (:func:`_predict_lines`)."""
    _predict_lines(p, geo, S, X, filled)
    return _value_of_lines(p, X)


@kernel
def _predict_lines(p, geo, S, X, filled):
    """Every line's prediction as the grid stands, into ``X`` (:func:`_predict_line`): the
    lines a move does not touch keep it, so that :func:`_value_after_placing` predicts only
    the lines through the cell (call it with the card taken from the cards to come and
    ``filled`` counting it, as after the move)."""
    cut0 = _layout(p)[7]
    for li in range(p[L.P_NLINES]):
        _predict_line(p, geo, S, X, li, filled, cut0)


@kernel
def _value_after_placing(p, geo, S, X, filled, cell):
    """:func:`_afterstate_value` after a card went to ``cell``, with ``X`` as
    :func:`_predict_lines` left it: the lines through ``cell`` are predicted again (what they
    held kept in ``X.kept`` and ``X.kept_rows`` for :func:`_unplace`), and the value is taken
    from the lines in line order, as :func:`_afterstate_value` takes it, so it is the same."""
    cut0 = _layout(p)[7]
    lowest = _lowest(p)
    for q in range(4):
        li = geo.cell_lines[cell, q]
        if li >= 0 and li < p[L.P_NLINES]:
            X.kept[q, 0] = X.predicted[li]
            if lowest:
                X.kept[q, 1] = X.shift[li]
                X.kept_rows[q] = X.rows[li]
                for i in range(NT):
                    X.kept[q, 2 + i] = X.at_least[li, i]
            _predict_line(p, geo, S, X, li, filled, cut0)
    return _value_of_lines(p, X)


@kernel(inline="always")
def _unplace(p, geo, X, cell):
    """The lines through ``cell`` as :func:`_predict_lines` left them."""
    lowest = _lowest(p)
    for q in range(4):
        li = geo.cell_lines[cell, q]
        if li >= 0 and li < p[L.P_NLINES]:
            X.predicted[li] = X.kept[q, 0]
            if lowest:
                X.shift[li] = X.kept[q, 1]
                X.rows[li] = X.kept_rows[q]
                for i in range(NT):
                    X.at_least[li, i] = X.kept[q, 2 + i]


@kernel
def _medals(p, X, value, out):
    """``out`` := (mean, P(bronze), P(silver), P(gold), sum of the line predictions) of the
    afterstate whose learned value is ``value`` (:func:`_afterstate_value` just ran).

    Summed levels: a normal law of mean the summed predictions and variance the summed
    variances of the random completions. Levels scored by the lowest line: the product over
    the lines of the learned P(line value >= the medal's line target)."""
    nl = p[L.P_NLINES]
    total = var = 0.0
    for li in range(nl):
        total += X.predicted[li]
        var += X.line_eval[li, 1]
    out[0] = value
    out[4] = total
    cut0 = _layout(p)[7]
    for q in range(3):
        target = p[L.P_BRONZE + q]
        if p[L.P_AGG] != L.AGG_MIN_X10:
            half_step = 5.0 if p[L.P_AGG] == L.AGG_MARKERS_X10 else 0.5
            out[1 + q] = _upper_tail(total, var, target, half_step)
            continue
        t = (target + 9) // 10
        prob = 1.0
        for li in range(nl):
            prob *= _p_at_least(p, X, li, t, cut0)
        out[1 + q] = prob
