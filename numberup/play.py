"""The game loop and the parallel runner: every player plugs in here.

:func:`_choose` maps a player id to its kernel; :func:`_play_game` plays one seeded game;
:func:`_play_games` plays a block of games in parallel, each thread writing its own slots, and
is driven in chunks from Python by :mod:`numberup.simulate`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import levels as L
from .engine import (
    I_TRACK, _apply, _begin_turn, _candidates, _done, _fill_deck, _may_discard, _rescore_all,
    _result, _start, new_state,
)
from .players import (
    POLICY_EXPECTIMAX, POLICY_GREEDY, POLICY_ROLLOUT, _greedy_action, _random_action,
)
from .search import _expectimax_action, _rollout_action
from .rng import _game_seed, _player_seed, _shuffle
from .jit import kernel


@kernel
def _choose(p, geo, S, T, deck, values, cand, n_cand, may_discard, policy, params):
    """The action of player ``policy`` (with its ``params``): ``(hand slot, cell or -1)``.

    ``T``, ``deck`` and ``values`` are scratch for searchers: a second state, a deck, and
    ``float64 (actions, 5)`` for each action's estimated (mean, P(bronze), P(silver), P(gold))."""
    if policy == POLICY_GREEDY:
        return _greedy_action(p, geo, S, cand, n_cand, may_discard)
    if policy == POLICY_EXPECTIMAX:
        return _expectimax_action(p, geo, S, cand, n_cand, may_discard, params, values)
    if policy == POLICY_ROLLOUT:
        return _rollout_action(p, geo, S, T, deck, cand, n_cand, may_discard, params, values)
    return _random_action(S, cand, n_cand, may_discard)


@kernel
def _tracks(policy):
    """Players that read the exact line scores as cards go down (greedy, and rollouts of it)."""
    return policy == POLICY_GREEDY or policy == POLICY_ROLLOUT


@kernel
def _play_game(p, geo, S, T, deck, deck2, values, seed, policy, params, moves):
    """Play the game with this seed to the end.

    Parameters
    ----------
    deck : int8 (>= deck size,)
        Filled with the shuffled deck, in draw order.
    seed : uint64
        The game's seed: the deck comes from it, the player's stream from
        :func:`numberup.rng._player_seed` of it.
    moves : int8 (max moves, 2)
        Filled with (card, cell) per decision in order, setup included (cell -1: a discard);
        unused rows -1.

    Returns
    -------
    int
        The game result.
    """
    n_deck = _fill_deck(p, deck)
    # unseen cards listed in sorted order: no hint of the deal
    _start(p, geo, S, deck, n_deck, _tracks(policy))
    S.rng[0] = seed
    _shuffle(S.rng, deck, n_deck)
    S.rng[0] = _player_seed(seed)
    cand = S.buf[0]
    m = 0
    while not _done(p, S):
        _begin_turn(p, geo, S, deck)
        n_cand = _candidates(geo, S, cand)
        slot, cell = _choose(p, geo, S, T, deck2, values, cand, n_cand, _may_discard(p, geo, S),
                             policy, params)
        moves[m, 0] = _apply(p, geo, S, slot, cell)
        moves[m, 1] = cell
        m += 1
    moves[m:, :] = -1
    if not S.ints[I_TRACK]:
        _rescore_all(p, geo, S)
    return _result(p, S)


@njit(cache=True, parallel=True, error_model="numpy")
def _play_games(p, geo, policy, params, master, first, n_blocks,
                out_seed, out_score, out_lines, out_deck, out_moves):
    """Play games ``first .. first + len(out_score) - 1`` of master seed ``master``.

    The games are split into ``n_blocks`` contiguous blocks run in parallel; each block
    allocates one state and plays its games one after another. Game ``g`` depends only on
    ``(master, first + g)``, so results do not depend on ``n_blocks`` or on the threads.
    """
    n_games = out_score.shape[0]
    cells = p[L.P_SIZE] * p[L.P_SIZE]
    n_lines = p[L.P_NLINES]
    for b in prange(n_blocks):
        S = new_state(cells)
        T = new_state(cells)
        deck = np.empty(64, np.int8)
        deck2 = np.empty(64, np.int8)
        values = np.zeros((MAX_ACTIONS, 5), np.float64)
        n_deck = p[L.P_VALUES] * p[L.P_COLOURS]
        for g in range(n_games * b // n_blocks, n_games * (b + 1) // n_blocks):
            seed = _game_seed(master, np.uint64(first + g))
            out_seed[g] = seed
            out_score[g] = _play_game(p, geo, S, T, deck, deck2, values, seed, policy, params,
                                      out_moves[g])
            out_deck[g, :] = deck[:n_deck]
            out_lines[g, :] = S.line_values[:n_lines]


MAX_ACTIONS = 8 * 64 + 1  # hand slots x cells, and a discard


def max_moves(level) -> int:
    """Decisions in one game at most: a card per cell plus the discards."""
    return level.cells + level.discards
