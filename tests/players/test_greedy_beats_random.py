"""Greedy beats random on every level, paired on the same decks (a 95% interval above 0)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]


PAIRED_GAMES = 300


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_greedy_beats_random(level):
    lv = get_level(level)
    rnd = play_batch(lv, parse_player("random"), 2024, 0, PAIRED_GAMES, 8)
    grd = play_batch(lv, parse_player("greedy"), 2024, 0, PAIRED_GAMES, 8)
    assert np.array_equal(rnd.decks, grd.decks)
    diff = grd.scores.astype(float) - rnd.scores.astype(float)
    mean = diff.mean()
    se = diff.std(ddof=1) / math.sqrt(len(diff))
    lo = mean - 1.96 * se
    assert mean > 0 and lo > 0, (
        f"level {level}: greedy - random = {mean:.2f} (95% interval {lo:.2f} .. "
        f"{mean + 1.96 * se:.2f}) over {len(diff)} paired games; greedy mean "
        f"{grd.scores.mean():.1f}, random mean {rnd.scores.mean():.1f}"
    )
