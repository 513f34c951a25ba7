"""What a player reaches from a position: continuations of the game by that player.

An action's estimate is the mean over ``m`` *continuations*: the action is played, then the
named player plays the rest of the game, the cards still to come arriving in a random order
(every order equally likely, as in a real game). So the numbers are that player's own results
from here, not a searcher's internal scores: ``advise`` shows them, and ``numberup calibrate``
checks them against how games of that player really ended.

Continuation ``j`` of every action uses the same order of the cards to come (common random
numbers: two actions are compared on the same luck) and the same player stream. Before it,
the orders a state's history leaves in it (legal cells, cards to come, hand) are sorted, so a
continuation depends on the position and its seed alone, not on how the state was built.

:func:`play_on` returns the compiled kernel of a player (a template specialized per player,
as :func:`numberup.runs.loop.game_loop`); :func:`continuations` runs it and :func:`summarize`
turns results into the estimate shown.
"""

from __future__ import annotations

import math
import threading

import numpy as np

from ..game import levels as L
from ..game.engine import (
    _apply, _apply_inline, _begin_turn, _candidates, _done, _may_discard, _offered,
)
from ..jit import kernel, specialize
from ..game.rng import _mix, _shuffle
from ..game.state import I_DECK, I_HAND, I_LEGAL, I_NEXT, I_UNSEEN, _copy_state
from ..game.tally import _rescore_all, _result

_STREAM = np.uint64(0x6A09E667F3BCC909)  # the continuations' seeds, apart from the searcher's
_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@kernel(inline="always")
def _sort_set(items, pos, n):
    """Sort the indexed set ``items[:n]`` (``pos[x]``: the index of ``x``) in place."""
    for i in range(1, n):
        x = items[i]
        t = i
        while t > 0 and items[t - 1] > x:
            items[t] = items[t - 1]
            t -= 1
        items[t] = x
    for i in range(n):
        pos[items[i]] = i


@kernel(inline="always")
def _canonical(T):
    """Put the orders that a state's history leaves in it (the legal cells, the cards to come,
    the hand) in sorted order: what a player does from here then depends on the position
    alone, however the state was built."""
    _sort_set(T.legal, T.legal_pos, T.ints[I_LEGAL])
    _sort_set(T.unseen, T.unseen_pos, T.ints[I_UNSEEN])
    n = T.ints[I_HAND]
    for i in range(1, n):
        x = T.hand[i]
        t = i
        while t > 0 and T.hand[t - 1] > x:
            T.hand[t] = T.hand[t - 1]
            t -= 1
        T.hand[t] = x


def _play_on(p, geo, S, T, X, deck, params, slot, cell, seeds, out):
    """``out[j]`` := the result of continuation ``j`` (``j < len(out)``): on a copy ``T`` of
    ``S``, play hand ``slot`` on ``cell`` (-1: discard), then the player plays to the end,
    the cards to come in an order drawn from ``seeds[j]`` (uint64).

    ``T`` (a state of ``S``'s size), ``X`` (the player's scratch) and ``deck`` (int8, the
    level's deck size) are working arrays; ``S`` is left as it was. A template:
    ``_PLAYER_ACTION``, ``_LOOKS_AHEAD`` and ``_TRACKS`` are the player's (:func:`play_on`).
    """
    for j in range(out.shape[0]):
        _copy_state(S, T)
        _apply(p, geo, T, slot, cell)
        _canonical(T)
        n = T.ints[I_UNSEEN]
        for i in range(n):
            deck[i] = T.unseen[i]
        T.rng[0] = seeds[j]
        _shuffle(T.rng, deck, n)
        T.ints[I_NEXT] = 0
        T.ints[I_DECK] = n
        while not _done(p, T):
            _begin_turn(p, geo, T, deck)
            if _LOOKS_AHEAD:  # noqa: F821  (searchers walk the tree in place: a copy of the cells)
                cand = X.cand[0]
                n_cand = _candidates(geo, T, cand)
            else:
                cand, n_cand = _offered(geo, T, X.cand[0])
            s, c = _PLAYER_ACTION(p, geo, T, X, cand, n_cand,  # noqa: F821
                                  _may_discard(p, geo, T), params)
            _apply_inline(p, geo, T, s, c)
        if not _TRACKS:  # noqa: F821
            _rescore_all(p, geo, T)
        out[j] = _result(p, T)


