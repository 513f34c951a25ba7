"""The design bound of chapter 2: the best grid of the placed cards, order and adjacency dropped.

On levels 6-10 a line's points read only its cards' values, and on these levels (no hand, no
discards) the placed cards are exactly the deck's first ``cells``. Drop the draw order and the
adjacency rule: what is left is the best way to lay the placed values out in the grid, a
figure that depends on the deal only through how many cards of each value it places. It is at
least the result of every legal game on the deal, so it bounds them all; where the solver
proves it, no relaxation that keeps the rows' and columns' shared cards can do better.

The model (CP-SAT): ``x[v, c]`` true when cell ``c`` holds a card of value ``v``; every cell
one value, every value on as many cells as the deal places; every line scored by the level's
rule (:func:`numberup.analysis.exact_lines.line_values`, the exact model's own lines). Each
count vector is solved once, offline, within a deterministic time limit; its proven bound
(the optimum, where proven) is kept in the package's table ``numberup/data/design.csv``
(``python results/design.py``), so :func:`bound` is a look-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from ..game.grid import geometry
from ..game.levels import Level, get_level
from .exact_lines import CHAPTER_2, Board, line_values


def applies(level: int | Level) -> bool:
    """Whether the design bound exists on ``level`` (chapter 2: values only, no hand, no
    discards)."""
    lv = get_level(level)
    return lv.rule in CHAPTER_2 and not lv.hand and not lv.discards and not lv.diagonals


def counts(level: int | Level, deck: np.ndarray) -> tuple[int, ...]:
    """How many of the placed cards (the deck's first ``cells``) have each value 1.."""
    lv = get_level(level)
    placed = np.asarray(deck[: lv.cells], np.int64) // 8
    return tuple(int(np.sum(placed == v)) for v in range(lv.values))


def every_count(level: int | Level) -> list[tuple[int, ...]]:
    """Every count vector a deal of ``level`` can place (each value at most ``colours`` times)."""
    lv = get_level(level)

    def split(total, k):
        if k == 1:
            return [(total,)] if total <= lv.colours else []
        return [(a,) + rest for a in range(min(total, lv.colours) + 1)
                for rest in split(total - a, k - 1)]

    return split(lv.cells, lv.values)


@dataclass
class Design:
    """One count vector solved: ``bound`` (proven), ``best`` (the best layout's result found)
    and its grid of values (``size * size``), ``optimal`` (they meet), ``work`` (deterministic
    seconds)."""
    level: int
    counts: tuple[int, ...]
    bound: int
    best: int
    grid: np.ndarray
    optimal: bool
    work: float


def level_of(level: int | Level, count: tuple[int, ...], name: str) -> Level:
    """``level`` as a :class:`Level`, :class:`ValueError` where it has no count-vector bound
    ``name`` or ``count`` is not a count vector of it."""
    lv = get_level(level)
    if not applies(lv):
        raise ValueError(f"level {lv.number}: no {name} bound (levels 6-10 have one)")
    if len(count) != lv.values or sum(count) != lv.cells:
        raise ValueError(f"level {lv.number}: {lv.values} counts adding up to {lv.cells}")
    return lv


def solve(level: int | Level, count: tuple[int, ...], seconds: float = 60.0, hint=None,
          at_most: int | None = None, setup: list[int] | None = None) -> Design:
    """The best layout of ``count`` (cards of each value) on ``level``'s grid, within
    ``seconds`` of CP-SAT's deterministic time on one thread (the same answer on any machine).
    ``hint``: a layout to start from (``cells`` values 1..); ``at_most``: a proven bound of
    every layout of ``count``, which lets the solver stop once a layout reaches it (neither
    changes the optimum). ``setup``: the values (1..) of the deal's setup cards, which then
    lie on the centre cells (every game of the deal has them there: a layout of the deal)."""
    from .exact import _cp_model, _solver

    cp_model = _cp_model()
    lv = level_of(level, count, "design")
    m = cp_model.CpModel()
    cells = range(lv.cells)
    x = [[m.NewBoolVar("") for _ in cells] for _ in range(lv.values)]
    for c in cells:
        m.AddExactlyOne([x[v][c] for v in range(lv.values)])
    for v in range(lv.values):
        m.Add(sum(x[v]) == int(count[v]))
    cards = [v * 8 for v in range(lv.values)]  # one card of each value stands for them all
    result = sum(line_values(Board(m, x, cards), lv))
    m.Maximize(result)
    if setup is not None:
        mid = geometry(lv.size).centre.tolist()
        for v in range(lv.values):
            m.Add(sum(x[v][c] for c in mid) == sum(1 for u in setup if u == v + 1))
    if hint is not None:
        for c in cells:
            for v in range(lv.values):
                m.AddHint(x[v][c], int(hint[c]) == v + 1)
    if at_most is not None:
        m.Add(result <= int(at_most))
    solver = _solver(cp_model, seconds)
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"level {lv.number} {count}: no layout within {seconds} s")
    grid = np.array([next(v for v in range(lv.values) if solver.BooleanValue(x[v][c])) + 1
                     for c in cells], np.int8)
    bound = math.floor(solver.BestObjectiveBound() + 1e-6)
    best = int(round(solver.ObjectiveValue()))
    return Design(lv.number, tuple(count), bound, best, grid, status == cp_model.OPTIMAL,
                  solver.deterministic_time)


@cache
def read_table(name: str) -> dict[tuple[int, tuple[int, ...]], int]:
    """{(level, counts): proven bound} from the package's count-vector table
    ``data/<name>.csv`` (empty when the file is absent)."""
    import csv

    path = resources.files("numberup") / "data" / f"{name}.csv"
    if not path.is_file():
        return {}
    with path.open() as f:
        return {(int(r["level"]), tuple(int(k) for k in r["counts"].split())): int(r["bound"])
                for r in csv.DictReader(f)}


def table() -> dict[tuple[int, tuple[int, ...]], int]:
    """The design bound's table, ``data/design.csv`` (:func:`read_table`)."""
    return read_table("design")


def look_up(name: str, level: int | Level, deck: np.ndarray) -> int | None:
    """The bound the table ``name`` holds for the deal's count vector, or ``None`` (not a
    chapter-2 level, or the vector not in the table)."""
    lv = get_level(level)
    if not applies(lv):
        return None
    return read_table(name).get((lv.number, counts(lv, deck)))


def bound(level: int | Level, deck: np.ndarray) -> int | None:
    """The design bound of the deal (a table look-up), or ``None`` where there is none."""
    return look_up("design", level, deck)
