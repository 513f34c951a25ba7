"""The exact optimum of one deal with the order known: a mixed-integer programme (HiGHS).

With no hand and no discards, the cards placed are the first ``cells`` of the deck and card
``t`` is placed at turn ``t``. The model assigns them to cells:

- ``x[t, c]`` binary: card ``t`` on cell ``c``; every card on one cell, every cell one card;
- setup: on 5x5 card 0 on the centre, on 6x6 cards 0-3 on the four centre cells (any order);
- adjacency: ``x[t, c] <= sum of x[s, d]`` over the neighbours ``d`` of ``c`` and ``s < t``
  (a card touches a card placed before it);
- each line's value by the level's rule (:func:`_line_value_vars`), summed, or 10 x the
  checkmarkers on levels 12 and 14.

Every rule is written so that whatever the auxiliary choices, a line's modelled value is at
most its real value, and one choice reaches it: the programme's optimum is the best game's
result, and its dual bound a proven bound of every game on the deal. The optimal game is
replayed through the engine, which must give the programme's objective.

Levels: 1, 4-12 and 14-17. Not modelled: the diagonals and the lowest-line result (3), runs of
neighbouring cells (2, 13, 18-20), discards (3, 13), the hand of five (18-20).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..game import levels as L
from ..game.levels import Level, get_level
from .exact_lines import Model, line

RULES = (L.RULE_COLOUR_SUM, L.RULE_COLOUR_SECOND, L.RULE_PAIRS, L.RULE_ONES_TRIPLET,
         L.RULE_ONES_TRIPLET_MINUS, L.RULE_SINGLES, L.RULE_COUNT_X_COUNT, L.RULE_SUM_X_COUNT,
         L.RULE_TRIPLET_COLOUR_SUM, L.RULE_STREET_ANY)
_TOL = 1e-6


def supported(level: int | Level) -> bool:
    """Whether :func:`exact` models ``level``."""
    lv = get_level(level)
    return (lv.rule in RULES and lv.hand == 0 and lv.discards == 0 and not lv.diagonals
            and lv.aggregation in (L.AGG_SUM, L.AGG_MARKERS_X10))


LEVELS = tuple(n for n in range(1, 21) if supported(n))


def _milp():
    try:
        from scipy.optimize import milp
    except ImportError:  # pragma: no cover - depends on the install
        raise InputError("the exact model needs scipy: pip install 'numberup[exact]'") from None
    return milp


@dataclass
class Exact:
    """One deal's exact model, solved within a time limit.

    ``optimal``: the optimum was proven; then ``found`` is its result and ``moves`` its game
    (int8 rows (card, cell), replayed legally through the engine). Otherwise ``found`` and
    ``moves`` are ``None`` (the incumbent is never reported) and only ``bound`` holds.
    ``bound``: a proven upper bound of every game's result on the deal (the optimum when
    proven). ``hit_limit``: the time limit stopped the solver."""
    level: int
    optimal: bool
    found: int | None
    moves: np.ndarray | None
    bound: int
    seconds: float
    hit_limit: bool


def build(level: int | Level, deck: np.ndarray, prefix=None):
    """(model, X, constant) of the deal ``deck`` (draw order) after the decisions ``prefix``
    (rows (card, cell), in draw order); ``X[t][c]`` the assignment variables."""
    from ..game.grid import geometry

    lv = get_level(level)
    if not supported(lv):
        raise InputError(f"level {lv.number}: no exact model (levels {_ranges(LEVELS)} have one: "
                         "no hand, no discards, no diagonals, no runs of neighbouring cells)")
    geo = geometry(lv.size)
    n_cells = lv.cells
    cards = np.asarray(deck[:n_cells], np.int64)
    centre = [int(c) for c in geo.centre]
    m = Model()
    X = [[m.var() for _ in range(n_cells)] for _ in range(n_cells)]
    for t in range(n_cells):
        m.row([(X[t][c], 1.0) for c in range(n_cells)], lo=1.0, hi=1.0)
    for c in range(n_cells):
        m.row([(X[t][c], 1.0) for t in range(n_cells)], lo=1.0, hi=1.0)
    setup = len(centre)
    for t in range(setup):
        for c in range(n_cells):
            if c not in centre:
                m.ub[X[t][c]] = 0.0
    for t in range(setup, n_cells):
        for c in range(n_cells):
            if c in centre:
                m.ub[X[t][c]] = 0.0
                continue
            nb = [int(d) for d in geo.neighbours[c] if d >= 0]
            m.row([(X[t][c], 1.0)] + [(X[s][d], -1.0) for d in nb for s in range(t)], hi=0.0)
    pre = [] if prefix is None else [(int(a), int(b)) for a, b in np.asarray(prefix).reshape(-1, 2)]
    for t, (card, cell) in enumerate(pre):
        if t >= n_cells or card != cards[t] or not 0 <= cell < n_cells:
            raise ValueError("the decisions given are not a game of this deck")
        m.lb[X[t][cell]] = 1.0
    const = 0.0
    for li in range(lv.size * 2):
        const += line(m, lv, cards, X, [int(c) for c in geo.lines[li, : lv.size]])
    return m, X, const


def _ranges(ns) -> str:
    out, run = [], []
    for k in ns:
        if run and k == run[-1] + 1:
            run.append(k)
        else:
            if run:
                out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
            run = [k]
    out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


def exact(level: int | Level, deck: np.ndarray, seconds: float = 10.0, prefix=None) -> Exact:
    """Solve the deal's exact model within ``seconds`` (see the module)."""
    from scipy.optimize import Bounds, LinearConstraint
    from scipy.sparse import csr_matrix

    from ..runs.loop import max_moves
    from .warm import checked

    milp = _milp()
    lv = get_level(level)
    t0 = time.perf_counter()
    m, X, const = build(lv, deck, prefix)
    A = csr_matrix((m.vals, (m.rows, m.cols)), shape=(len(m.lo), len(m.lb)))
    res = milp(-np.asarray(m.cost), constraints=LinearConstraint(A, m.lo, m.hi),
               integrality=np.asarray(m.integer), bounds=Bounds(m.lb, m.ub),
               options={"time_limit": float(seconds), "disp": False, "mip_rel_gap": 0.0})
    step = 10 if lv.aggregation == L.AGG_MARKERS_X10 else 1
    dual = getattr(res, "mip_dual_bound", None)
    if res.status == 0:
        dual = -res.fun if dual is None or not np.isfinite(dual) else -dual
    elif dual is None or not np.isfinite(dual):
        dual = math.inf
    else:
        dual = -dual
    bound = math.inf if not np.isfinite(dual) else math.floor((dual + const + _TOL) / step) * step
    seconds_used = time.perf_counter() - t0
    hit = res.status == 1
    if res.status != 0:
        if res.status == 2:
            raise ValueError("the decisions given are not a game of this deck")
        return Exact(lv.number, False, None, None, bound, seconds_used, hit)
    x = np.asarray(res.x)
    n_cells = lv.cells
    moves = np.full((max_moves(lv), 2), -1, np.int8)
    for t in range(n_cells):
        moves[t, 0] = deck[t]
        moves[t, 1] = int(np.argmax([x[X[t][c]] for c in range(n_cells)]))
    value = int(round(-res.fun + const))
    checked(lv, np.asarray(deck), value, moves, f"level {lv.number}: the exact model's game")
    return Exact(lv.number, True, value, moves, value, seconds_used, False)
