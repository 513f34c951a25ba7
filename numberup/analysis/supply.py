"""The colour-supply bound of the colour-sum levels (1, 2, 4, 5): what each colour's cards can
give the rows and the columns at once.

On these levels a line's points come from the sums of its cards of one colour: the largest
(levels 1, 5; on level 2 the largest run, at most the colour's sum in the line), or the second
largest (level 4, where a line needs two colours). A line scores ``theta`` points or more only
where one colour (two on level 4) puts cards worth ``theta`` or more in it. Each card lies in one
row and one column, so a colour's cards can serve a few rows and a few columns together: the
cards a row takes are apart from those another row takes, and a row and a column share at most
the one card on their crossing. A colour worth 15 (1 to 5) can give one row and one column 9
each (row 3+5+1, column 3+4+2, sharing the 3), but never two rows.

The bound: for each colour, every way its cards can serve rows and columns at a few tiers of
points (the target, then one and two below it: the largest chips) is enumerated; the colours'
services are added up, each line takes the best tier it has enough services for (one colour,
or two on level 4), and a line with none scores at most the points below the lowest tier. The
best total over every choice of the colours bounds every game on the deal: it keeps which
colours the deal places and that rows and columns share cards, and drops the order, the
adjacency, where in a line a card lies and that a card's row and column take the same cell.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from ..game import levels as L
from ..game.levels import Level, get_level

RULES = (L.RULE_COLOUR_SUM, L.RULE_COLOUR_RUN_SUM, L.RULE_COLOUR_SECOND)
TIERS = 3  # the target and the two largest chips below it


def applies(level: int | Level) -> bool:
    """Whether the colour-supply bound exists on ``level`` (colour sums over rows and columns,
    summed, every placed card known: levels 1, 2, 4, 5)."""
    lv = get_level(level)
    return (lv.rule in RULES and not lv.diagonals and not lv.discards and not lv.hand
            and lv.aggregation == L.AGG_SUM)


@cache
def services(values: tuple[int, ...], thetas: tuple[int, ...], most: int) -> frozenset:
    """Every way cards worth ``values`` (one colour) can serve lines at once: the set of
    (rows at each tier, columns at each tier) — a row or column at tier ``i`` gets cards worth
    ``thetas[i]`` or more (and less than ``thetas[i - 1]``), at most ``most`` of each.

    Each card goes to at most one served row and one served column, and two cards never share
    both (a row and a column cross on one cell). Rows (and columns) are interchangeable, so a
    card opens a new row only after the ones already used (canonical labels)."""
    out = set()
    n = len(values)
    row_of, col_of = [0] * n, [0] * n

    def tier_counts(sums):
        counts = [0] * len(thetas)
        for s in sums:
            for i, t in enumerate(thetas):
                if s >= t:
                    counts[i] += 1
                    break
        return tuple(counts)

    def place(k, rows, cols, crossings):
        if k == n:
            row_sums, col_sums = [0] * rows, [0] * cols
            for v, r, c in zip(values, row_of, col_of):
                if r:
                    row_sums[r - 1] += v
                if c:
                    col_sums[c - 1] += v
            out.add((tier_counts(row_sums), tier_counts(col_sums)))
            return
        for r in range(min(rows + 1, most) + 1):
            for c in range(min(cols + 1, most) + 1):
                if r and c and (r, c) in crossings:
                    continue
                row_of[k], col_of[k] = r, c
                place(k + 1, max(rows, r), max(cols, c),
                      crossings | {(r, c)} if r and c else crossings)

    place(0, 0, 0, frozenset())
    return frozenset(out)


def _ways(values: list[int], thetas: tuple[int, ...], n: int) -> frozenset:
    """:func:`services` of one colour's placed ``values`` on a grid of ``n`` lines a side (it
    serves at most as many lines a side as the lowest tier fits in its cards, and ``n``)."""
    return services(tuple(sorted(values)), thetas, min(n, sum(values) // thetas[-1]))


def _cumulative(counts, cap):
    """Services per tier as running totals from the top tier (a service at a tier also serves
    every lower tier), each kept to ``cap`` (more than every line needs never helps)."""
    out, total = [], 0
    for k in counts:
        total += k
        out.append(min(total, cap))
    return tuple(out)


def _frontier(states):
    """The states no other state beats at every position (the others never give more)."""
    states = sorted(set(states), reverse=True)
    kept = []
    for s in states:
        if not any(all(a >= b for a, b in zip(k, s)) for k in kept):
            kept.append(s)
    return kept


def _lines_value(cumulative, need, worth, rest, n):
    """The best total of ``n`` lines given running totals of services from the top tier, each
    served line taking ``need`` services: the top tiers first."""
    total, used, left = 0, 0, n
    for k, w in zip(cumulative, worth):
        use = min(left, (k - used * need) // need)
        total += use * w
        left -= use
        used += use
    return total + left * rest


def _setting(lv: Level, deck: np.ndarray):
    """(thetas, worth per tier, rest, services a served line needs, {colour: its placed values})."""
    from .exact_lines import points_value

    target = int(lv.targets[0])
    thetas = tuple(range(target, target - TIERS, -1))
    worth = [points_value(lv.number, t)[0] for t in thetas]
    rest = points_value(lv.number, thetas[-1] - 1)[0]
    need = 2 if lv.rule == L.RULE_COLOUR_SECOND else 1
    by_colour: dict[int, list[int]] = {}
    for card in np.asarray(deck[: lv.cells], np.int64):
        by_colour.setdefault(int(card) % 8, []).append(int(card) // 8 + 1)
    return thetas, worth, rest, need, by_colour


def bound(level: int | Level, deck: np.ndarray) -> int | None:
    """The colour-supply bound of the deal (see the module), or ``None`` where there is none."""
    lv = get_level(level)
    if not applies(lv):
        return None
    n = lv.size
    thetas, worth, rest, need, by_colour = _setting(lv, deck)
    cap = need * n
    reach = [(0,) * (2 * TIERS)]
    for values in by_colour.values():
        options = _frontier(_cumulative(a, cap) + _cumulative(b, cap)
                            for a, b in _ways(values, thetas, n))
        reach = _frontier(tuple(min(x + y, cap) for x, y in zip(r, o))
                          for r in reach for o in options)
    return max(_lines_value(s[:TIERS], need, worth, rest, n)
               + _lines_value(s[TIERS:], need, worth, rest, n) for s in reach)


def paired_bound(level: int | Level, deck: np.ndarray, seconds: float = 10.0) -> int | None:
    """Level 4's colour-supply bound with each line's two colours told apart (OR-Tools CP-SAT,
    one thread, ``seconds`` of its deterministic time: the same figure on any machine), or
    ``None`` on the other levels. :func:`bound` adds the colours' services up, so one colour
    may count twice in a line; here each line is given its tier and the colours serving it,
    each colour at most once a line and within one of its ways of serving (:func:`services`).
    Rows (and columns) are interchangeable, so they are taken in order of value. Its proven
    bound, never above :func:`bound`'s."""
    from .exact import _cp_model, _solver

    lv = get_level(level)
    if not applies(lv) or lv.rule != L.RULE_COLOUR_SECOND:
        return None
    cp_model = _cp_model()
    n = lv.size
    thetas, worth, rest, need, by_colour = _setting(lv, deck)
    m = cp_model.CpModel()
    lines, tiers = range(2 * n), range(TIERS)
    serve = {(ln, k, i): m.NewBoolVar("") for ln in lines for k in by_colour for i in tiers}
    at = {(ln, i): m.NewBoolVar("") for ln in lines for i in tiers}  # the line's tier
    for ln in lines:
        m.AddAtMostOne([at[ln, i] for i in tiers])
        for k in by_colour:
            m.AddAtMostOne([serve[ln, k, i] for i in tiers])
        for i in tiers:  # a service at a higher tier serves a lower one too
            m.Add(sum(serve[ln, k, j] for k in by_colour for j in range(i + 1)) >= need
                  ).OnlyEnforceIf(at[ln, i])
    for k, values in by_colour.items():
        ways = sorted(_ways(values, thetas, n))
        pick = [m.NewBoolVar("") for _ in ways]
        m.AddExactlyOne(pick)
        for i in tiers:
            for side, span in ((0, range(n)), (1, range(n, 2 * n))):
                m.Add(sum(serve[ln, k, i] for ln in span)
                      <= sum(b * way[side][i] for b, way in zip(pick, ways)))
    value = [sum(worth[i] * at[ln, i] for i in tiers)
             + rest * (1 - sum(at[ln, i] for i in tiers)) for ln in lines]
    for a in range(n - 1):
        m.Add(value[a] >= value[a + 1])
        m.Add(value[n + a] >= value[n + a + 1])
    m.Maximize(sum(value))
    solver = _solver(cp_model, seconds)
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return bound(lv, deck)
    return min(bound(lv, deck), int(math.floor(solver.BestObjectiveBound() + 1e-6)))
