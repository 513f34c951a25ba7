"""Nested Monte Carlo search with a registered player's playouts, the deck order known.

The beam of :mod:`numberup.analysis.foresight` ranks its states by the partial grid and
finishes them greedily, so it is only as good as a greedy finish. Here the finishes are played
by a strong player (by default ``best``'s setting of the level, the learned player on most):
nested Monte Carlo search of level 1 (Cazenave 2009) with the best sequence memorised.

From the root, the pilot plays the game out on the real deck: that game is the first result.
Then at each decision of the game the search walks, the ``width`` actions the pilot itself
ranks first (its own choice, then the best others by its values, ``X.values``) are each played
and finished by the pilot on the real deck, and the walk follows the best whole game found so
far, which therefore only improves: the result is never below the pilot's game from the root
(a game the pilot plays on this deck, with its randomness seeded from the deal). Every finish is
a legal game of the engine, with the setup, the adjacency rule, the discards and the hand.

The pilot's random stream (its random completions) is seeded per decision and per action from
``seed``, so the result depends on the deal and the seed alone, not on threads or timing.

The search is run ``restarts`` times (the first from ``seed`` itself, restart ``k`` from the
stream ``game_seed(seed, k)``) and the best game of them is kept, the first on a tie. A
restart costs as much as the first search. Restarts help where the pilot is random (the
learned player's random completions): ``best``'s own game on a deal is one draw of that
randomness, and one search from another draw can end below it (benchmarks/README.md).
"""

from __future__ import annotations

import threading

import numpy as np

from ..game import levels as L
from ..game.engine import (_apply, _begin_turn, _candidates, _done, _given_move, _hand_slot,
                           _may_discard, _start)
from ..game.levels import Level, get_level
from ..game.rng import _mix
from ..game.state import I_HAND, _copy_state
from ..game.tally import _result
from ..jit import kernel, specialize
from ..players.best import QUICK

PILOT = QUICK  # the player whose playouts the search makes, unless one is asked for
DEFAULT_WIDTH = 4  # actions tried by a playout at each decision the search walks
DEFAULT_RESTARTS = 3  # whole searches, each with its own stream; the best game of them is kept
_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@kernel(inline="always")
def _action(a, n_hand, n_cand, cand):
    """(hand slot, cell or -1) of action ``a``: the placements slot by slot over the cells
    ``cand[:n_cand]``, then the discards of each slot."""
    if a < n_hand * n_cand:
        return a // n_cand, cand[a % n_cand]
    return a - n_hand * n_cand, -1


def _finish(p, geo, T, X, deck, cand, prm, moves, m, seed):
    """Play ``T`` to its end with the pilot on the real deck (``deck``: the draw order), its
    random stream seeded from ``seed``; write the decisions to ``moves[m:]``. Returns
    (result, decisions in all).

    A template: ``_PILOT_ACTION`` is the pilot's kernel, bound by :func:`kernel_for`."""
    T.rng[0] = seed
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, cand)  # a copy: a searching pilot changes T's own lists
        slot, cell = _PILOT_ACTION(p, geo, T, X, cand, n_cand,  # noqa: F821
                                   _may_discard(p, geo, T), prm)
        moves[m, 0] = _apply(p, geo, T, slot, cell)
        moves[m, 1] = cell
        m += 1
    return _result(p, T), m


