"""A line's value distribution on the neighbouring-street rule (levels 18-20), by a chain over
its cells instead of sampled completions.

On ``RULE_STREET_RUN`` a line's value is its most valuable street: a run of neighbouring cells
of one colour whose values go up (or down) by one. The learned player judges an open line by
its random completions (:mod:`numberup.evaluation.completions`); there, ``k`` stratified
completions leave noise that costs play: on level 20, scored by its lowest line, P(gold) rises
about 2 points each time ``k`` is quadrupled, up to ``k=4096`` (``results/strongest.md``).

Here the empty cells are filled one after the other, left to right, each with a card of the
pool (the decision's cards to come) drawn uniformly, **but never the card just laid on the
empty cell before it**. Whether two neighbours link into a street then has exactly the
probability it has among distinct cards; what the chain does not rule out is the same card on
two empty cells further apart, which the completions of the game never hold. So the result is
not the completions' expectation exactly, but close to it (within half a point of the mean on
pools of 12 cards or more: tests/evaluation/test_streets.py) and without noise, at a cost
between 64 completions' and 256's (benchmarks/README.md, "Learned player").

The state after a cell is (the card on it, the run it ends: none, up by ``L`` cards or down by
``L``, the line's best street value so far), with its probability. The value of a run is scored
as it grows, by the rule's own :func:`numberup.game.scoring._street_value`, so a line's value is
the best of its runs, as :func:`numberup.game.scoring._street_run` scores a full line. A new
card either carries a run on (the one card of its colour a value above or below the card before
it) or starts afresh; the mass that starts afresh on a card is the total mass at each best value
less the mass of the states it would carry on from, so a cell costs the pool's cards times the
best values, not their square.

The estimate fills ``line_eval[li]`` as the completions do (mean, variance, P(value >= the
bronze/silver/gold line targets), and on levels scored by the lowest line P(value >= t) for
every t). The player asks for it with ``exact=2`` (:mod:`numberup.players.learned`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..game import levels as L
from ..game.scoring import _street_value
from ..game.state import MAX_LINE_CELLS, N_IDS
from ..jit import kernel
from .exact import _finish
from .layout import DIST_HI, DIST_LO

RUNS = 1 + 2 * (MAX_LINE_CELLS - 1)  # 0: a lone card; then up by 2, down by 2, up by 3, ...


class Streets(NamedTuple):
    """The chain's working arrays for one level (:func:`new_streets`); empty on other rules.

    cat : int64 (DIST_HI - DIST_LO + 1,)   a line value ``v``'s category, at ``v - DIST_LO``
                                           (categories in the order of the values)
    value : int64 (B,)                     each category's line value
    mass : float64 (2, N_IDS, RUNS, B)     the states before and after a cell: card, run,
                                           best value so far
    total : float64 (B,)                   the mass at each best value (before a cell)
    by_card : float64 (N_IDS, B)           ... and of the states on each card
    weight : float64 (N_IDS,)              each card's probability on an empty cell
    cards : int64 (2, N_IDS)               the cards the states are on, before and after
    prob : float64 (DIST_HI - DIST_LO + 1,)  the line's value distribution, at ``v - DIST_LO``
                                           (as :class:`numberup.evaluation.exact.Exact`'s)
    """

    cat: np.ndarray
    value: np.ndarray
    mass: np.ndarray
    total: np.ndarray
    by_card: np.ndarray
    weight: np.ndarray
    cards: np.ndarray
    prob: np.ndarray


def line_values(number: int) -> list[int]:
    """Every value a line of level ``number`` can take on the neighbouring-street rule, in
    order: a minus marker (no street), and every street's value."""
    lv = L.LEVELS[number - 1]
    p = L.PARAMS[number]
    out = {DIST_LO}
    for k in range(2, lv.size + 1):
        for first in range(1, lv.values - k + 2):
            total = k * (2 * first + k - 1) // 2
            value, _ = _street_value(p, k, total)
            out.add(int(value))
    return sorted(out)


def new_streets(level) -> Streets:
    """Allocate the :class:`Streets` of ``level`` (a :class:`~numberup.game.levels.Level`):
    sized on the neighbouring-street rule, empty elsewhere."""
    on = int(L.PARAMS[level.number][L.P_RULE]) == L.RULE_STREET_RUN
    values = line_values(level.number) if on else []
    cat = np.zeros(DIST_HI - DIST_LO + 1, np.int64)
    for i, v in enumerate(values):
        cat[v - DIST_LO] = i
    b = len(values)
    ids = N_IDS if on else 0
    return Streets(cat, np.array(values, np.int64), np.zeros((2, ids, RUNS, b), np.float64),
                   np.zeros(b, np.float64), np.zeros((ids, b), np.float64),
                   np.zeros(ids, np.float64), np.zeros((2, ids), np.int64),
                   np.zeros(DIST_HI - DIST_LO + 1 if on else 0, np.float64))


@kernel(inline="always")
def _carry(p, W, dst, c, r, b, m, nxt, up):
    """Add mass ``m`` of state (card ``c``, run ``r``, best ``b``) carried on by card ``nxt``
    (a value up if ``up``, else down) to ``W.mass[dst]``; returns the new state's run and best."""
    length = (r + 3) // 2 + 1 if (r > 0 and (r % 2 == 1) == up) else 2
    value, _ = _street_value(p, length, (nxt // 8 + 1) + (c // 8 + 1))  # the sum counts at 2
    nb = max(b, W.cat[value - DIST_LO])
    nr = 2 * length - 3 if up else 2 * length - 2
    W.mass[dst, nxt, nr, nb] += m
    return nr, nb


@kernel
def _street_chain_line(p, geo, S, W, line_eval, li, pool, n_pool):
    """``line_eval[li]`` := line ``li``'s estimate on the neighbouring-street rule, by the chain
    of the module doc over its cells, the empty ones filled from ``pool[:n_pool]``.

    Runs are numbered 0 (a lone card), then up by 2, down by 2, up by 3, ... (``2L - 3`` and
    ``2L - 2`` for ``L`` cards), so the states in use lie below ``runs`` and ``bests``, which
    grow only as the line's streets do."""
    n = p[L.P_SIZE]
    top = (p[L.P_VALUES] - 1) * 8  # a card below this has a card a value above it
    for q in range(n_pool):
        W.weight[pool[q]] = 1.0
    src = 0
    n_src = 0  # no card yet: the line's start
    runs, bests = 1, 1  # run and best-value indices in use: below these
    prev_empty = False
    for i in range(n):
        card = S.grid[geo.lines[li, i]]
        dst = 1 - src
        n_dst = 0
        new_runs, new_bests = 1, bests
        if n_src == 0:  # the first cell: nothing to carry on
            if card >= 0:
                W.mass[dst, card, 0, 0] = 1.0
                W.cards[dst, 0] = card
                n_dst = 1
            else:
                for q in range(n_pool):
                    W.mass[dst, pool[q], 0, 0] = 1.0 / n_pool
                    W.cards[dst, q] = pool[q]
                n_dst = n_pool
        elif card >= 0:
            for j in range(n_src):
                c = W.cards[src, j]
                for r in range(runs):
                    for b in range(bests):
                        m = W.mass[src, c, r, b]
                        if m == 0.0:
                            continue
                        if c + 8 == card or c - 8 == card:
                            nr, nb = _carry(p, W, dst, c, r, b, m, card, c + 8 == card)
                            new_runs, new_bests = max(new_runs, nr + 1), max(new_bests, nb + 1)
                        else:
                            W.mass[dst, card, 0, b] += m
            W.cards[dst, 0] = card
            n_dst = 1
        else:
            for b in range(bests):  # mass by best value, in all and by card
                W.total[b] = 0.0
            for j in range(n_src):
                c = W.cards[src, j]
                for b in range(bests):
                    t = 0.0
                    for r in range(runs):
                        t += W.mass[src, c, r, b]
                    W.by_card[c, b] = t
                    W.total[b] += t
            w = 1.0 / (n_pool - 1) if prev_empty else 1.0 / n_pool
            for q in range(n_pool):  # a lone card on each of the pool's cards
                c2 = pool[q]
                for b in range(bests):
                    m = W.total[b]
                    if c2 >= 8:
                        m -= W.by_card[c2 - 8, b]
                    if c2 < top:
                        m -= W.by_card[c2 + 8, b]
                    if prev_empty:
                        m -= W.by_card[c2, b]
                    W.mass[dst, c2, 0, b] = max(m, 0.0) * w
                W.cards[dst, q] = c2
            n_dst = n_pool
            for j in range(n_src):  # the runs carried on
                c = W.cards[src, j]
                up_ok = c < top and W.weight[c + 8] > 0.0
                down_ok = c >= 8 and W.weight[c - 8] > 0.0
                for r in range(runs):
                    for b in range(bests):
                        m = W.mass[src, c, r, b]
                        if m == 0.0:
                            continue
                        if up_ok:
                            nr, nb = _carry(p, W, dst, c, r, b, m * w, c + 8, True)
                            new_runs, new_bests = max(new_runs, nr + 1), max(new_bests, nb + 1)
                        if down_ok:
                            nr, nb = _carry(p, W, dst, c, r, b, m * w, c - 8, False)
                            new_runs, new_bests = max(new_runs, nr + 1), max(new_bests, nb + 1)
                for b in range(bests):
                    W.by_card[c, b] = 0.0
        for j in range(n_src):  # clear the states left behind
            c = W.cards[src, j]
            for r in range(runs):
                for b in range(bests):
                    W.mass[src, c, r, b] = 0.0
        prev_empty = card < 0
        src, n_src = dst, n_dst
        runs, bests = new_runs, new_bests
    for j in range(n_src):
        c = W.cards[src, j]
        for r in range(runs):
            for b in range(bests):
                W.prob[W.value[b] - DIST_LO] += W.mass[src, c, r, b]
                W.mass[src, c, r, b] = 0.0
    for q in range(n_pool):
        W.weight[pool[q]] = 0.0
    total = 0.0
    for b in range(W.value.shape[0]):
        total += W.prob[W.value[b] - DIST_LO]
    _finish(p, W.prob, total, line_eval, li)
    for b in range(W.value.shape[0]):
        W.prob[W.value[b] - DIST_LO] = 0.0
