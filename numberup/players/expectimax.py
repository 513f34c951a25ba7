"""The expectimax player over the evaluation of unfinished grids (:mod:`numberup.evaluation.sampled`).

``expectimax:depth=D,sample=S,k=K,objective=O``: decision nodes over every action (hand slot x
cell, and a discard while discards remain), chance nodes over the next card (all unseen cards
with equal probability, or a random sample of ``S`` of them), and the evaluation at the leaves.
``depth`` counts the cards placed in the tree, the current one included: depth 1 judges each
move by the evaluation of the grid right after it; depth 2 also averages over every next card
and its best placement (the most this player searches: see :func:`_chance_decide`).
``eval=learned`` judges each action by the learned value of its afterstate instead
(:mod:`numberup.learned.value`, made by ``numberup train``): the ``learned`` player's kernel.
``endgame=E``: when at most ``E`` cells are empty, the decision is exact instead
(:mod:`numberup.evaluation.endgame`), and so are the values it leaves for advice.
"""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from ..evaluation.endgame import MAX_ENDGAME, _endgame_decide, _no_endgame
from ..game.engine import _candidates, _done, _draw, _may_discard, _undraw
from ..jit import kernel, specialize
from ..game.rng import _below, _next
from ..evaluation.layout import MAX_DEPTH
from ..evaluation.sampled import (
    MAX_K, _better, _copy_value, _estimate_all, _evaluate, _fill_pool, _objective, _try, _untry,
)
from ..game.state import I_DECK, I_HAND, I_NEXT, I_UNSEEN, N_IDS
from .base import OBJECTIVE_HELP, OBJECTIVES, Param, PlayerType
from .learned import kernel_for

# the parameters' places in the kernel's array (their order in PLAYER.params)
X_DEPTH, X_SAMPLE, X_K, X_OBJECTIVE, X_EVAL, X_ENDGAME = 0, 1, 2, 3, 4, 5
# where the learned player's kernel finds these parameters (eval=learned: it estimates lines
# exactly wherever the rule allows and looks no further than the move, so ``exact``, ``depth``,
# ``width`` and ``sample`` have no place of their own and are never read)
_FOR_LEARNED = dict(_OBJECTIVE=X_OBJECTIVE, _K=X_K, _ENDGAME_AT=X_ENDGAME, _EXACT_AT=-1,
                    _DEPTH_AT=X_K, _WIDTH_AT=X_K, _SAMPLE_AT=X_K)
EVALS = ("random", "learned")  # eval=learned: the scratch carries the level's model
ROOT, LEAF = 0, 1  # decision depths in the tree
MAX_SAMPLE = N_IDS  # X.draws' size: a sample of all the cards to come or more looks at them all


@kernel(inline="always")
def _decide_leaf(p, geo, S, X, prm, objective, n_pool, out):
    """A decision whose every action is judged by the evaluation right after it."""
    k = np.int64(prm[X_K])
    cand = X.cand[LEAF]
    n_cand = _candidates(geo, S, cand)
    best = X.best[LEAF]
    best[:5] = -1e300
    child = X.child[LEAF]
    may_discard = _may_discard(p, geo, S)
    for slot in range(S.ints[I_HAND]):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _try(p, geo, S, X, slot, cell, k, n_pool, LEAF)
            _evaluate(p, X.line_eval, child)
            _untry(p, geo, S, X, slot, cell, card, LEAF)
            if _better(child, best, objective):
                _copy_value(best, child)
    _copy_value(out, best)


@kernel(inline="always")
def _chance_decide(p, geo, S, X, prm, objective, n_pool, out):
    """The next card (every unseen card alike, or a sample), then a :func:`_decide_leaf`.

    Trees are two cards deep at most: numba cannot cache recursive functions (numba #6061),
    and each further card multiplies the work by (cards x cells)."""
    if _done(p, S):
        _evaluate(p, X.line_eval, out)
        return
    remaining = S.ints[I_DECK] - S.ints[I_NEXT]
    if remaining <= 0 or (p[L.P_HAND] > 0 and S.ints[I_HAND] >= p[L.P_HAND]):
        _decide_leaf(p, geo, S, X, prm, objective, n_pool, out)
        return
    n_draw = S.ints[I_UNSEEN]
    draws = X.draws
    for j in range(n_draw):
        draws[j] = S.unseen[j]
    sample = np.int64(prm[X_SAMPLE])
    if sample > 0 and sample < n_draw:  # a random sample of the next cards
        for j in range(sample):
            t = j + _below(S.rng, n_draw - j)
            draws[j], draws[t] = draws[t], draws[j]
        n_draw = sample
    acc = X.chance_sum
    acc[:5] = 0.0
    child = X.drawn
    for j in range(n_draw):
        card = draws[j]
        _draw(S, card)
        _decide_leaf(p, geo, S, X, prm, objective, n_pool, child)
        _undraw(S, card)
        for q in range(5):
            acc[q] += child[q]
    for q in range(5):
        out[q] = acc[q] / n_draw


