"""Plain Python of the learned evaluation (numberup.learned): the weight indices of a line's
features and the value of an afterstate, written from the module's description, for the
kernels to be checked against."""

import math

from numberup import learned as LE
from numberup import levels as L
from numberup.scorecard import score_line


def layout(p):
    n, nv, rule = int(p[L.P_SIZE]), int(p[L.P_VALUES]), int(p[L.P_RULE])
    colours = rule in LE._COLOUR_RULES
    streets = rule in (L.RULE_STREET_ANY, L.RULE_STREET_RUN)
    seq = rule in (L.RULE_STREET_RUN, L.RULE_COLOUR_RUN_SUM, L.RULE_RUN_X_RUN)
    smax = n * nv + 1
    sizes = {
        "hist": LE.PHASES * (n + 1) ** nv,
        "value": nv * (n + 1) * (LE.LEFT_MAX + 1) * (n + 1),
        "top": smax * (n + 1) * smax * (n + 1) if colours else 0,
        "left": 2 * smax * (LE.LEFT_MAX + 1) * (n + 1) if colours else 0,
        "streets": 4 ** nv * (n + 1) if streets else 0,
        "seq": (n - LE.TUPLE + 1) * (2 * nv + 1) ** LE.TUPLE if seq else 0,
        "base": LE.PHASES * (n + 1) * LE.BASE_BINS,
    }
    off, at = {}, 0
    for name, size in sizes.items():
        off[name] = at
        at += size
    return off, at, colours, streets, seq


def line_features(p, cells, filled, still_to_come, base):
    """The feature indices of a line whose cells hold ``cells`` (card ids, -1 empty, in the
    line's order), ``filled`` cards on the grid, the cards still to come ``still_to_come``,
    the line's base estimate ``base``."""
    n, nv, nc = int(p[L.P_SIZE]), int(p[L.P_VALUES]), int(p[L.P_COLOURS])
    off, _, colours, streets, seq = layout(p)
    empty = sum(c < 0 for c in cells)
    if empty == 0:
        return []
    cards = [c for c in cells if c >= 0]
    phase = min(filled * LE.PHASES // (n * n), LE.PHASES - 1)
    counts = [sum(c // 8 == v for c in cards) for v in range(nv)]
    out = [phase * (n + 1) ** nv + sum(counts[v] * (n + 1) ** v for v in range(nv))]
    for v in range(nv):
        left = min(sum(c // 8 == v for c in still_to_come), LE.LEFT_MAX)
        out.append(off["value"] + ((v * (n + 1) + counts[v]) * (LE.LEFT_MAX + 1) + left) * (n + 1) + empty)
    if colours:
        smax = n * nv + 1
        by = sorted(((sum(c // 8 + 1 for c in cards if c % 8 == col),
                      sum(c % 8 == col for c in cards), -col) for col in range(nc)
                     if any(c % 8 == col for c in cards)), reverse=True) + [(0, 0, None)] * 2
        (s1, c1, t1), (s2, c2, t2) = by[0], by[1]
        out.append(off["top"] + ((s1 * (n + 1) + c1) * smax + s2) * (n + 1) + empty)
        for k, (s, t) in enumerate(((s1, t1), (s2, t2))):
            left = 0 if t is None else min(sum(c % 8 == -t for c in still_to_come), LE.LEFT_MAX)
            out.append(off["left"] + k * smax * (LE.LEFT_MAX + 1) * (n + 1)
                       + (s * (LE.LEFT_MAX + 1) + left) * (n + 1) + empty)
    if streets:
        for col in range(nc):
            here = sum(1 << (c // 8) for c in cards if c % 8 == col)
            if here:
                ahead = sum(1 << (c // 8) for c in still_to_come if c % 8 == col)
                out.append(off["streets"] + ((here << nv) + ahead) * (n + 1) + empty)
    if seq:
        b = 2 * nv + 1
        syms = []
        for i, c in enumerate(cells):
            s = 0 if c < 0 else c // 8 + 1
            if c >= 0 and i > 0 and cells[i - 1] >= 0 and cells[i - 1] % 8 == c % 8:
                s += nv
            syms.append(s)
        for t in range(n - LE.TUPLE + 1):
            out.append(off["seq"] + t * b ** LE.TUPLE
                       + sum(syms[t + i] * b ** i for i in range(LE.TUPLE)))
    x = min(max(math.floor(base + 0.5) - LE.BASE_LO, 0), LE.BASE_BINS - 1)
    out.append(off["base"] + (phase * (n + 1) + empty) * LE.BASE_BINS + x)
    return out


def line_contribution(level, cells):
    line = score_line(level, cells)
    if level.aggregation == L.AGG_MARKERS_X10:
        return 10.0 * max(line.markers, 0)
    return float(line.value)


def afterstate_value(level, p, lines, grid, filled, still_to_come, bases, weights):
    """V of a grid (see numberup.learned._afterstate_value); ``bases``: the lines' base
    estimates."""
    ys = []
    for li in range(int(p[L.P_NLINES])):
        cells = [int(grid[c]) for c in lines[li]]
        idx = line_features(p, cells, filled, still_to_come, bases[li])
        ys.append(bases[li] + sum(weights[i] for i in idx) if idx
                  else line_contribution(level, cells))
    if p[L.P_AGG] != L.AGG_MIN_X10:
        return sum(ys)
    low = min(ys)
    acc = sum(math.exp(-(y - low) / LE.SOFT_MIN) for y in ys)
    return 10.0 * (low - LE.SOFT_MIN * math.log(acc)) + 1e-3 * sum(ys)


def medals(p, predicted, line_eval, value):
    """(mean, P(bronze), P(silver), P(gold), sum) of an afterstate (see
    numberup.players.learned._medals): ``predicted`` the line predictions, ``line_eval`` the
    random-completion estimates, ``value`` the learned value."""
    from numberup.scratch import DIST_HI, DIST_LO, N_STATS

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

        def at_least(li, u):
            if u <= DIST_LO:
                return 1.0
            if u > DIST_HI:
                return 0.0
            return line_eval[li][N_STATS + u - DIST_LO - 1]

        prob = 1.0
        for li in range(nl):
            x = (target + 9) // 10 - (predicted[li] - line_eval[li][0])
            u = math.floor(x)
            prob *= (1 - (x - u)) * at_least(li, u) + (x - u) * at_least(li, u + 1)
        out[1 + q] = prob
    return out
