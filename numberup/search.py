"""Searchers: an evaluation of unfinished grids, expectimax, and Monte Carlo rollouts.

Evaluation
----------
Each line's *final contribution* to the result (its value; on levels scored by checkmarkers
10 x its checkmarkers) is estimated as the mean over ``k`` random completions: the line's empty
cells are filled with distinct cards drawn from the cards still to come (unseen and in hand),
and the line is scored by the level's own kernel. This one estimator serves every rule family
and values what the immediate score cannot: an open street (likely to grow), a pair waiting
for its triplet, a single on level 8 that may never pair (likely to cost), a line still
without a triplet on level 15. A full line is scored exactly. Completions use common random
numbers: within one decision the j-th completion of line ``li`` always uses the same draws, so
two candidate moves are compared on the same luck.
The pool is fixed for the whole decision: the cards to come at the decision, the card being
tried included, so a completion may repeat it. Taking it out is the cleaner model but played
worse on most levels (on results/make.sh's decks: level 12 P(gold) 75.6% against 55.7%,
level 15 70.0% against 60.1%): a repeat rewards placing a card among its own colour and value,
which random completions otherwise undervalue.

The grid's estimate combines the lines by the level's aggregation: on summed levels the mean is
the sum of the line means, and P(result >= a medal) comes from a normal approximation with the
summed variances; on levels scored by the lowest line, P(result >= T) is the product over the
lines of P(line value >= T/10), and the mean is 10 x E[lowest line value], the sum over t of
P(every line >= t), from each line's P(value >= t) over its completions (the lines taken as
independent: 10 x the lowest line mean instead would ignore how likely each line is to fall
short, and plays levels 3 and 20 far worse). Every node value is a
4-vector (mean, P(bronze), P(silver), P(gold)); a player maximises one of them (its objective).

Objectives
----------
``objective=mean`` ranks actions by the mean (then the sum of line means). A medal objective
ranks by P(medal) where that estimate is sharp enough to steer (:func:`_objective`): always on
levels scored by the lowest line, where it is a product of per-line probabilities and chasing
Gold pays (on levels 3 and 20 it lifts P(gold) far above the mean player's: see results/), and
on summed levels in the last ``LATE_CELLS`` cards only. Earlier in a summed level the normal
law over random completions is too crude (random completions score far below real play, so
P(medal) is biased low and flat), and ranking by it lost P(gold) against the mean player; there
a medal objective ranks by the mean.

Players
-------
``expectimax:depth=D,sample=S,k=K,objective=O``: decision nodes over every action (hand slot x
cell, and a discard while discards remain), chance nodes over the next card (all unseen cards
with equal probability, or a random sample of ``S`` of them), and the evaluation at the leaves.
``depth`` counts the cards placed in the tree, the current one included: depth 1 judges each
move by the evaluation of the grid right after it; depth 2 also averages over every next card
and its best placement (the most this player searches: see :func:`_chance_decide`).

``rollout:n=N,base=B,objective=O``: every action is judged by playing the game out with the base
player (random or greedy) on random orders of the unseen cards; a budget of about ``N``
rollouts per decision is spread by successive halving (the worse half of the actions is dropped
each round, so clearly bad moves stop early).
"""

from __future__ import annotations

import math

import numpy as np

from . import levels as L
from .engine import (
    DIST_HI, DIST_LO, EVAL_WIDTH, I_DECK, I_FILLED, I_HAND, I_NEXT, I_UNSEEN, N_STATS, _apply,
    _begin_turn, _candidates, _copy_state, _done, _draw, _may_discard, _result, _undo_apply,
    _undraw,
)
from .jit import kernel
from .players import LATE_CELLS, POLICY_GREEDY, _greedy_action, _random_action
from .rng import _below, _mix, _next, _shuffle
from .scoring import _line_score, _line_value

# parameter slots of the searchers (float64 arrays, see numberup.players)
X_DEPTH, X_SAMPLE, X_K, X_OBJECTIVE = 0, 1, 2, 3
R_N, R_BASE, R_OBJECTIVE = 0, 1, 2

MAX_DEPTH = 2
_ROW_CAND = 0  # buf rows 0..1: cells on offer at the root's and the inner decision
_ROW_DRAW = 7  # buf row 7: the cards a chance node draws from
_ROW_POOL = 14  # buf row 14: cards still to come, for completions
_F_SAVE = 0  # fbuf rows 4*depth + 0..3: saved estimates of the lines through a placed cell
_F_NODE = 40  # fbuf rows 40..: node values (4 stats)


