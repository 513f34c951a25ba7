"""Distilling the look at the next card into the one-move learned player (level 2).

On level 2 the learned player one move deep trails rollouts by half a point of mean, and its
look at the next card (``learned:depth=2``) gains well over a point but costs 20-40x the time
(results/learned.md). Distillation moves that gain, in part, into the weights: the teacher
(``learned:depth=2,width=2``) plays seeded games; at every decision where the student
(``learned:depth=1``, the same weights) would choose another action, the weights take a
perceptron step toward the teacher's afterstate and away from the student's: ``+eta / n`` on
each of the ``n`` features of every line of the teacher's afterstate, ``-eta / n`` on the
student's (lines alike in both afterstates cancel). Both players read the weights being
changed, as the player will play them: the model's weights times its scale, so a distilled
model keeps them at scale 1.

Game ``i`` is dealt from ``(seed, i)`` alone and the games run in order on one thread, so the
same seed gives the same weights. :func:`numberup.training.train.train_level` distils after the Monte
Carlo training and the choice of scale, on the levels of :data:`GAMES`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from ..game import levels as L
from ..evaluation.completions import _estimate_lines
from ..game.engine import (
    _apply, _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard, _undo_apply,
)
from ..learned.features import MAX_FEATURES, _line_features, _tally
from ..jit import kernel, specialize
from ..evaluation.sampled import _fill_pool
from ..game.state import I_FILLED

# Games of distillation by level (the levels not named: none). Level 2 only: the one level
# whose one-move player trails rollouts. On 3,000 decks of the training seed past the training
# games (30,300 onward) its mean went 88.05 -> 88.45 with 8,000 games at ETA 0.005 (0.02:
# 88.16, too coarse a step; results/learned.md).
GAMES = {2: 8000}
ETA = 0.005  # the perceptron step, in points of a line's prediction spread over its features
TEACHER = "learned:depth=2,width=2,scale=1"
STUDENT = "learned:depth=1,scale=1"
CHUNK = 250  # games between progress reports


def games_for(level: int) -> int:
    """The games of distillation ``level`` takes by default (0: none)."""
    return GAMES.get(level, 0)


def _distil_template(p, geo, S, X, deck, W, teacher, student, master, first, n, eta, k,
                     feats, n_feats):
    """Play games ``first .. first+n-1`` of ``master`` with the teacher (``_TEACHER``, its
    parameters ``teacher``), stepping the weights ``W`` (``X.learned``) where the student
    (``_STUDENT``, ``student``) would choose another action (module doc); ``eta`` 0 only
    counts. ``feats``/``n_feats``: scratch, the line features of the two afterstates.
    Returns (decisions, decisions where the two chose differently)."""
    n_lines = p[L.P_NLINES]
    decisions = differ = 0
    for g in range(n):
        _deal(p, geo, S, deck, master, first + g, False)
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            may_discard = _may_discard(p, geo, S)
            cand = X.cand[0]
            n_cand = _candidates(geo, S, cand)
            slot_t, cell_t = _TEACHER(p, geo, S, X, cand, n_cand, may_discard,  # noqa: F821
                                      teacher)
            n_cand = _candidates(geo, S, cand)  # the teacher's look walked the tree in place
            slot_s, cell_s = _STUDENT(p, geo, S, X, cand, n_cand, may_discard,  # noqa: F821
                                      student)
            decisions += 1
            if slot_s != slot_t or cell_s != cell_t:
                differ += 1
                n_pool = _fill_pool(S, X.pool)
                for w in range(2):  # 0: the teacher's afterstate, 1: the student's
                    slot, cell = (slot_t, cell_t) if w == 0 else (slot_s, cell_s)
                    card = S.hand[slot]
                    _apply(p, geo, S, slot, cell)
                    _estimate_lines(p, geo, S, X, k, n_pool, np.int64(1))  # int64, as play
                    _tally(S, X.values_left, X.colours_left, X.masks_left)
                    for li in range(n_lines):
                        n_feats[w, li] = _line_features(
                            p, geo.lines, S.grid, li, S.ints[I_FILLED], X.values_left,
                            X.colours_left, X.masks_left, X.line_eval[li, 0], feats[w, li])
                    _undo_apply(p, geo, S, slot, cell, card)
                for li in range(n_lines):
                    for w in range(2):
                        m = n_feats[w, li]
                        if m == 0:
                            continue
                        d = (eta if w == 0 else -eta) / m
                        for q in range(m):
                            W[feats[w, li, q]] += d
            _apply_inline(p, geo, S, slot_t, cell_t)
    return decisions, differ


_LOOPS = {}


def _loop(teacher, student):
    """The distillation loop of these two players' kernels, compiled when first asked for."""
    name = f"{teacher.loop_name}__{student.loop_name}"
    if name not in _LOOPS:
        _LOOPS[name] = specialize(_distil_template, f"_distil_games_{name}",
                                  jit=partial(kernel, nogil=True), _TEACHER=teacher.action,
                                  _STUDENT=student.action)
    return _LOOPS[name]


def distil(level: int, weights: np.ndarray, seed: int, first: int, games: int,
           eta: float = ETA, progress: Callable[[int], None] | None = None
           ) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Distil the look into ``weights`` (as played: the model's times its scale) on games
    ``first .. first+games-1`` of ``seed``. Returns the new weights (float64) and, per chunk
    of games, (decisions, decisions where teacher and student differed)."""
    from ..game.grid import geometry
    from ..game.levels import get_level
    from ..players.registry import parse_player
    from ..players.scratch import new_scratch
    from ..game.state import new_state

    lv = get_level(level)
    p = L.PARAMS[lv.number]
    teacher, student = parse_player(TEACHER), parse_player(STUDENT)
    loop = _loop(teacher, student)
    k = int(student.param("k"))  # the afterstates' base estimates as the student judges them
    W = np.array(weights, np.float64)
    geo = geometry(lv.size)
    S, X = new_state(lv.cells), new_scratch(lv, weights=W)  # a read-only view: W is updated
    deck = np.zeros(lv.deck_size, np.int8)
    feats = np.zeros((2, int(p[L.P_NLINES]), MAX_FEATURES), np.int64)
    n_feats = np.zeros((2, int(p[L.P_NLINES])), np.int64)
    counts = []
    for start in range(0, games, CHUNK):
        n = min(CHUNK, games - start)
        counts.append(loop(p, geo, S, X, deck, W, teacher.params, student.params,
                           np.uint64(seed % 2**64), first + start, n, float(eta), k, feats,
                           n_feats))
        if progress:
            progress(n)
    return W, counts
