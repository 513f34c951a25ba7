"""The random player: uniform over the legal actions (discards included)."""

from __future__ import annotations

from ..jit import kernel
from ..game.rng import _below
from ..game.state import I_HAND
from .base import PlayerType


@kernel(inline="always")
def _random_action(S, cand, n_cand, may_discard):
    """Uniform over hand slot x cell, plus one action for a discard when allowed."""
    n_hand = S.ints[I_HAND]
    n_actions = n_hand * n_cand + (1 if may_discard else 0)
    r = _below(S.rng, n_actions)
    if r == n_hand * n_cand:
        return 0, -1
    if n_hand == 1:  # one card: no division
        return 0, cand[r]
    return r // n_cand, cand[r % n_cand]


@kernel(inline="always")
def _action(p, geo, S, X, cand, n_cand, may_discard, params):
    return _random_action(S, cand, n_cand, may_discard)


PLAYER = PlayerType("random", "uniform over the legal actions (discards included)", _action)
