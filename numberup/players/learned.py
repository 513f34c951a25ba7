"""The learned player: every action judged by the learned value of its afterstate.

``learned``: for each hand card and cell on offer (and a discard while discards remain) the
grid right after the move is judged by :func:`numberup.learned._afterstate_value` (a sum over
lines of learned table entries, with the cards still to come as features), and the best is
played (ties: the first). The weights are the level's model (``numberup/models``, made by
``numberup train``), carried in ``X.learned``; the kernel reads nothing outside ``S`` and
``X``, so any scratch of :func:`numberup.search.new_scratch` with the model serves (rollouts
call it as their base player).
"""

from __future__ import annotations

from .. import levels as L
from ..engine import I_FILLED, I_HAND
from ..jit import kernel
from ..learned import COMPLETIONS, _afterstate_value, _take, _tally
from ..rng import _next
from ..search import _estimate_all, _estimate_line, _fill_pool, _restore_lines, _save_lines
from .base import PlayerType

ROOT = 0  # the decision depth whose line estimates X.saved keeps


@kernel
def _learned_action(p, geo, S, X, cand, n_cand, may_discard, prm):
    """The action of the best afterstate value; ``X.values[a, 0]`` := action ``a``'s value
    (actions numbered as expectimax numbers them: ``slot * n_cand + j``, the discard last).

    The base estimate of each line is expectimax's (:mod:`numberup.search`) with
    ``COMPLETIONS`` completions from the cards to come at the decision (common random numbers
    within it); the lines through the cell tried are estimated again."""
    S.rng[1] = _next(S.rng)  # this decision's completions
    n_pool = _fill_pool(S, X.pool)
    _estimate_all(p, geo, S, X.line_eval, X.pool, COMPLETIONS, n_pool)
    _tally(S, X.values_left, X.colours_left, X.masks_left)
    filled = S.ints[I_FILLED]
    best = -1e300
    best_slot, best_cell = 0, cand[0]
    n_hand = S.ints[I_HAND]
    for slot in range(n_hand):
        card = S.hand[slot]
        _take(card, X.values_left, X.colours_left, X.masks_left, -1)
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            if cell >= 0:
                _save_lines(p, geo, X, cell, ROOT)
                S.grid[cell] = card
                for q in range(4):
                    li = geo.cell_lines[cell, q]
                    if li >= 0 and li < p[L.P_NLINES]:
                        _estimate_line(p, geo, S, X.line_eval, X.pool, li, COMPLETIONS, n_pool)
                v = _afterstate_value(p, geo, S, X, filled + 1)
                S.grid[cell] = -1
                _restore_lines(p, geo, X, cell, ROOT)
            else:
                v = _afterstate_value(p, geo, S, X, filled)
            a = slot * n_cand + j if cell >= 0 else n_hand * n_cand
            X.values[a, 0] = v
            if v > best:
                best = v
                best_slot, best_cell = slot, cell
        _take(card, X.values_left, X.colours_left, X.masks_left, 1)
    return best_slot, best_cell


PLAYER = PlayerType(
    "learned",
    "the action whose afterstate (the grid right after it, with the cards still to come) has "
    "the best learned value: each line's random-completion estimate plus a correction summed "
    "from table entries learned by self-play (numberup train; the package ships a model per "
    "level)",
    _learned_action,
    looks_ahead=True,
)
