"""Plain Python of the learned evaluation (numberup.learned.value): the weight indices of a line's
features and the value of an afterstate, written from the module's description, for the
kernels to be checked against."""

import math

import numpy as np

from numberup.learned import features as F
from numberup.learned import value as LE
from numberup.game import levels as L
from numberup.game.scorecard import score_line
from numberup.evaluation.layout import DIST_HI, DIST_LO, N_STATS


def layout(p):
    n, nv, rule = int(p[L.P_SIZE]), int(p[L.P_VALUES]), int(p[L.P_RULE])
    colours = rule in (L.RULE_COLOUR_SUM, L.RULE_COLOUR_RUN_SUM, L.RULE_COLOUR_SECOND,
                       L.RULE_COUNT_X_COUNT, L.RULE_RUN_X_RUN, L.RULE_SUM_X_COUNT,
                       L.RULE_TRIPLET_COLOUR_SUM)
    streets = rule in (L.RULE_STREET_ANY, L.RULE_STREET_RUN)
    seq = rule in (L.RULE_STREET_RUN, L.RULE_COLOUR_RUN_SUM, L.RULE_RUN_X_RUN)
    smax = n * nv + 1
    sizes = {
        "hist": F.PHASES * (n + 1) ** nv,
        "value": nv * (n + 1) * (F.LEFT_MAX + 1) * (n + 1),
        "top": smax * (n + 1) * smax * (n + 1) if colours else 0,
        "left": 2 * smax * (F.LEFT_MAX + 1) * (n + 1) if colours else 0,
        "streets": 4 ** nv * (n + 1) if streets else 0,
        "seq": (n - F.TUPLE + 1) * (2 * nv + 1) ** F.TUPLE if seq else 0,
        "base": F.PHASES * (n + 1) * F.BASE_BINS,
        "hand": 4 ** nv * (n + 1) if streets and int(p[L.P_LEVEL]) in F.HAND_TABLE else 0,
        "cut": F.PHASES * (n + 1) * LE.NT if p[L.P_AGG] == L.AGG_MIN_X10 else 0,
    }
    off, at = {}, 0
    for name, size in sizes.items():
        off[name] = at
        at += size
    return off, at, colours, streets, seq


