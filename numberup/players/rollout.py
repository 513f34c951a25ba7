"""The rollout player: Monte Carlo rollouts of every action by a simple base player.

``rollout:n=N,base=B,objective=O``: every action is judged by playing the game out with the base
player (random or greedy) on random orders of the unseen cards; a budget of about ``N``
rollouts per decision is spread by successive halving (the worse half of the actions is dropped
each round, so clearly bad moves stop early).
"""

from __future__ import annotations

import numpy as np

from .. import levels as L
from ..engine import (
    I_DECK, I_HAND, I_NEXT, I_UNSEEN, _apply, _begin_turn, _candidates, _copy_state, _done,
    _may_discard, _result,
)
from ..endgame import MAX_ENDGAME, _endgame_decide
from ..jit import kernel
from ..rng import _mix, _next, _shuffle
from ..search import _objective
from .base import OBJECTIVE_HELP, OBJECTIVES, Param, PlayerType
from .greedy import _greedy_action
from .random import _random_action

# the parameters' places in the kernel's array (their order in PLAYER.params)
R_N, R_BASE, R_OBJECTIVE, R_ENDGAME = 0, 1, 2, 3
BASES = ("random", "greedy")  # the base players a rollout can call
_BASE_GREEDY = BASES.index("greedy")
MAX_N = 100_000


@kernel
def _rollout(p, geo, T, deck, cand, base, seed):
    """Play ``T`` (a copy of the state after an action) to the end with the base player, the
    unseen cards coming in ``deck`` in a random order drawn from ``seed``; ``cand``: scratch for
    the cells on offer. Returns the result."""
    n = T.ints[I_UNSEEN]
    for j in range(n):
        deck[j] = T.unseen[j]
    T.rng[0] = seed
    _shuffle(T.rng, deck, n)
    T.ints[I_NEXT] = 0
    T.ints[I_DECK] = n
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, cand)
        if base == _BASE_GREEDY:
            slot, cell = _greedy_action(p, geo, T, cand, n_cand, _may_discard(p, geo, T))
        else:
            slot, cell = _random_action(T, cand, n_cand, _may_discard(p, geo, T))
        _apply(p, geo, T, slot, cell)
    return _result(p, T)


@kernel
def _rollout_action(p, geo, S, X, cand, n_cand, may_discard, prm):
    """Successive halving over the actions with rollouts; ``X.values[a]`` := (mean, P(bronze),
    P(silver), P(gold)) of action ``a`` from all its rollouts, ``X.values[a, 4]`` their count."""
    objective = _objective(p, S, np.int64(prm[R_OBJECTIVE]))
    slot, cell = _endgame_decide(p, geo, S, X, cand, n_cand, may_discard,  # exact near the end
                                 np.int64(prm[R_ENDGAME]), objective)
    if slot >= 0:
        return slot, cell
    values = X.values
    T = X.T
    budget = np.int64(prm[R_N])
    base = np.int64(prm[R_BASE])
    n_hand = S.ints[I_HAND]
    n_act = n_hand * n_cand + (1 if may_discard else 0)
    alive = X.order
    for a in range(n_act):
        alive[a] = a
        values[a, :5] = 0.0
    n_alive = n_act
    rounds = 1
    while (1 << rounds) < n_act:
        rounds += 1
    move_seed = _next(S.rng)
    done_rollouts = 0  # per surviving action so far: the same deals for every action
    for _ in range(rounds):
        if n_alive == 1:
            break
        per = max(1, budget // (n_alive * rounds))
        for q in range(n_alive):
            a = alive[q]
            if a == n_hand * n_cand:
                slot, cell = 0, -1
            else:
                slot, cell = a // n_cand, cand[a % n_cand]
            for j in range(done_rollouts, done_rollouts + per):
                _copy_state(S, T)
                _apply(p, geo, T, slot, cell)
                r = _rollout(p, geo, T, X.deck, X.cand[1], base,
                             _mix(move_seed + np.uint64(j + 1) * np.uint64(0x9E3779B97F4A7C15)))
                values[a, 0] += r
                values[a, 1] += r >= p[L.P_BRONZE]
                values[a, 2] += r >= p[L.P_SILVER]
                values[a, 3] += r >= p[L.P_GOLD]
                values[a, 4] += 1
        done_rollouts += per
        # keep the better half (insertion sort of the alive actions by their objective)
        for q in range(1, n_alive):
            x = alive[q]
            t = q
            while t > 0 and _rollout_key(values, alive[t - 1], objective) < _rollout_key(values, x, objective):
                alive[t] = alive[t - 1]
                t -= 1
            alive[t] = x
        n_alive = (n_alive + 1) // 2
    best = alive[0]
    for q in range(n_alive):  # the best survivor, by objective then mean
        a = alive[q]
        if _rollout_key(values, a, objective) > _rollout_key(values, best, objective):
            best = a
    for a in range(n_act):  # sums -> means
        cnt = values[a, 4]
        if cnt > 0:
            for q in range(4):
                values[a, q] /= cnt
    if best == n_hand * n_cand:
        return 0, -1
    return best // n_cand, cand[best % n_cand]


@kernel(inline="always")
def _rollout_key(values, a, objective):
    """Sort key of action ``a`` from its sums: the objective's mean, then the mean score as a
    small tie-break."""
    cnt = max(values[a, 4], 1.0)
    if objective == 0:
        return values[a, 0] / cnt
    return values[a, objective] / cnt + 1e-9 * values[a, 0] / cnt


PLAYER = PlayerType(
    "rollout",
    "Monte Carlo rollouts: every action is played out to the end by the base player on random "
    "orders of the unseen cards; successive halving spreads the budget",
    _rollout_action,
    {
        "n": Param(200, "rollouts per decision (about; spread over the actions)", minimum=1,
                   maximum=MAX_N),
        "base": Param("greedy", "the player of the rollouts", choices=BASES),
        "objective": Param("mean", OBJECTIVE_HELP, choices=OBJECTIVES),
        "endgame": Param(0, "when at most this many cells are empty, search the rest of the "
                            "game exactly instead (0: never)", minimum=0, maximum=MAX_ENDGAME),
    },
    looks_ahead=True, tracks=True, advises=True,
)