@kernel(inline="always")
def _contribution(p, points, markers):
    """What a line adds to the result: its value, or 10 x checkmarkers on such levels."""
    if p[L.P_AGG] == L.AGG_MARKERS_X10:
        return 10.0 * max(markers, 0)
    return float(_line_value(points, markers))


@kernel
def _fill_pool(S):
    """Buffer row ``_ROW_POOL`` := the cards still to come (unseen, then in hand); returns n."""
    n = 0
    for k in range(S.ints[I_UNSEEN]):
        S.buf[_ROW_POOL, n] = S.unseen[k]
        n += 1
    for k in range(S.ints[I_HAND]):
        S.buf[_ROW_POOL, n] = S.hand[k]
        n += 1
    return n


@kernel
def _estimate_line(p, geo, S, li, k, n_pool):
    """Fill ``S.line_eval[li]`` with the line's estimated final contribution (see module doc)."""
    n = p[L.P_SIZE]
    empty = 0  # bit i: the line's i-th cell is empty
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            empty |= 1 << i
    tb = (p[L.P_BRONZE] + 9) // 10
    ts = (p[L.P_SILVER] + 9) // 10
    tg = (p[L.P_GOLD] + 9) // 10
    n_empty = 0
    for i in range(n):
        n_empty += (empty >> i) & 1
    if n_empty == 0 or n_pool < n_empty:
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        v = _line_value(points, markers)
        S.line_eval[li, 0] = _contribution(p, points, markers)
        S.line_eval[li, 1] = 0.0
        S.line_eval[li, 2] = 1.0 if v >= tb else 0.0
        S.line_eval[li, 3] = 1.0 if v >= ts else 0.0
        S.line_eval[li, 4] = 1.0 if v >= tg else 0.0
        if p[L.P_AGG] == L.AGG_MIN_X10:
            for t in range(DIST_LO + 1, DIST_HI + 1):
                S.line_eval[li, _dist_col(t)] = 1.0 if v >= t else 0.0
        return
    total = total2 = 0.0
    nb = ns = ng = 0
    dist = p[L.P_AGG] == L.AGG_MIN_X10
    if dist:
        for q in range(N_STATS, EVAL_WIDTH):
            S.line_eval[li, q] = 0.0
    for j in range(k):
        # common random numbers: completion j of line li uses the same draws all decision long
        r = _mix(S.rng[1] + np.uint64(li * 1024 + j + 1) * _GOLDEN)
        used = np.uint64(0)
        for i in range(n):
            if (empty >> i) & 1:
                while True:
                    r = _mix(r + _GOLDEN)
                    pick = np.int64(((r >> np.uint64(32)) * np.uint64(n_pool)) >> np.uint64(32))
                    bit = np.uint64(1) << np.uint64(pick)
                    if not used & bit:
                        used |= bit
                        break
                S.grid[geo.lines[li, i]] = S.buf[_ROW_POOL, pick]
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        c = _contribution(p, points, markers)
        v = _line_value(points, markers)
        total += c
        total2 += c * c
        nb += v >= tb
        ns += v >= ts
        ng += v >= tg
        if dist and v > DIST_LO:  # a histogram first: how many completions have value v
            S.line_eval[li, _dist_col(min(v, DIST_HI))] += 1.0
        for i in range(n):
            if (empty >> i) & 1:
                S.grid[geo.lines[li, i]] = -1
    mean = total / k
    S.line_eval[li, 0] = mean
    S.line_eval[li, 1] = max(total2 / k - mean * mean, 0.0)
    S.line_eval[li, 2] = nb / k
    S.line_eval[li, 3] = ns / k
    S.line_eval[li, 4] = ng / k
    if dist:  # the histogram -> P(value >= t), from the top down
        acc = 0.0
        for t in range(DIST_HI, DIST_LO, -1):
            acc += S.line_eval[li, _dist_col(t)]
            S.line_eval[li, _dist_col(t)] = acc / k


@kernel(inline="always")
def _dist_col(t):
    """The column of ``line_eval`` holding P(line value >= t), DIST_LO < t <= DIST_HI."""
    return N_STATS + t - DIST_LO - 1