def line_features(p, cells, filled, still_to_come, base, hand=()):
    """The feature indices of a line whose cells hold ``cells`` (card ids, -1 empty, in the
    line's order), ``filled`` cards on the grid, the cards still to come ``still_to_come``
    (``hand``, those of them in the hand), the line's base estimate ``base``."""
    n, nv, nc = int(p[L.P_SIZE]), int(p[L.P_VALUES]), int(p[L.P_COLOURS])
    off, _, colours, streets, seq = layout(p)
    empty = sum(c < 0 for c in cells)
    if empty == 0:
        return []
    cards = [c for c in cells if c >= 0]
    phase = min(filled * F.PHASES // (n * n), F.PHASES - 1)
    counts = [sum(c // 8 == v for c in cards) for v in range(nv)]
    out = [phase * (n + 1) ** nv + sum(counts[v] * (n + 1) ** v for v in range(nv))]
    for v in range(nv):
        left = min(sum(c // 8 == v for c in still_to_come), F.LEFT_MAX)
        out.append(off["value"] + ((v * (n + 1) + counts[v]) * (F.LEFT_MAX + 1) + left) * (n + 1) + empty)
    if colours:
        smax = n * nv + 1
        by = sorted(((sum(c // 8 + 1 for c in cards if c % 8 == col),
                      sum(c % 8 == col for c in cards), -col) for col in range(nc)
                     if any(c % 8 == col for c in cards)), reverse=True) + [(0, 0, None)] * 2
        (s1, c1, t1), (s2, c2, t2) = by[0], by[1]
        out.append(off["top"] + ((s1 * (n + 1) + c1) * smax + s2) * (n + 1) + empty)
        for k, (s, t) in enumerate(((s1, t1), (s2, t2))):
            left = 0 if t is None else min(sum(c % 8 == -t for c in still_to_come), F.LEFT_MAX)
            out.append(off["left"] + k * smax * (F.LEFT_MAX + 1) * (n + 1)
                       + (s * (F.LEFT_MAX + 1) + left) * (n + 1) + empty)
    if streets:
        for col in range(nc):
            here = sum(1 << (c // 8) for c in cards if c % 8 == col)
            if here:
                ahead = sum(1 << (c // 8) for c in still_to_come if c % 8 == col)
                out.append(off["streets"] + ((here << nv) + ahead) * (n + 1) + empty)
                if int(p[L.P_LEVEL]) in F.HAND_TABLE:
                    held = sum(1 << (c // 8) for c in hand if c % 8 == col)
                    out.append(off["hand"] + ((here << nv) + held) * (n + 1) + empty)
    if seq:
        b = 2 * nv + 1
        syms = []
        for i, c in enumerate(cells):
            s = 0 if c < 0 else c // 8 + 1
            if c >= 0 and i > 0 and cells[i - 1] >= 0 and cells[i - 1] % 8 == c % 8:
                s += nv
            syms.append(s)
        for t in range(n - F.TUPLE + 1):
            out.append(off["seq"] + t * b ** F.TUPLE
                       + sum(syms[t + i] * b ** i for i in range(F.TUPLE)))
    x = min(max(math.floor(base + 0.5 + F.BIN_SLACK) - F.BASE_LO, 0), F.BASE_BINS - 1)
    out.append(off["base"] + (phase * (n + 1) + empty) * F.BASE_BINS + x)
    return out


def line_contribution(level, cells):
    line = score_line(level, cells)
    if level.aggregation == L.AGG_MARKERS_X10:
        return 10.0 * max(line.markers, 0)
    return float(line.value)


def p_at_least(p, full_value, row, shift, shares, weights, t):
    """The learned P(a line's final value >= t) on a level scored by its lowest line: ``row``
    None for a full line (worth ``full_value``); ``shares[i]``: its random completions'
    P(value >= DIST_LO + 1 + i)."""
    if row is None:
        return 1.0 if full_value >= t else 0.0
    if t <= DIST_LO:
        return 1.0
    if t > DIST_HI:
        return 0.0
    q = shares[t - DIST_LO - 1]
    if q >= 1.0:
        return 1.0
    q = min(max(q, LE.EPS), 1.0 - LE.EPS)
    z = math.log(q / (1.0 - q)) + shift + weights[layout(p)[0]["cut"] + row * LE.NT + t - DIST_LO - 1]
    return 1.0 / (1.0 + math.exp(-z))


def afterstate_value(level, p, lines, grid, filled, still_to_come, bases, weights, shares=None,
                     hand=()):
    """V of a grid (see numberup.learned.value._afterstate_value); ``bases``: the lines' base
    estimates; ``shares``: on levels scored by the lowest line, each line's random-completion
    P(value >= t) (``p_at_least``); ``hand``: the cards still to come that are in the hand."""
    n = int(p[L.P_SIZE])
    nl = int(p[L.P_NLINES])
    if p[L.P_AGG] != L.AGG_MIN_X10:
        ys = []
        for li in range(nl):
            cells = [int(grid[c]) for c in lines[li]]
            idx = line_features(p, cells, filled, still_to_come, bases[li], hand)
            ys.append(bases[li] + sum(weights[i] for i in idx) if idx
                      else line_contribution(level, cells))
        return sum(ys)
    lines_now = []  # (full value or None, row or None, shift)
    total = 0.0
    for li in range(nl):
        cells = [int(grid[c]) for c in lines[li]]
        idx = line_features(p, cells, filled, still_to_come, bases[li], hand)
        if not idx:
            v = line_contribution(level, cells)
            lines_now.append((v, None, 0.0))
            total += v
        else:
            phase = min(filled * F.PHASES // (n * n), F.PHASES - 1)
            row = phase * (n + 1) + sum(c < 0 for c in cells)
            lines_now.append((None, row, sum(weights[i] for i in idx)))
            total += bases[li]
    low = float(DIST_LO)
    for t in range(DIST_LO + 1, DIST_HI + 1):
        every = 1.0
        for li, (v, row, shift) in enumerate(lines_now):
            every *= p_at_least(p, v, row, shift, shares[li], weights, t)
        if every < LE.TINY_P:
            break
        low += every
    return 10.0 * low + 1e-3 * total


def medals(p, predicted, line_eval, value, rows=None, shift=None, weights=None):
    """(mean, P(bronze), P(silver), P(gold), sum) of an afterstate (see
    numberup.players.learned._medals): ``predicted`` the line predictions, ``line_eval`` the
    random-completion estimates, ``value`` the learned value; on levels scored by the lowest
    line ``rows`` (-1: full), ``shift`` and ``weights`` as the evaluation left them."""
    nl = int(p[L.P_NLINES])
    total = sum(predicted[:nl])
    var = sum(line_eval[li][1] for li in range(nl))
    out = [value, 0.0, 0.0, 0.0, total]
    for q, medal in enumerate((L.P_BRONZE, L.P_SILVER, L.P_GOLD)):
        target = int(p[medal])
        if p[L.P_AGG] != L.AGG_MIN_X10:
            half = 5.0 if p[L.P_AGG] == L.AGG_MARKERS_X10 else 0.5
            if var <= 1e-12:
                out[1 + q] = 1.0 if total >= target - half else 0.0
            else:
                z = (target - half - total) / math.sqrt(var)
                out[1 + q] = 0.5 * math.erfc(z / math.sqrt(2.0))
            continue
        t = (target + 9) // 10
        prob = 1.0
        for li in range(nl):
            row = None if rows[li] < 0 else rows[li]
            prob *= p_at_least(p, predicted[li], row, shift[li], line_eval[li][N_STATS:],
                               weights, t)
        out[1 + q] = prob
    return out


def random_grid(lv, rng, deck=None, min_pool=0):
    """A grid with random distinct cards of level ``lv`` in random cells, how many, and the
    cards still to come (some of the rest, at least ``min_pool``). ``deck``: the level's cards,
    shuffled in place (default: a new list of them)."""
    if deck is None:
        deck = [(v - 1) * 8 + c for v in range(1, lv.values + 1) for c in range(lv.colours)]
    rng.shuffle(deck)
    filled = rng.randrange(lv.cells)
    grid = np.full(lv.cells, -1, np.int8)
    for cell, card in zip(rng.sample(range(lv.cells), filled), deck):
        grid[cell] = card
    rest = deck[filled:]
    return grid, filled, rest[: rng.randrange(min_pool, len(rest) + 1)]
