"""The crossing bound of chapter 2: row and column patterns whose cards of each value can cross.

On levels 6-10 a line's value reads only how many cards of each value it holds (its *pattern*),
and the placed cards are exactly the deck's first ``cells``. The row partition
(:func:`numberup.analysis.bounds.row_partition`) splits the placed values into row patterns
and, apart, into column patterns. It drops that the rows and the columns lay out the same
cards: the cards of one value lie on cells that form a 0/1 matrix, whose row sums are that
value's counts in the row patterns and whose column sums are its counts in the column patterns.
Such a matrix exists exactly when the two lists of sums pass the Gale-Ryser test (the largest
``k`` row sums add up to at most what the columns can give ``k`` rows, for every ``k``). Two
rows each holding three 5s need three columns holding two 5s, for example.

The bound: the best row patterns and column patterns (each a split of the placed values into
``size`` lines) such that every value's row and column sums pass the test. It drops the order,
the adjacency, and that the values' matrices must fill the grid without overlapping (which the
design bound, :mod:`numberup.analysis.design`, keeps, but rarely closes). It depends on the deal
only through how many cards of each value it places, so every count vector is solved once,
offline, with CP-SAT on one thread within a deterministic limit (``python results/design.py
--bound crossing --level N``); the proven bound is kept in the package's table
``numberup/data/crossing.csv`` and :func:`bound` is a look-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..game import levels as L
from ..game.levels import Level, get_level
from .design import level_of, look_up, read_table
from .design import every_count  # noqa: F401 (re-exported: the count vectors it solves)


def gale_ryser(rows: tuple[int, ...], cols: tuple[int, ...]) -> bool:
    """Whether some 0/1 matrix has row sums ``rows`` and column sums ``cols``."""
    if sum(rows) != sum(cols):
        return False
    ordered = sorted(rows, reverse=True)
    return all(sum(ordered[:k]) <= sum(min(c, k) for c in cols) for k in range(1, len(rows) + 1))


def _sums(total: int, lines: int, most: int | None = None) -> list[tuple[int, ...]]:
    """Every non-increasing list of ``lines`` counts, each at most ``most`` (default: ``lines``,
    the cells of a line), adding to ``total``."""
    most = lines if most is None else most
    if lines == 0:
        return [()] if total == 0 else []
    return [(a,) + rest for a in range(min(total, most), -1, -1)
            for rest in _sums(total - a, lines - 1, a)]


@cache
def crossings(total: int, lines: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (row sums, column sums) pair of ``total`` cards of one value on a ``lines`` x
    ``lines`` grid that some 0/1 matrix has."""
    sums = _sums(total, lines)
    return [(r, c) for r in sums for c in sums if gale_ryser(r, c)]


def modes(values: int, n: int) -> list[tuple[int, ...]]:
    """Every value-count vector of ``n`` cards over ``values`` values."""
    if values == 1:
        return [(n,)]
    return [(k,) + rest for k in range(n + 1) for rest in modes(values - 1, n - k)]


@cache
def mode_values(number: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Chapter 2: every value-count vector of a line (``modes``: cards of each value 1..) and
    the line value each scores."""
    from ..game.grid import geometry
    from ..game.scoring import _line_score, _line_value

    lv = get_level(number)
    n = lv.size
    p = L.PARAMS[number]
    lines = geometry(n).lines
    patterns = modes(lv.values, n)
    grid = np.full(n * n, -1, np.int8)
    values = []
    for mode in patterns:
        cells = [v * 8 + c for v in range(lv.values) for c in range(mode[v])]  # distinct colours
        grid[:n] = cells
        points, markers = _line_score(p, grid, lines, np.int64(0), n)
        values.append(int(_line_value(points, markers)))
    return patterns, values


@dataclass
class Crossing:
    """One count vector solved: ``bound`` (proven), ``optimal`` (the solver closed it),
    ``work`` (deterministic seconds)."""
    level: int
    counts: tuple[int, ...]
    bound: int
    optimal: bool
    work: float


def solve(level: int | Level, count: tuple[int, ...], seconds: float = 60.0) -> Crossing:
    """The crossing bound of the count vector ``count`` on ``level`` (see the module), within
    ``seconds`` of CP-SAT's deterministic time on one thread (the same answer on any machine).

    ``rows[k]``/``cols[k]``: how many rows/columns take pattern ``k``; for each value one pair
    of sums from :func:`crossings` is chosen, and the lines holding ``j`` cards of the value
    are as many as that pair's sums equal to ``j``."""
    from .exact import _cp_model, _solver

    cp_model = _cp_model()
    lv = level_of(level, count, "crossing")
    n = lv.size
    patterns, values = mode_values(lv.number)
    m = cp_model.CpModel()
    rows = [m.NewIntVar(0, n, f"r{k}") for k in range(len(patterns))]
    cols = [m.NewIntVar(0, n, f"c{k}") for k in range(len(patterns))]
    for side in (rows, cols):
        m.Add(sum(side) == n)
    for v in range(lv.values):
        pairs = crossings(int(count[v]), n)
        pick = [m.NewBoolVar("") for _ in pairs]
        m.AddExactlyOne(pick)
        for j in range(n + 1):
            for s, side in enumerate((rows, cols)):
                m.Add(sum(side[k] for k, mode in enumerate(patterns) if mode[v] == j)
                      == sum(b * pair[s].count(j) for b, pair in zip(pick, pairs)))
    m.Maximize(sum(values[k] * (rows[k] + cols[k]) for k in range(len(patterns))))
    solver = _solver(cp_model, seconds)
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"level {lv.number} {count}: no patterns within {seconds} s")
    return Crossing(lv.number, tuple(count), math.floor(solver.BestObjectiveBound() + 1e-6),
                    status == cp_model.OPTIMAL, solver.deterministic_time)


def table() -> dict[tuple[int, tuple[int, ...]], int]:
    """{(level, counts): proven bound} from the package's ``data/crossing.csv`` (empty when the
    file is absent)."""
    return read_table("crossing")


def bound(level: int | Level, deck: np.ndarray) -> int | None:
    """The crossing bound of the deal (a table look-up), or ``None`` where there is none."""
    return look_up("crossing", level, deck)
