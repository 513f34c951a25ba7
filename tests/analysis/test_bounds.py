"""The upper bounds of the foresight search (numberup.analysis.bounds) against every line of a
small pool and every split of a small case, scored by the reference scorer
(tests/oracles/reference.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from numberup.analysis import bounds, hindsight
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from oracles.reference import ref_line, ref_value


def _card(cid):
    return (int(cid) // 8 + 1, int(cid) % 8)


@pytest.mark.parametrize("level", [2, 4, 13, 16])
def test_line_max_is_at_least_every_line_of_the_pool(level):
    """The relaxed line cap against every line (every order) of a small pool, scored by the
    reference scorer."""
    lv = get_level(level)
    rng = np.random.default_rng(level)
    deck = hindsight.deal(level, 5, 0)
    pool = np.sort(rng.choice(deck, size=7, replace=False)).astype(np.int8)
    value, _ = bounds._line_max(bounds.relaxed_params(lv),
                                 geometry(lv.size).lines,
                                 pool, len(pool))
    best = max(ref_value(*ref_line(level, [_card(c) for c in perm]))
               for combo in itertools.combinations(pool, lv.size)
               for perm in itertools.permutations(combo))
    assert value >= best
    if lv.rule not in bounds.RELAXED:  # order-free rules: the cap is the exact best line
        assert value == best


def test_row_partition_bound_against_every_split():
    """The partition table on a small case: 10 cards split into two lines of 5, every split
    tried with the reference scorer."""
    lv = get_level(7)
    table = bounds._partition(7)
    counts = [3, 2, 2, 2, 1]  # values 1..5
    cards = [(v + 1, c) for v in range(5) for c in range(counts[v])]
    best = max(ref_value(*ref_line(7, list(a))) + ref_value(*ref_line(7, [x for x in cards if x not in a]))
               for a in itertools.combinations(cards, 5))
    s = sum(counts[v] * (lv.colours + 1) ** v for v in range(5))
    assert table[2, s] == best
