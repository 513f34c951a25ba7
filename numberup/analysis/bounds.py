"""Proven upper bounds on the foresight optimum of a deal, from relaxations.

Every bound here drops rules, so it can only be at or above the best legal game:

- **Line cap** (every level). Each line holds ``size`` cards drawn from a known pool: the cards
  that can reach the grid at all (on draw-and-place levels exactly the first ``cells`` cards of
  the deck, plus the next ``discards`` where cards may be discarded; with a hand of five, the
  whole deck). A line's value is at most the best value of any ``size`` cards of the pool, with
  the rules that depend on the cards' order relaxed to their order-free form (a run of
  neighbouring same-colour cards is a set of same-colour cards, a street of neighbouring cells
  is a street anywhere in the line): ``max_line``. Then the result is at most lines x
  ``max_line`` (summed levels), 10 x ``max_line`` (lowest line) or 10 x lines x the most
  checkmarkers of a line (checkmarker levels). On 6x6 grids the pool is the whole deck (the
  same bound for every deal), so that 5 million line scores are computed once per level.
- **Row partition** (chapter 2, colours play no role). The rows split the placed cards into
  ``size`` groups of ``size`` cards, and so do the columns. The best split of the placed cards'
  value counts into such groups (a dynamic programme over value-count vectors) bounds the sum
  of the row values, and the same figure bounds the columns: the result is at most twice it.
  On these levels the placed cards are exactly the first ``cells`` of the deck.
- **Design** (chapter 2, where the package's table has the deal's value counts): the best
  layout of the placed values, order and adjacency dropped, solved once per count vector
  (:mod:`numberup.analysis.design`).
- **Crossing** (chapter 2, from the package's table): the row partition and the column
  partition together, each value's row and column counts those of one 0/1 matrix
  (:mod:`numberup.analysis.crossing`).
- **Colour supply** (levels 1, 2, 4, 5): what each colour's cards can give the rows and the
  columns at once (:mod:`numberup.analysis.supply`).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from ..game import levels as L
from ..game.levels import Level, get_level
from ..game.scoring import _line_score, _line_value

# The order-free relaxation of each rule whose lines depend on the cards' order.
RELAXED = {L.RULE_COLOUR_RUN_SUM: L.RULE_COLOUR_SUM, L.RULE_RUN_X_RUN: L.RULE_COUNT_X_COUNT,
           L.RULE_STREET_RUN: L.RULE_STREET_ANY}
PARTITION_RULES = (L.RULE_PAIRS, L.RULE_ONES_TRIPLET, L.RULE_ONES_TRIPLET_MINUS, L.RULE_SINGLES)


def relaxed_params(level: Level) -> np.ndarray:
    """The level's parameter row with its line rule replaced by the order-free relaxation."""
    p = L.PARAMS[level.number].copy()
    p[L.P_RULE] = RELAXED.get(level.rule, level.rule)
    return p


@njit(cache=True, nogil=True)
def _line_max(p, lines, pool, n_pool):
    """(largest line value, most checkmarkers) over every ``size`` cards of ``pool[:n_pool]``.

    ``p``: the (relaxed) level row; ``lines``: the geometry's line table (line 0 is row 0).
    """
    n = p[L.P_SIZE]
    grid = np.full(n * n, -1, np.int8)
    idx = np.arange(n)
    best_value, best_markers = -(1 << 30), -(1 << 30)
    if n_pool < n:
        return best_value, best_markers
    while True:
        for k in range(n):
            grid[k] = pool[idx[k]]
        points, markers = _line_score(p, grid, lines, np.int64(0), n)
        value = _line_value(points, markers)
        best_value = max(best_value, value)
        best_markers = max(best_markers, markers)
        k = n - 1
        while k >= 0 and idx[k] == n_pool - n + k:
            k -= 1
        if k < 0:
            break
        idx[k] += 1
        for j in range(k + 1, n):
            idx[j] = idx[j - 1] + 1
    return best_value, best_markers


def pool(level: Level, deck: np.ndarray) -> np.ndarray:
    """The cards that can reach the grid on this deal (see the module's doc), sorted."""
    if level.size == 6 or level.hand:
        return np.sort(np.asarray(deck, np.int8))
    return np.sort(np.asarray(deck[: level.cells + level.discards], np.int8))


