"""Seeding: the game seeds are pinned (a change changes every published result), differ from
game to game and from master seed to master seed, and seed 0 still shuffles."""

from __future__ import annotations

import numpy as np

from numberup.game.levels import get_level
from numberup.game.rng import game_seed
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch


def test_game_seed_pinned():
    # pinned: a change to the seeding changes every published result
    assert game_seed(0, 0) == 11736287521897286111
    assert game_seed(0, 1) == 10874952478317988202
    assert game_seed(7, 0) == 2522958211821140835
    assert game_seed(1, 0) != game_seed(0, 0)


def test_game_seeds_differ():
    for master in (0, 1, 7, 2**64 - 1):
        seeds = [game_seed(master, g) for g in range(2000)]
        assert len(set(seeds)) == len(seeds), f"master {master}: repeated game seeds"
    assert len({game_seed(m, 0) for m in range(2000)}) == 2000


def test_seed_zero_still_shuffles():
    b = play_batch(get_level(1), parse_player("random"), 0, 0, 2, 1)
    assert int(b.seeds[0]) == game_seed(0, 0) != 0
    assert not np.array_equal(b.decks[0], np.sort(b.decks[0]))
    assert not np.array_equal(b.decks[0], b.decks[1])