@kernel(inline="always")
def _eval_width(p):
    """Columns of ``line_eval`` a level uses (the distribution only where the lowest line
    counts)."""
    return EVAL_WIDTH if p[L.P_AGG] == L.AGG_MIN_X10 else N_STATS


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@kernel
def _estimate_all(p, geo, S, k, n_pool):
    for li in range(p[L.P_NLINES]):
        _estimate_line(p, geo, S, li, k, n_pool)


@kernel(inline="always")
def _upper_tail(mu, var, threshold):
    """P(X >= threshold) for X ~ Normal(mu, var) on whole numbers (continuity corrected)."""
    if var <= 1e-12:
        return 1.0 if mu >= threshold - 0.5 else 0.0
    z = (threshold - 0.5 - mu) / math.sqrt(var)
    return 0.5 * math.erfc(z / math.sqrt(2.0))


@kernel
def _evaluate(p, S, out):
    """``out[:5]`` := (mean, P(bronze), P(silver), P(gold), sum of the line means) of the grid,
    from the line estimates. The sum breaks ties of the others: on levels scored by the lowest
    line, many moves leave the same lowest line, and the sum still tells them apart."""
    nl = p[L.P_NLINES]
    total = 0.0
    for li in range(nl):
        total += S.line_eval[li, 0]
    out[4] = total
    if p[L.P_AGG] == L.AGG_MIN_X10:
        pb = ps = pg = 1.0
        for li in range(nl):
            pb *= S.line_eval[li, 2]
            ps *= S.line_eval[li, 3]
            pg *= S.line_eval[li, 4]
        low = float(DIST_LO)  # E[lowest] = DIST_LO + sum over t of P(every line >= t)
        for t in range(DIST_LO + 1, DIST_HI + 1):
            every = 1.0
            for li in range(nl):
                every *= S.line_eval[li, _dist_col(t)]
            if every == 0.0:
                break
            low += every
        out[0] = 10.0 * low
        out[1] = pb
        out[2] = ps
        out[3] = pg
        return
    mu = var = 0.0
    for li in range(nl):
        mu += S.line_eval[li, 0]
        var += S.line_eval[li, 1]
    out[0] = mu
    out[1] = _upper_tail(mu, var, p[L.P_BRONZE])
    out[2] = _upper_tail(mu, var, p[L.P_SILVER])
    out[3] = _upper_tail(mu, var, p[L.P_GOLD])


@kernel(inline="always")
def _save_lines(p, geo, S, cell, depth):
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li >= 0 and li < p[L.P_NLINES]:
            for q in range(_eval_width(p)):
                S.fbuf[_F_SAVE + depth * 4 + k, q] = S.line_eval[li, q]


@kernel(inline="always")
def _restore_lines(p, geo, S, cell, depth):
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li >= 0 and li < p[L.P_NLINES]:
            for q in range(_eval_width(p)):
                S.line_eval[li, q] = S.fbuf[_F_SAVE + depth * 4 + k, q]


@kernel(inline="always")
def _reestimate(p, geo, S, cell, k, n_pool):
    for q in range(4):
        li = geo.cell_lines[cell, q]
        if li >= 0 and li < p[L.P_NLINES]:
            _estimate_line(p, geo, S, li, k, n_pool)


@kernel(inline="always")
def _try(p, geo, S, slot, cell, k, n_pool, depth):
    """Play hand ``slot`` on ``cell`` (-1: discard) inside the search, re-estimating the lines
    it touches; the estimates it replaces are kept in search level ``depth``'s slots."""
    if cell >= 0:
        _save_lines(p, geo, S, cell, depth)
    _apply(p, geo, S, slot, cell)
    if cell >= 0:
        _reestimate(p, geo, S, cell, k, n_pool)


@kernel(inline="always")
def _untry(p, geo, S, slot, cell, card, depth):
    """Undo :func:`_try` of ``card``: the grid, hand and line estimates are as they were."""
    _undo_apply(p, geo, S, slot, cell, card)
    if cell >= 0:
        _restore_lines(p, geo, S, cell, depth)


@kernel(inline="always")
def _objective(p, S, objective):
    """The objective a decision ranks by: a medal objective only where P(medal) is sharp
    enough to steer (module doc, Objectives), else the mean."""
    if objective == 0 or p[L.P_AGG] == L.AGG_MIN_X10:
        return objective
    empty = p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED]
    return objective if empty <= LATE_CELLS else 0


