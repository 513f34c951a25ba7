"""Distilling the look into the one-move learned player (numberup.training.distil): the compiled loop
against the same loop in plain Python, determinism, and weights that move the student toward
the teacher (the train command's --distil-games: tests/cli/test_train_command.py)."""

import numpy as np


from numberup.training import distil as D
from numberup.game import levels as L
from numberup.learned import modelfile as MF
from numberup.game.levels import get_level

LEVEL = 2


def _played_weights():
    """The package's level-2 model as the player plays it (weights x scale)."""
    W, facts = MF.read_model(MF.model_path(LEVEL), LEVEL)
    return W * facts["scale"]


def _python_distil(W, seed, first, n, eta):
    """:func:`numberup.training.distil._distil_template` in plain Python (the players, the engine and the
    line features are the package's kernels, each checked against Python elsewhere): returns
    the weights and (decisions, decisions where the two players differed)."""
    from numberup.evaluation.completions import _estimate_lines
    from numberup.game.engine import (
        _apply, _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard,
        _undo_apply,
    )
    from numberup.learned.features import MAX_FEATURES, _line_features, _tally
    from numberup.game.grid import geometry
    from numberup.players.registry import parse_player
    from numberup.players.scratch import new_scratch
    from numberup.evaluation.sampled import _fill_pool
    from numberup.game.state import I_FILLED, new_state

    lv = get_level(LEVEL)
    p = L.PARAMS[LEVEL]
    geo = geometry(lv.size)
    teacher, student = parse_player(D.TEACHER), parse_player(D.STUDENT)
    W = np.array(W, np.float64)
    S, X = new_state(lv.cells), new_scratch(lv, weights=W)
    deck = np.zeros(lv.deck_size, np.int8)
    n_lines = int(p[L.P_NLINES])
    decisions = differ = 0
    for g in range(n):
        _deal(p, geo, S, deck, np.uint64(seed), first + g, False)
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            may = _may_discard(p, geo, S)
            cand = X.cand[0]
            t = teacher.action(p, geo, S, X, cand, _candidates(geo, S, cand), may,
                               teacher.params)
            s = student.action(p, geo, S, X, cand, _candidates(geo, S, cand), may,
                               student.params)
            decisions += 1
            if tuple(s) != tuple(t):
                differ += 1
                n_pool = _fill_pool(S, X.pool)
                for sign, (slot, cell) in ((1.0, t), (-1.0, s)):
                    card = S.hand[slot]
                    _apply(p, geo, S, slot, cell)
                    _estimate_lines(p, geo, S, X, int(student.param("k")), n_pool, True)
                    _tally(S, X.values_left, X.colours_left, X.masks_left)
                    steps = []
                    for li in range(n_lines):
                        out = np.zeros(MAX_FEATURES, np.int64)
                        m = _line_features(p, geo.lines, S.grid, li, S.ints[I_FILLED],
                                           X.values_left, X.colours_left, X.masks_left,
                                           X.line_eval[li, 0], out)
                        steps.append([(int(f), sign * eta / m) for f in out[:m]])
                    _undo_apply(p, geo, S, slot, cell, card)
                    if sign > 0:
                        teacher_steps = steps
                    else:
                        student_steps = steps
                for li in range(n_lines):  # line by line, the teacher's first, as the kernel
                    for f, d in teacher_steps[li] + student_steps[li]:
                        W[f] += d
            _apply_inline(p, geo, S, t[0], t[1])
    return W, (decisions, differ)


def test_distillation_matches_python_and_repeats():
    W0 = _played_weights()
    W, counts = D.distil(LEVEL, W0, 5, 40, 2, eta=0.05)
    ref, ref_counts = _python_distil(W0, 5, 40, 2, 0.05)
    assert counts == [ref_counts] and ref_counts[1] > 0
    assert np.array_equal(W, ref) and not np.array_equal(W, W0)
    again, _ = D.distil(LEVEL, W0, 5, 40, 2, eta=0.05)
    assert again.tobytes() == W.tobytes()


def test_distillation_moves_the_student_toward_the_teacher():
    """After distilling on some games the one-move player chooses as the look does more often
    on those games' decisions (counted with eta 0: no step)."""
    W0 = _played_weights()
    games = 12
    before = D.distil(LEVEL, W0, 9, 0, games, eta=0.0)[1][0]
    W, _ = D.distil(LEVEL, W0, 9, 0, games, eta=0.05)
    W, _ = D.distil(LEVEL, W, 9, 0, games, eta=0.05)
    after = D.distil(LEVEL, W, 9, 0, games, eta=0.0)[1][0]
    assert before[0] > 200 and after[1] < before[1], (before, after)