@cache
def _deck_line_max(number: int) -> tuple[int, int]:
    from ..game.engine import _fill_deck
    from ..game.grid import geometry

    lv = get_level(number)
    deck = np.zeros(64, np.int8)
    n = _fill_deck(L.PARAMS[number], deck)
    v, m = _line_max(relaxed_params(lv), geometry(lv.size).lines, deck, n)
    return int(v), int(m)


def line_max(level: int | Level, deck: np.ndarray) -> tuple[int, int]:
    """(largest value, most checkmarkers) a line can have on this deal (relaxed rules)."""
    from ..game.grid import geometry

    lv = get_level(level)
    if lv.size == 6 or lv.hand:
        return _deck_line_max(lv.number)
    cards = pool(lv, deck)
    v, m = _line_max(relaxed_params(lv), geometry(lv.size).lines, cards, len(cards))
    return int(v), int(m)


def line_cap(level: int | Level, deck: np.ndarray) -> int:
    """The line-cap bound of the result of any game on this deal."""
    lv = get_level(level)
    value, markers = line_max(lv, deck)
    n_lines = int(L.PARAMS[lv.number][L.P_NLINES])
    if lv.aggregation == L.AGG_MIN_X10:
        return 10 * value
    if lv.aggregation == L.AGG_MARKERS_X10:
        return 10 * n_lines * max(markers, 0)
    return n_lines * value


# ---------------------------------------------------------------------------------------------
# Row partition (chapter 2)


@njit(cache=True)
def _partition_table(p, lines, values, base, modes, mode_value):
    """``best[r, s]``: the largest sum of ``r`` line values over splits of the value counts
    ``s`` (digits base ``base``, digit v-1 = cards of value v) into ``r`` lines of ``size``
    cards; -inf (a large negative) where ``s`` cannot be split so."""
    n = p[L.P_SIZE]
    n_states = base ** values
    neg = -(1 << 40)
    best = np.full((n + 1, n_states), neg, np.int64)
    best[0, 0] = 0
    digits = np.zeros(values, np.int64)
    for r in range(1, n + 1):
        for s in range(n_states):
            x = s
            total = 0
            for v in range(values):
                digits[v] = x % base
                x //= base
                total += digits[v]
            if total != n * r:
                continue
            top = neg
            for k in range(modes.shape[0]):
                ok = True
                t = 0
                mul = 1
                for v in range(values):
                    if modes[k, v] > digits[v]:
                        ok = False
                        break
                    t += (digits[v] - modes[k, v]) * mul
                    mul *= base
                if ok and best[r - 1, t] > neg:
                    top = max(top, mode_value[k] + best[r - 1, t])
            best[r, s] = top
    return best


@cache
def _partition(number: int) -> np.ndarray:
    from ..game.grid import geometry

    from .crossing import mode_values

    lv = get_level(number)
    modes, values = mode_values(number)
    return _partition_table(L.PARAMS[number], geometry(lv.size).lines, lv.values, lv.colours + 1,
                            np.array(modes, np.int64), np.array(values, np.int64))


def row_partition(level: int | Level, deck: np.ndarray) -> int | None:
    """The row-partition bound on this deal (chapter 2 levels), else None."""
    lv = get_level(level)
    if lv.rule not in PARTITION_RULES or lv.discards or lv.hand or lv.aggregation != L.AGG_SUM:
        return None
    counts = np.zeros(lv.values, np.int64)
    for c in deck[: lv.cells]:
        counts[int(c) // 8] += 1
    s = int(sum(int(counts[v]) * (lv.colours + 1) ** v for v in range(lv.values)))
    return 2 * int(_partition(lv.number)[lv.size, s])


def bound(level: int | Level, deck: np.ndarray) -> int:
    """The tightest proven upper bound known here for every game on this deal."""
    from . import crossing, design, supply

    lv = get_level(level)
    return min(b for b in (line_cap(lv, deck), row_partition(lv, deck), design.bound(lv, deck),
                           crossing.bound(lv, deck), supply.bound(lv, deck))
               if b is not None)