@kernel(inline="always")
def _judge_now(p, geo, S, X, prm, objective, n_pool, out):
    """A depth-1 tree's child: the evaluation of the grid as it stands."""
    _evaluate(p, X.line_eval, out)


def _expectimax_action(p, geo, S, X, cand, n_cand, may_discard, prm):
    """Expectimax's action; ``X.values[a]`` := the 4-vector of action ``a``, for advice.

    Actions are numbered slot-major, ``a = slot * n_cand + j`` for ``cand[j]``, and the
    discard, when allowed, is the last (as in :func:`numberup.players.rollout._rollout_action`).

    A template, compiled once per depth (:data:`BY_DEPTH`): ``_CHILD`` judges an action,
    :func:`_judge_now` at depth 1, :func:`_chance_decide` at depth 2, so that depth 1 (the
    default) compiles none of the deeper tree's code; ``_ENDGAME`` is the exact endgame's
    hook, or a stand-in that compiles to nothing when ``endgame=0``."""
    objective = _objective(p, S, np.int64(prm[X_OBJECTIVE]))
    slot, cell = _ENDGAME(p, geo, S, X, cand, n_cand, may_discard,  # noqa: F821
                          np.int64(prm[X_ENDGAME]), objective)
    if slot >= 0:
        return slot, cell
    k = np.int64(prm[X_K])
    S.rng[1] = _next(S.rng)  # this decision's completions (common random numbers)
    n_pool = _fill_pool(S, X.pool)
    _estimate_all(p, geo, S, X.line_eval, X.pool, k, n_pool)
    child = X.child[ROOT]
    best = X.best[ROOT]
    best[:5] = -1e300
    best_slot, best_cell = 0, cand[0]
    for slot in range(S.ints[I_HAND]):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _try(p, geo, S, X, slot, cell, k, n_pool, ROOT)
            _CHILD(p, geo, S, X, prm, objective, n_pool, child)  # noqa: F821
            _untry(p, geo, S, X, slot, cell, card, ROOT)
            a = slot * n_cand + j if cell >= 0 else S.ints[I_HAND] * n_cand
            _copy_value(X.values[a], child)
            if _better(child, best, objective):
                _copy_value(best, child)
                best_slot, best_cell = slot, cell
    return best_slot, best_cell


BY_DEPTH = {
    1: specialize(_expectimax_action, "_expectimax_depth1", _CHILD=_judge_now,
                  _ENDGAME=_no_endgame),
    2: specialize(_expectimax_action, "_expectimax_depth2", _CHILD=_chance_decide,
                  _ENDGAME=_no_endgame),
}
WITH_ENDGAME = {  # compiled only when a spec asks for the exact endgame
    depth: specialize(_expectimax_action, f"_expectimax_depth{depth}_endgame",
                      _CHILD=child, _ENDGAME=_endgame_decide)
    for depth, child in ((1, _judge_now), (2, _chance_decide))
}


def _by_depth(params):
    """The variant of the parameters: a tree of ``depth`` cards (more than 2 is 2); with
    ``eval=learned``, the learned player's kernel (every action judged by the learned value of
    its afterstate, one move deep as ``learned:depth=1``; ``depth``, ``sample`` and ``k``
    unused; ``endgame`` as the learned player's)."""
    if int(params[X_EVAL]) == EVALS.index("learned"):
        endgame = params[X_ENDGAME] > 0
        return ("learned_endgame" if endgame else "learned"), kernel_for(
            endgame, 1, _FOR_LEARNED, "expectimax")
    depth = min(int(params[X_DEPTH]), MAX_DEPTH)
    if params[X_ENDGAME] > 0:
        return f"depth{depth}_endgame", WITH_ENDGAME[depth]
    return f"depth{depth}", BY_DEPTH[depth]


PLAYER = PlayerType(
    "expectimax",
    "expectimax over the next cards with an evaluation of unfinished grids (each line's "
    "expected final value from random completions with the cards still to come)",
    BY_DEPTH[1],
    {
        "depth": Param(1, "cards placed in the search tree, the current one included "
                          "(1: judge each move by the evaluation after it; 2: also average "
                          "over every next card and its best placement)", minimum=1,
                       maximum=MAX_DEPTH),
        "sample": Param(0, "chance nodes look at a random sample of this many next cards "
                           "(0: all of them)", minimum=0, maximum=MAX_SAMPLE),
        "k": Param(64, "random completions per line in the evaluation", minimum=1, maximum=MAX_K),
        "objective": Param("mean", OBJECTIVE_HELP, choices=OBJECTIVES),
        "eval": Param("random", "how a grid is judged: each line's random completions, or "
                                "the learned value of the afterstate (the 'learned' player; "
                                "numberup train)",
                      choices=EVALS),
        "endgame": Param(0, "when at most this many cells are empty, search the rest of the "
                            "game exactly over every order of the cards to come (0: never)",
                         minimum=0, maximum=MAX_ENDGAME),
    },
    looks_ahead=True, advises=True, variant=_by_depth,
)