@kernel(inline="always")
def _copy_value(dst, src):
    """Copy a node value (its 5 entries)."""
    for q in range(5):
        dst[q] = src[q]


@kernel(inline="always")
def _better(a, b, objective):
    """Node value ``a`` beats ``b`` under the objective (ties: the larger mean, then the larger
    sum of line means)."""
    if a[objective] > b[objective] + 1e-12:
        return True
    if a[objective] < b[objective] - 1e-12:
        return False
    if a[0] > b[0] + 1e-12:
        return True
    if a[0] < b[0] - 1e-12:
        return False
    return a[4] > b[4] + 1e-12


@kernel(inline="always")
def _decide_leaf(p, geo, S, prm, objective, n_pool, out):
    """A decision whose every action is judged by the evaluation right after it."""
    k = np.int64(prm[X_K])
    cand = S.buf[_ROW_CAND + 1]
    n_cand = _candidates(geo, S, cand)
    best = S.fbuf[_F_NODE + 2]
    best[:5] = -1e300
    child = S.fbuf[_F_NODE + 3]
    may_discard = _may_discard(p, geo, S)
    for slot in range(S.ints[I_HAND]):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _try(p, geo, S, slot, cell, k, n_pool, 1)
            _evaluate(p, S, child)
            _untry(p, geo, S, slot, cell, card, 1)
            if _better(child, best, objective):
                _copy_value(best, child)
    _copy_value(out, best)


@kernel(inline="always")
def _chance_decide(p, geo, S, prm, objective, n_pool, out):
    """The next card (every unseen card alike, or a sample), then a :func:`_decide_leaf`.

    Trees are two cards deep at most: numba cannot cache recursive functions (numba #6061),
    and each further card multiplies the work by (cards x cells)."""
    if _done(p, S):
        _evaluate(p, S, out)
        return
    remaining = S.ints[I_DECK] - S.ints[I_NEXT]
    if remaining <= 0 or (p[L.P_HAND] > 0 and S.ints[I_HAND] >= p[L.P_HAND]):
        _decide_leaf(p, geo, S, prm, objective, n_pool, out)
        return
    n_draw = S.ints[I_UNSEEN]
    row = _ROW_DRAW
    for j in range(n_draw):
        S.buf[row, j] = S.unseen[j]
    sample = np.int64(prm[X_SAMPLE])
    if sample > 0 and sample < n_draw:  # a random sample of the next cards
        for j in range(sample):
            t = j + _below(S.rng, n_draw - j)
            S.buf[row, j], S.buf[row, t] = S.buf[row, t], S.buf[row, j]
        n_draw = sample
    acc = S.fbuf[_F_NODE + 4]
    acc[:5] = 0.0
    child = S.fbuf[_F_NODE + 5]
    for j in range(n_draw):
        card = S.buf[row, j]
        _draw(S, card)
        _decide_leaf(p, geo, S, prm, objective, n_pool, child)
        _undraw(S, card)
        for q in range(5):
            acc[q] += child[q]
    for q in range(5):
        out[q] = acc[q] / n_draw


@kernel
def _expectimax_action(p, geo, S, cand, n_cand, may_discard, prm, values):
    """Expectimax's action; ``values[a]`` := the 4-vector of action ``a``, for advice.

    Actions are numbered slot-major, ``a = slot * n_cand + j`` for ``cand[j]``, and the
    discard, when allowed, is the last (as in :func:`_rollout_action`)."""
    depth = min(np.int64(prm[X_DEPTH]), MAX_DEPTH)
    objective = _objective(p, S, np.int64(prm[X_OBJECTIVE]))
    k = np.int64(prm[X_K])
    S.rng[1] = _next(S.rng)  # this decision's completions (common random numbers)
    n_pool = _fill_pool(S)
    _estimate_all(p, geo, S, k, n_pool)
    child = S.fbuf[_F_NODE + 2 * MAX_DEPTH + 2]
    best = S.fbuf[_F_NODE + 2 * MAX_DEPTH + 3]
    best[:5] = -1e300
    best_slot, best_cell = 0, cand[0]
    for slot in range(S.ints[I_HAND]):
        for j in range(n_cand + (1 if may_discard and slot == 0 else 0)):
            cell = cand[j] if j < n_cand else -1
            card = S.hand[slot]
            _try(p, geo, S, slot, cell, k, n_pool, MAX_DEPTH)
            if depth >= 2:
                _chance_decide(p, geo, S, prm, objective, n_pool, child)
            else:
                _evaluate(p, S, child)
            _untry(p, geo, S, slot, cell, card, MAX_DEPTH)
            a = slot * n_cand + j if cell >= 0 else S.ints[I_HAND] * n_cand
            _copy_value(values[a], child)
            if _better(child, best, objective):
                _copy_value(best, child)
                best_slot, best_cell = slot, cell
    return best_slot, best_cell