def _pilot_search(p, geo, deck, n_deck, prefix, n_prefix, width, seed, prm, X, S, T, root_cand,
                  keys, order, seq, best_seq):
    """Best game found from the position after ``prefix`` by nested Monte Carlo search of
    level 1 with the pilot's playouts (see the module).

    Parameters
    ----------
    p, geo                      the level's parameters and grid geometry
    deck : int8 (>= n_deck,)    the deck in draw order
    prefix : int8 (>= n_prefix, 2)  decisions already made, (card, cell or -1), played first
    width : int                 actions finished by the pilot at each decision
    seed : uint64               the pilot's randomness
    prm : float64               the pilot's parameters; ``X`` its scratch
    S, T : State                the walk's state and the finishes' working copy
    root_cand : int64 (cells,)  the cells on offer at the walk's decision
    keys : float64 (actions,), order : int64 (actions,)  the actions' ranks
    seq, best_seq : int8 (decisions, 2)  a finish's decisions, and the best game's

    Returns
    -------
    (result, number of decisions); result -1 << 40 if the prefix is not a game of the deck.
    The best game's decisions are in ``best_seq``, prefix included.

    A template: ``_FINISH`` is :func:`_finish` bound to the pilot, ``_PILOT_ACTION`` its kernel
    and ``_ADVISES`` whether it fills ``X.values`` (:func:`kernel_for`).
    """
    _start(p, geo, S, deck, n_deck, True)
    for m in range(n_prefix):
        _begin_turn(p, geo, S, deck)
        card, cell = prefix[m, 0], prefix[m, 1]
        slot = _given_move(p, geo, S, card, cell)
        if slot < 0:
            return -(1 << 40), m  # the prefix is not a game of this deck
        _apply(p, geo, S, slot, cell)
        best_seq[m, 0] = card
        best_seq[m, 1] = cell
        seq[m, 0] = card
        seq[m, 1] = cell
    # the pilot's own game from the root
    _copy_state(S, T)
    best, best_len = _FINISH(p, geo, T, X, deck, X.cand[0], prm, seq, n_prefix,  # noqa: F821
                             _mix(seed))
    for d in range(n_prefix, best_len):
        best_seq[d, 0] = seq[d, 0]
        best_seq[d, 1] = seq[d, 1]
    depth = n_prefix
    while not _done(p, S):
        _begin_turn(p, geo, S, deck)
        n_cand = _candidates(geo, S, root_cand)
        may = _may_discard(p, geo, S)
        n_hand = S.ints[I_HAND]
        n_act = n_hand * n_cand + (n_hand if may else 0)
        # the pilot's own ranking of the actions: its choice first, then by its values
        S.rng[0] = _mix(seed + np.uint64(depth + 1) * _GAMMA)
        c_slot, c_cell = _PILOT_ACTION(p, geo, S, X, root_cand, n_cand, may, prm)  # noqa: F821
        for a in range(n_act):
            order[a] = a
            slot, cell = _action(a, n_hand, n_cand, root_cand)
            if slot == c_slot and cell == c_cell:
                keys[a] = 1e300
            elif a <= n_hand * n_cand:  # the placements, and the discard the pilot values
                keys[a] = X.values[a, 0] if _ADVISES else 0.0  # noqa: F821
            else:
                keys[a] = -1e300  # the discard of another hand card: the pilot has no value
        n_try = min(width, n_act)
        for q in range(n_try):  # selection of the n_try best, stable
            top = q
            for r in range(q + 1, n_act):
                if keys[order[r]] > keys[order[top]]:
                    top = r
            x = order[top]
            for r in range(top, q, -1):
                order[r] = order[r - 1]
            order[q] = x
        for q in range(n_try):
            a = order[q]
            slot, cell = _action(a, n_hand, n_cand, root_cand)
            if S.hand[slot] == best_seq[depth, 0] and cell == best_seq[depth, 1]:
                continue  # the best game's own move: its finish is the best game
            _copy_state(S, T)
            seq[depth, 0] = _apply(p, geo, T, slot, cell)
            seq[depth, 1] = cell
            r, end = _FINISH(p, geo, T, X, deck, X.cand[0], prm, seq, depth + 1,  # noqa: F821
                             _mix(seed + np.uint64((depth + 1) * 1024 + a + 1) * _GAMMA))
            if r > best:
                best, best_len = r, end
                for d in range(depth, end):
                    best_seq[d, 0] = seq[d, 0]
                    best_seq[d, 1] = seq[d, 1]
        # walk on along the best game
        _apply(p, geo, S, _hand_slot(S, best_seq[depth, 0]), best_seq[depth, 1])
        seq[depth, 0] = best_seq[depth, 0]
        seq[depth, 1] = best_seq[depth, 1]
        depth += 1
    return best, best_len