_KERNELS: dict[str, object] = {}
_LOCK = threading.Lock()


def play_on(player):
    """The compiled continuation kernel of ``player`` (a parsed
    :class:`~numberup.players.base.Player`): :func:`_play_on` with its kernel inlined."""
    with _LOCK:
        fn = _KERNELS.get(player.loop_name)
        if fn is None:
            fn = _KERNELS[player.loop_name] = specialize(
                _play_on, f"_play_on_{player.loop_name}", jit=kernel(nogil=True),
                _PLAYER_ACTION=player.action, _LOOKS_AHEAD=player.kind.looks_ahead,
                _TRACKS=player.kind.tracks)
        return fn


def seeds(seed: int, m: int) -> np.ndarray:
    """The ``m`` continuation seeds (uint64) of master ``seed``: the same for every action."""
    base = int(_mix(np.uint64(seed % 2**64) ^ _STREAM))
    return np.array([int(_mix(np.uint64((base + (j + 1) * int(_GAMMA)) % 2**64)))
                     for j in range(m)], dtype=np.uint64)


class Continuer:
    """Continuations of games of one level by one player, with its working arrays
    (one game at a time: one Continuer per thread)."""

    def __init__(self, level, player):
        from ..game.grid import geometry
        from ..players.scratch import new_scratch
        from ..game.state import new_state

        self.level, self.player = level, player
        self.p, self.geo = L.PARAMS[level.number], geometry(level.size)
        self.T = new_state(level.cells)
        self.X = new_scratch(level, player)
        self.deck = np.zeros(level.deck_size, np.int8)
        self.kernel = play_on(player)

    def results(self, S, slot: int, cell: int, seed_array: np.ndarray) -> np.ndarray:
        """The results (float64, one per seed) of playing ``(slot, cell)`` in state ``S``
        and continuing as the player."""
        out = np.zeros(len(seed_array), np.float64)
        self.kernel(self.p, self.geo, S, self.T, self.X, self.deck, self.player.params,
                    np.int64(slot), np.int64(cell), seed_array, out)
        return out


class Continuers:
    """:class:`Continuer` on ``jobs`` threads: the seeds split into contiguous slices, the
    results put back in seed order, so they do not depend on ``jobs``."""

    def __init__(self, level, player, jobs: int = 1):
        self.units = [Continuer(level, player) for _ in range(max(1, jobs))]
        self.kernel = self.units[0].kernel

    def results(self, S, slot: int, cell: int, seed_array: np.ndarray) -> np.ndarray:
        m, k = len(seed_array), len(self.units)
        if k == 1 or m < 2 * k:
            return self.units[0].results(S, slot, cell, seed_array)
        from concurrent.futures import ThreadPoolExecutor

        cuts = [m * i // k for i in range(k + 1)]
        with ThreadPoolExecutor(k) as pool:
            parts = pool.map(lambda i: self.units[i].results(S, slot, cell,
                                                            seed_array[cuts[i]:cuts[i + 1]]),
                             range(k))
            return np.concatenate(list(parts))


def summarize(results: np.ndarray, medals) -> dict:
    """The estimate from continuation results: ``mean``, ``p_bronze``, ``p_silver``,
    ``p_gold``, ``n``, and the 95% Monte Carlo margins ``mean_moe`` (normal) and
    ``p_gold_lo``/``p_gold_hi`` (Wilson)."""
    from ..stats import Z95, wilson

    r = np.asarray(results, np.float64)
    n = len(r)
    out = {"mean": float(r.mean())}
    for name, t in zip(("p_bronze", "p_silver", "p_gold"), medals):
        out[name] = float((r >= t).mean())
    out["n"] = n
    out["mean_moe"] = Z95 * float(r.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    out["p_gold_lo"], out["p_gold_hi"] = wilson(int((r >= medals[2]).sum()), n)
    return out
