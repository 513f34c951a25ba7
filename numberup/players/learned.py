"""The learned player: every action judged by the learned value of its afterstate.

``learned:objective=O,k=K``: for each hand card and cell on offer (and a discard while discards remain) the
grid right after the move is judged by :func:`numberup.learned.value._afterstate_value` (a sum over
lines of learned table entries, with the cards still to come as features), and the best is
played (ties: the first). The weights are the level's model (``numberup/learned/models``, made by
``numberup train``), carried in ``X.learned``. ``endgame=E``: when at most ``E`` cells are
empty, the decision is exact instead (:mod:`numberup.evaluation.endgame`), as expectimax's; the kernel reads nothing outside ``S`` and
``X``, so any scratch of :func:`numberup.players.scratch.new_scratch` with the model serves (rollouts
call it as their base player). ``scale=S``: the weights are the model's times ``S`` (default:
the model's own scale, :mod:`numberup.learned.value`); the scratch carries them so scaled.
"""

from __future__ import annotations

import numpy as np

from ..evaluation.endgame import MAX_ENDGAME, _endgame_decide, _no_endgame
from ..jit import specialize
from ..evaluation.completions import _estimate_lines
from ..game import levels as L
from ..learned.features import _take_from_hand, _tally
from ..learned.value import MAX_SCALE, _afterstate_value, _medals, _predict_lines
from ..learned.lookahead import (MAX_WIDTH, _depth0_looks, _lookahead, _no_lookahead,
                                 _take_back, _try_card)
from ..game.rng import _next
from ..evaluation.sampled import MAX_K, _better, _copy_value, _fill_pool, _objective
from ..game.state import I_FILLED, I_HAND, N_IDS
from .base import OBJECTIVE_HELP, OBJECTIVES, Param, PlayerType

ROOT = 0  # the decision depth whose line estimates X.saved keeps


def _learned_template(p, geo, S, X, cand, n_cand, may_discard, prm):
    """The action of the best afterstate value; ``X.values[a]`` := action ``a``'s value
    (mean, P(bronze), P(silver), P(gold), sum of the line predictions; the probabilities 0
    when playing for the mean; actions numbered as expectimax numbers them: ``slot * n_cand +
    j``, the discard last). A template: ``_OBJECTIVE``, ``_K``, ``_ENDGAME_AT``, ``_EXACT_AT``,
    ``_DEPTH_AT``, ``_WIDTH_AT`` and ``_SAMPLE_AT`` are the places of the objective, of ``k``,
    ``endgame``, ``exact``, ``depth``, ``width`` and ``sample`` in ``prm`` (this player's own
    parameters, or expectimax's, whose ``eval=learned`` plays this kernel; -1: none);
    ``_ENDGAME`` is the exact endgame's hook and ``_LOOKAHEAD`` the look at the next card
    (:mod:`numberup.learned.lookahead`), or stand-ins that compile to nothing
    (:func:`_variant`).

    The base estimate of each line is expectimax's (:mod:`numberup.evaluation.sampled`) with ``k``
    completions from the cards to come at the decision (common random numbers within it); the
    lines through the cell tried are estimated again."""
    objective = _objective(p, S, np.int64(prm[_OBJECTIVE]))  # noqa: F821
    slot, cell = _ENDGAME(p, geo, S, X, cand, n_cand, may_discard,  # noqa: F821
                          np.int64(prm[_ENDGAME_AT]), objective)  # noqa: F821
    if slot >= 0:
        return slot, cell
    k = np.int64(prm[_K])  # noqa: F821
    best_value = X.best[ROOT]
    best_value[:5] = -1e300
    child = X.child[ROOT]
    S.rng[1] = _next(S.rng)  # this decision's completions
    n_pool = _fill_pool(S, X.pool)
    exact = np.int64(1) if _EXACT_AT < 0 else np.int64(prm[_EXACT_AT])  # noqa: F821
    _estimate_lines(p, geo, S, X, k, n_pool, exact)
    _tally(S, X.values_left, X.colours_left, X.masks_left)
    filled = S.ints[I_FILLED]
    best = -1e300
    best_slot, best_cell = np.int64(0), cand[0]  # int64, not a literal: one compile of _LOOKAHEAD
    n_hand = S.ints[I_HAND]
    for slot in range(n_hand):
        card = S.hand[slot]
        _take_from_hand(card, X.values_left, X.colours_left, X.masks_left, -1)
        if n_cand > 0:  # a move changes the predictions of its own lines only
            _predict_lines(p, geo, S, X, filled + 1)
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            if cell >= 0:
                v = _try_card(p, geo, S, X, cell, card, filled, k, n_pool, exact, ROOT)
                if objective != 0:
                    _medals(p, X, v, child)
                _take_back(p, geo, S, X, cell, ROOT)
            else:
                v = _afterstate_value(p, geo, S, X, filled)
                if objective != 0:
                    _medals(p, X, v, child)
            a = slot * n_cand + j if cell >= 0 else n_hand * n_cand
            if objective != 0:
                _copy_value(X.values[a], child)
            else:
                X.values[a, :5] = 0.0
                X.values[a, 0] = v
                X.values[a, 4] = v
            if objective == 0:
                if v > best:
                    best = v
                    best_slot, best_cell = slot, cell
            elif _better(child, best_value, objective):
                _copy_value(best_value, child)
                best_slot, best_cell = slot, cell
        _take_from_hand(card, X.values_left, X.colours_left, X.masks_left, 1)
    return _LOOKAHEAD(p, geo, S, X, cand, n_cand, may_discard, objective,  # noqa: F821
                      best_slot, best_cell, np.int64(prm[_DEPTH_AT]),  # noqa: F821
                      np.int64(prm[_WIDTH_AT]), k, exact,  # noqa: F821
                      np.int64(prm[_SAMPLE_AT]))  # noqa: F821


