"""The game loop and the parallel runner: every player plugs in here.

:func:`_choose` maps a player id to its kernel; :func:`_play_block` plays a block of seeded
games without the GIL, and is driven in chunks and on threads from Python by
:mod:`numberup.simulate`.
"""

from __future__ import annotations

import numpy as np

from . import levels as L
from .engine import (
    _apply_inline, _begin_turn, _candidates, _done, _fill_deck, _may_discard, _offered,
    _rescore_all, _result, _start,
)
from .players import (
    POLICY_EXPECTIMAX, POLICY_GREEDY, POLICY_ROLLOUT, _greedy_inline, _random_action,
)
from .search import _expectimax_action, _rollout_action
from .rng import _game_seed, _player_seed, _shuffle
from .jit import kernel


@kernel(inline="always")
def _choose(p, geo, S, T, deck, values, cand, n_cand, may_discard, policy, params):
    """The action of player ``policy`` (with its ``params``): ``(hand slot, cell or -1)``.

    ``T``, ``deck`` and ``values`` are scratch for searchers: a second state, a deck, and
    ``float64 (actions, 5)`` for each action's estimated (mean, P(bronze), P(silver), P(gold))."""
    if policy == POLICY_GREEDY:
        return _greedy_inline(p, geo, S, cand, n_cand, may_discard)
    if policy == POLICY_EXPECTIMAX:
        return _expectimax_action(p, geo, S, cand, n_cand, may_discard, params, values)
    if policy == POLICY_ROLLOUT:
        return _rollout_action(p, geo, S, T, deck, cand, n_cand, may_discard, params, values)
    return _random_action(S, cand, n_cand, may_discard)


@kernel(inline="always")
def _looks_ahead(policy):
    """Players that change the state while they decide (and restore it)."""
    return policy == POLICY_EXPECTIMAX or policy == POLICY_ROLLOUT


@kernel(inline="always")
def _tracks(policy):
    """Players that read the exact line scores as cards go down (greedy, and rollouts of it)."""
    return policy == POLICY_GREEDY or policy == POLICY_ROLLOUT


@kernel(nogil=True)
def _play_block(p, geo, S, T, deck, deck2, values, policy, params, master, first, lo, hi,
                out_seed, out_score, out_lines, out_deck, out_moves):
    """Play games ``lo .. hi-1`` of the output arrays to the end: game ``g`` there is game
    ``first + g`` of master seed ``master`` and depends on nothing else.

    ``out_deck[g]``: the shuffled deck, in draw order; ``out_moves[g]``: (card, cell) per
    decision in order, setup included (cell -1: a discard), unused rows -1; ``out_lines[g]``:
    each line's final value; ``out_score[g]``: the result. The deck comes from the game's seed,
    the player's own randomness from :func:`numberup.rng._player_seed` of it.

    ``S``, ``T`` (:func:`numberup.engine.new_state`), ``deck``, ``deck2`` (int8, 64) and
    ``values`` (float64, (MAX_ACTIONS, 5)) are the block's scratch, allocated by the caller:
    the block plays its games one after another without allocating (so without reference
    counting), and releases the GIL, so blocks run in parallel on Python threads, each writing
    only its own rows. The whole game loop lives here, with the player inlined: every function
    layer above the players recompiles all the code below it, and this keeps the first-run
    compile short.
    """
    n_lines = p[L.P_NLINES]
    track = _tracks(policy)
    for g in range(lo, hi):
        seed = _game_seed(master, np.uint64(first + g))
        out_seed[g] = seed
        n_deck = _fill_deck(p, deck)
        _start(p, geo, S, deck, n_deck, track)  # unseen cards in sorted order: no hint of the deal
        S.rng[0] = seed
        _shuffle(S.rng, deck, n_deck)
        S.rng[0] = _player_seed(seed)
        m = 0
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            if _looks_ahead(policy):  # searchers walk the tree in place: a copy of the cells
                cand = S.buf[0]
                n_cand = _candidates(geo, S, cand)
            else:
                cand, n_cand = _offered(geo, S, S.buf[0])
            slot, cell = _choose(p, geo, S, T, deck2, values, cand, n_cand,
                                 _may_discard(p, geo, S), policy, params)
            out_moves[g, m, 0] = _apply_inline(p, geo, S, slot, cell)
            out_moves[g, m, 1] = cell
            m += 1
        for k in range(m, out_moves.shape[1]):
            out_moves[g, k, 0] = -1
            out_moves[g, k, 1] = -1
        if not track:
            _rescore_all(p, geo, S)
        out_score[g] = _result(p, S)
        for k in range(n_deck):
            out_deck[g, k] = deck[k]
        for li in range(n_lines):
            out_lines[g, li] = S.line_values[li]


MAX_ACTIONS = 8 * 64 + 1  # hand slots x cells, and a discard


def max_moves(level) -> int:
    """Decisions in one game at most: a card per cell plus the discards."""
    return level.cells + level.discards