# ---------------------------------------------------------------------------------------------
# Rollouts


@kernel
def _rollout(p, geo, S, T, deck, base, seed):
    """Play ``T`` (a copy of the state after an action) to the end with the base player, the
    unseen cards coming in a random order drawn from ``seed``; returns the result."""
    n = T.ints[I_UNSEEN]
    for j in range(n):
        deck[j] = T.unseen[j]
    T.rng[0] = seed
    _shuffle(T.rng, deck, n)
    T.ints[I_NEXT] = 0
    T.ints[I_DECK] = n
    cand = T.buf[0]
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, cand)
        if base == POLICY_GREEDY:
            slot, cell = _greedy_action(p, geo, T, cand, n_cand, _may_discard(p, geo, T))
        else:
            slot, cell = _random_action(T, cand, n_cand, _may_discard(p, geo, T))
        _apply(p, geo, T, slot, cell)
    return _result(p, T)


@kernel
def _rollout_action(p, geo, S, T, deck, cand, n_cand, may_discard, prm, values):
    """Successive halving over the actions with rollouts; ``values[a]`` := (mean, P(bronze),
    P(silver), P(gold)) of action ``a`` from all its rollouts, ``values[a, 4]`` their count."""
    budget = np.int64(prm[R_N])
    base = np.int64(prm[R_BASE])
    objective = _objective(p, S, np.int64(prm[R_OBJECTIVE]))
    n_hand = S.ints[I_HAND]
    n_act = n_hand * n_cand + (1 if may_discard else 0)
    alive = S.buf[_ROW_DRAW]
    for a in range(n_act):
        alive[a] = a
        values[a, :5] = 0.0
    n_alive = n_act
    rounds = 1
    while (1 << rounds) < n_act:
        rounds += 1
    move_seed = _next(S.rng)
    done_rollouts = 0  # per surviving action so far: the same deals for every action
    for _ in range(rounds):
        if n_alive == 1:
            break
        per = max(1, budget // (n_alive * rounds))
        for q in range(n_alive):
            a = alive[q]
            if a == n_hand * n_cand:
                slot, cell = 0, -1
            else:
                slot, cell = a // n_cand, cand[a % n_cand]
            for j in range(done_rollouts, done_rollouts + per):
                _copy_state(S, T)
                _apply(p, geo, T, slot, cell)
                r = _rollout(p, geo, S, T, deck, base,
                             _mix(move_seed + np.uint64(j + 1) * np.uint64(0x9E3779B97F4A7C15)))
                values[a, 0] += r
                values[a, 1] += r >= p[L.P_BRONZE]
                values[a, 2] += r >= p[L.P_SILVER]
                values[a, 3] += r >= p[L.P_GOLD]
                values[a, 4] += 1
        done_rollouts += per
        # keep the better half (insertion sort of the alive actions by their objective)
        for q in range(1, n_alive):
            x = alive[q]
            t = q
            while t > 0 and _rollout_key(values, alive[t - 1], objective) < _rollout_key(values, x, objective):
                alive[t] = alive[t - 1]
                t -= 1
            alive[t] = x
        n_alive = (n_alive + 1) // 2
    best = alive[0]
    for q in range(n_alive):  # the best survivor, by objective then mean
        a = alive[q]
        if _rollout_key(values, a, objective) > _rollout_key(values, best, objective):
            best = a
    for a in range(n_act):  # sums -> means
        cnt = values[a, 4]
        if cnt > 0:
            for q in range(4):
                values[a, q] /= cnt
    if best == n_hand * n_cand:
        return 0, -1
    return best // n_cand, cand[best % n_cand]


@kernel(inline="always")
def _rollout_key(values, a, objective):
    """Sort key of action ``a`` from its sums: the objective's mean, then the mean score as a
    small tie-break."""
    cnt = max(values[a, 4], 1.0)
    if objective == 0:
        return values[a, 0] / cnt
    return values[a, objective] / cnt + 1e-9 * values[a, 0] / cnt
