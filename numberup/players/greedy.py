"""The greedy player: the best immediate score."""

from __future__ import annotations

from ..jit import kernel
from ..game.rng import _below
from ..game.state import I_HAND
from ..game.tally import _line_sums, _result, _result_if
from .base import PlayerType


@kernel
def _greedy_action(p, geo, S, cand, n_cand, may_discard):
    """:func:`_greedy_inline` as a call (for the searchers' rollouts)."""
    return _greedy_inline(p, geo, S, cand, n_cand, may_discard)


@kernel(inline="always")
def _greedy_inline(p, geo, S, cand, n_cand, may_discard):
    """Best immediate score, then the larger sum of line values, then at random; a discard
    only when every placement scores strictly less than the grid as it stands."""
    best, best_sum, ties, best_slot, best_cell = -(1 << 40), -(1 << 40), 0, 0, cand[0]
    base_sum, base_markers = _line_sums(p, S)
    for slot in range(S.ints[I_HAND]):
        card = S.hand[slot]
        for k in range(n_cand):
            v, v_sum = _result_if(p, geo, S, card, cand[k], base_sum, base_markers)
            if v > best or (v == best and v_sum > best_sum):
                best, best_sum, ties, best_slot, best_cell = v, v_sum, 1, slot, cand[k]
            elif v == best and v_sum == best_sum:
                ties += 1
                if _below(S.rng, ties) == 0:
                    best_slot, best_cell = slot, cand[k]
    if may_discard and _result(p, S) > best:
        return 0, -1
    return best_slot, best_cell


@kernel(inline="always")
def _action(p, geo, S, X, cand, n_cand, may_discard, params):
    return _greedy_inline(p, geo, S, cand, n_cand, may_discard)


PLAYER = PlayerType(
    "greedy",
    "the action that maximises the level's score of the grid right after it; ties go to the "
    "larger sum of line values (which separates grids on levels scored by the lowest line or "
    "by checkmarkers), then at random (the player's own stream); a discard is taken only when "
    "every placement scores strictly less than the grid as it stands",
    _action, tracks=True,
)