_KERNELS: dict[str, object] = {}
_LOCK = threading.Lock()


def kernel_for(player):
    """The search kernel whose playouts are ``player``'s (a parsed spec, at its level:
    :func:`numberup.players.registry.at_level`): compiled, and cached, once per player kernel."""
    name = player.loop_name
    with _LOCK:
        search = _KERNELS.get(name)
        if search is None:
            finish = specialize(_finish, f"_pilot_finish_{name}", _PILOT_ACTION=player.action)
            search = _KERNELS[name] = specialize(
                _pilot_search, f"_pilot_search_{name}", _FINISH=finish,
                _PILOT_ACTION=player.action, _ADVISES=bool(player.kind.advises))
        return search


def pilot_player(level: int | Level, spec: str = PILOT):
    """The player ``spec`` plays as on ``level`` (``best``: its setting there)."""
    from ..players.registry import at_level, parse_player

    return at_level(parse_player(spec), get_level(level).number)


def restart_seed(seed: int, k: int) -> int:
    """The stream of restart ``k`` of a search seeded ``seed`` (restart 0: ``seed`` itself)."""
    from ..game.rng import game_seed

    return int(seed) % 2**64 if k == 0 else game_seed(int(seed), k)


def pilot_search(level: int | Level, deck: np.ndarray, seed: int = 0, pilot: str = PILOT,
                 width: int = DEFAULT_WIDTH, prefix=None,
                 restarts: int = DEFAULT_RESTARTS):
    """(found result, moves int8 (decisions, 2)): nested Monte Carlo search with ``pilot``'s
    playouts (a player spec) on ``deck`` (draw order) after the decisions ``prefix`` (rows
    (card, cell or -1), default none), ``width`` actions finished at each decision, the
    pilot's randomness from ``seed``; the best of ``restarts`` searches, restart ``k`` from
    :func:`restart_seed` (the first best on a tie)."""
    from ..game.grid import geometry
    from ..game.state import new_state
    from ..players.scratch import max_actions, new_scratch
    from ..runs.loop import max_moves

    lv = get_level(level)
    if int(width) < 1:
        raise ValueError(f"the pilot search's width must be at least 1, not {width}")
    if int(restarts) < 1:
        raise ValueError(f"the pilot search's restarts must be at least 1, not {restarts}")
    player = pilot_player(lv, pilot)
    run = kernel_for(player)
    pre = np.zeros((0, 2), np.int8) if prefix is None else np.asarray(prefix, np.int8).reshape(-1, 2)
    d = np.zeros(64, np.int8)
    d[: len(deck)] = deck
    n_moves = max_moves(lv)
    seq = np.full((n_moves + 1, 2), -1, np.int8)
    best = np.full((n_moves + 1, 2), -1, np.int8)
    actions = max_actions(lv) + max(lv.hand, 1)
    args = (new_scratch(lv, player), new_state(lv.cells), new_state(lv.cells),
            np.zeros(lv.cells, np.int64), np.zeros(actions, np.float64),
            np.zeros(actions, np.int64), seq, best)
    found, moves = None, None
    for k in range(int(restarts)):
        got, n = run(L.PARAMS[lv.number], geometry(lv.size), d, len(deck), pre, len(pre),
                     int(width), np.uint64(restart_seed(seed, k)), player.params, *args)
        if n == 0 or got <= -(1 << 39):
            raise ValueError("the decisions given are not a game of this deck")
        if found is None or got > found:
            found = int(got)
            moves = best[:n_moves].copy()
            moves[n:] = -1
    return found, moves