# The places of this player's parameters in its array; another player that plays this kernel
# (expectimax's eval=learned) passes the places of its own
_OWN = dict(_OBJECTIVE=0, _K=1, _ENDGAME_AT=2, _EXACT_AT=4, _DEPTH_AT=5, _WIDTH_AT=6,
            _SAMPLE_AT=7)
_KERNELS = {}  # the variants compiled so far, by name


def kernel_for(endgame: bool, depth: int, places: dict | None = None, owner: str = ""):
    """The learned player's kernel with the exact endgame's hook or without, looking at the
    next card (``depth`` 2) or not, reading its parameters at this player's places or at
    ``places`` (those of the player ``owner``, which plays this kernel as its own): compiled
    when first asked for."""
    name = (f"_learned_for_{owner}" if owner else "_learned_action"
            ) + ("_endgame" if endgame else "") + ("_depth2" if depth == 2 else "")
    if name not in _KERNELS:
        _KERNELS[name] = specialize(
            _learned_template, name, _ENDGAME=_endgame_decide if endgame else _no_endgame,
            _LOOKAHEAD=_lookahead if depth == 2 else _no_lookahead, **(places or _OWN))
    return _KERNELS[name]


_learned_action = kernel_for(False, 2)  # the default parameters' (depth 0: 2 where it is cheap)


def _variant(params):
    """The variant of the parameters: with the exact endgame or without, one move deep or
    looking at the next card."""
    endgame = params[_OWN["_ENDGAME_AT"]] > 0
    depth = int(params[_OWN["_DEPTH_AT"]])
    name = ("endgame" if endgame else "plain") + ("_depth2" if depth != 1 else "")
    return name, kernel_for(endgame, 1 if depth == 1 else 2)


def _on_level(params, level: int):
    """Depth 0 on a level where it never looks ahead (a rule outside the value counts of
    levels 6-10, or a hand) plays depth 1's games: the parameters with depth 1, whose kernel
    has no look-ahead to compile."""
    at = _OWN["_DEPTH_AT"]
    if params[at] != 0 or _depth0_looks(L.PARAMS[level]):
        return params
    out = params.copy()
    out[at] = 1
    return out

PLAYER = PlayerType(
    "learned",
    "the action whose afterstate (the grid right after it, with the cards still to come) has "
    "the best learned value: each line's random-completion estimate (k completions) plus a "
    "correction summed "
    "from table entries learned by self-play (numberup train; the package ships a model per "
    "level)",
    _learned_action,
    {"objective": Param("mean", OBJECTIVE_HELP + "; P(medal) from the random completions' "
                        "spread around the learned values", choices=OBJECTIVES),
     "k": Param(64, "random completions per line of each line's base estimate (the models "
                    "are trained with 16; more play better and slower)", minimum=1,
                maximum=MAX_K),
     "endgame": Param(0, "when at most this many cells are empty, search the rest of the game "
                         "exactly over every order of the cards to come (0: never)", minimum=0,
                      maximum=MAX_ENDGAME),
     "scale": Param(-1.0, "how much of the learned correction to play with: 0 none (the random "
                          "completions alone), 1 all of it; -1: the model's own scale, chosen "
                          "in training on decks it did not train on", minimum=-1.0,
                    maximum=MAX_SCALE, integer=False),
     "exact": Param(1, "1: each line's base estimate as exact as is cheap: the exact "
                       "expectation of its random completions where the level's rule allows "
                       "it (levels 1, 3-10; k unused), every completion of a line that has at "
                       "most 2k of them, else k completions drawn stratified (each cell takes "
                       "each card once per block); 2: as 1, but on the neighbouring-street "
                       "rule (levels 18-20) a line that would be sampled is judged by a chain "
                       "over its cells instead (each empty cell a card of the pool, never the "
                       "one just laid before it: no noise, between k=64's cost and k=256's); 0: k "
                       "independent completions, as expectimax draws them (the models are "
                       "trained with 1)", minimum=0, maximum=2),
     "depth": Param(0, "1: judge each action by the learned value right after it; 2: judge "
                       "the width best again by the expectation over the next card of the "
                       "best value after it (not on levels with a hand; on the value-count "
                       "rules of levels 6-10 by the next card's value, about 2-3x the time of "
                       "depth 1, elsewhere every next card on every cell, 10-40x); 0: 2 on "
                       "levels 6-10, 1 elsewhere", minimum=0, maximum=2),
     "width": Param(3, "at depth 2, how many of the best actions are judged again",
                    minimum=1, maximum=MAX_WIDTH),
     "sample": Param(0, "at depth 2, on levels where cards are not alike by value, try a "
                        "random sample of this many next cards (the same for every action "
                        "judged again) instead of all of them (0: all); the look's cost "
                        "falls about in proportion", minimum=0,
                    maximum=N_IDS)},  # X.draws holds the cards to come: N_IDS at most
    looks_ahead=True, advises=True, variant=_variant, on_level=_on_level,
)
