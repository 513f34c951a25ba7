"""Every completion of a line by the cards to come, scored by the reference scorer
(:mod:`oracles.reference`): what the line estimates of numberup.evaluation and the learned
look at the next card (numberup.learned.lookahead) are checked against; and the positions
(numberup's arrays) they are checked on."""

import itertools
import math

import numpy as np

import oracles.learned_reference as REF
import oracles.reference as R

from numberup.game import levels as L
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.game.state import new_state
from numberup.players.scratch import new_scratch

MAX_SUBSETS = 4000  # completions a brute-force check may enumerate


def card(cid):
    """numberup's card id as the reference's (value, colour); None for an empty cell (-1)."""
    return None if cid < 0 else (cid // 8 + 1, cid % 8)


def contribution(level, cells):
    """What a full line adds, by the reference scorer: its value, or 10 x checkmarkers."""
    points, markers = R.ref_line(level, cells)
    if R.LEVELS[level].aggregation == "checks":
        return 10.0 * max(markers, 0), R.ref_value(points, markers)
    v = R.ref_value(points, markers)
    return float(v), v


def brute_force(level, cells, pool):
    """Every completion of the line (``cells``: card ids, -1 empty) by distinct cards of
    ``pool``: (contributions, values), one of each per completion (order does not matter to
    these checks: each subset is laid on the empty cells in every order)."""
    empty = [i for i, c in enumerate(cells) if c < 0]
    contributions, values = [], []
    for combo in itertools.permutations(pool, len(empty)):
        line = list(cells)
        for i, c in zip(empty, combo):
            line[i] = c
        c, v = contribution(level, [card(x) for x in line])
        contributions.append(c)
        values.append(v)
    return np.array(contributions), np.array(values)


def random_lines(level, rng, want, max_empty=None):
    """Positions of ``level``: (grid, line index, pool) with the line's completions few
    enough to enumerate; ``want`` of them. ``max_empty``: the line's empty cells at most."""
    lv = get_level(level)
    geo = geometry(lv.size)
    deck = [(v - 1) * 8 + c for v in range(1, lv.values + 1) for c in range(lv.colours)]
    out = []
    while len(out) < want:
        grid, _, pool = REF.random_grid(lv, rng, deck, min_pool=1)
        li = rng.randrange(int(L.PARAMS[level][L.P_NLINES]))
        e = sum(grid[c] < 0 for c in geo.lines[li][:lv.size])
        if max_empty is not None and e > max_empty:
            continue
        if e > len(pool) or math.perm(len(pool), e) > MAX_SUBSETS:
            continue
        out.append((grid, li, list(pool)))
    return out


def scratch(level):
    """(level, params, geometry, a new state, a new scratch) for ``level``."""
    lv = get_level(level)
    return lv, L.PARAMS[level], geometry(lv.size), new_state(lv.cells), new_scratch(lv)


def load(S, X, grid, pool):
    """Put ``grid`` on the state and ``pool`` in the scratch; the pool's size."""
    S.grid[:] = grid
    X.pool[:len(pool)] = pool
    return len(pool)


def mean_with_repeats(level, cells, pool):
    """The mean contribution of a line's completions from ``pool`` (repeats of a card on the
    line allowed, as the searchers' pools hold the card being tried: value-count rules read
    values only, so a repeat is scored as another card of its value)."""
    lv = R.LEVELS[level]
    empty = [i for i, c in enumerate(cells) if c < 0]
    total, count = 0.0, 0
    for combo in itertools.combinations(pool, len(empty)):
        line = list(cells)
        for i, c in zip(empty, combo):
            line[i] = c
        cards, seen = [], set()
        for c in line:  # a repeat takes a colour of its value not on the line
            value, colour = c // 8 + 1, c % 8
            while (value, colour) in seen:
                colour = (colour + 1) % lv.colours
            seen.add((value, colour))
            cards.append((value, colour))
        total += contribution(level, cards)[0]
        count += 1
    return total / count
