"""Counter-based random numbers of our own, reproducible under any threading.

numba's global ``np.random`` is per-thread state and not reproducible under ``prange``, so
every random draw here comes from an explicit ``uint64`` state array (one word per stream)
advanced by SplitMix64. Game ``i`` of a run with master seed ``S`` is seeded from ``(S, i)``
alone (:func:`game_seed`), so per-game results do not depend on jobs, chunks or machine.
Two streams per game: the deck's (shuffle) and the player's (tie-breaks, rollouts), so every
player sees the same deck for the same seed.
"""

from __future__ import annotations

import numpy as np
from ..jit import kernel

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_PLAYER = np.uint64(0xD1B54A32D192ED03)
_SALT = np.uint64(0x2545F4914F6CDD1D)


@kernel(inline="always")
def _mix(z):
    """SplitMix64's finaliser: a bijection of uint64 with good avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def _game_seed(master, game):
    """The seed of game ``game`` of a run with master seed ``master`` (both uint64)."""
    return _mix(_mix(master ^ _SALT) + (np.uint64(game) + np.uint64(1)) * _GAMMA)


@kernel
def _player_seed(seed):
    """The player's stream, independent of the deck's stream for the same game seed."""
    return _mix(seed ^ _PLAYER)


@kernel(inline="always")
def _next(state):
    """Advance ``state`` (uint64 array, length >= 1) and return 64 random bits."""
    state[0] += _GAMMA
    return _mix(state[0])


@kernel(inline="always")
def _below(state, n):
    """A random integer in [0, n), n < 2**32 (multiply-shift; bias below 2**-26 for n <= 64)."""
    return np.int64(((_next(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def _shuffle(state, a, n):
    """Fisher-Yates shuffle of the first ``n`` entries of ``a`` in place."""
    for i in range(n - 1, 0, -1):
        j = _below(state, i + 1)
        a[i], a[j] = a[j], a[i]


def game_seed(master: int, game: int) -> int:
    """Python face of :func:`_game_seed`: ``game_seed(0, 0)`` is the same on every machine."""
    return int(_game_seed(np.uint64(master % 2**64), np.uint64(game)))
