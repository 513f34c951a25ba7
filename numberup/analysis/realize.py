"""Playing a layout: the best grid of a deal's cards (:mod:`numberup.analysis.design`, order and
adjacency dropped), turned into a legal game of the deal in its draw order.

On levels 6-10 the placed cards are the deck's first ``cells`` and a line's points read only
its values, so a game is worth what its final grid of values is worth. The design model finds
the best such grid for the deal's values; the deal's order and the touching rule decide only
whether a game can end on it. A grid's rows can be put in any order, and so can its columns,
and it can be transposed, without changing any line's value (chapter 2 scores rows and
columns only), so each grid stands for up to ``2 (size!)^2`` grids of the same worth.

:func:`realize` looks for one of them that the deal can play: a depth-first search puts
card ``t`` on a free cell of its value that touches a card placed earlier (the first card on
the centre; on 6x6 the first four on the centre cells), preferring cells that open the way to
values drawn soon, and gives up on an arrangement after a budget of nodes. Cards of one value
are alike here, so the search only chooses cells. Everything is seeded: the same deal and
seed try the same arrangements in the same order.

:func:`layout_game` solves the deal's layout with CP-SAT (starting from a game already found,
capped by a proven bound), plays it where it can, and replays the game through the engine.
The layout's proven bound bounds every game of the deal too.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..game.cards import card_value
from ..game.grid import geometry
from ..game.levels import Level, get_level
from . import design

TRIES = 2000  # arrangements of the layout's rows and columns tried
NODES = 2000  # decisions the search makes on one arrangement before it gives up
AHEAD = 8  # cards drawn next whose values a cell's opening is judged by


@cache
def _cells(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each cell's orthogonal neighbours, and the setup (centre) cells, of the grid."""
    geo = geometry(size)
    return (tuple(tuple(int(d) for d in row if d >= 0) for row in geo.neighbours),
            tuple(geo.centre.tolist()))


def values(level: int | Level, deck: np.ndarray) -> list[int]:
    """The values (1..) of the deal's placed cards (the deck's first ``cells``), in draw order."""
    return [card_value(int(c)) for c in deck[: get_level(level).cells]]


def play(grid, placed: list[int], size: int, nodes: int = NODES) -> list[int] | None:
    """The cell of every card (``placed``: the cards' values in draw order, ``cells`` of them)
    in a legal game that ends on ``grid`` (a value per cell), or ``None`` where the search finds
    none within ``nodes`` decisions."""
    n = size * size
    nb, mid = _cells(size)
    if sorted(grid[c] for c in mid) != sorted(placed[: len(mid)]):
        return None
    filled = [False] * n
    touching = [0] * n  # filled neighbours of each cell
    place = [-1] * n
    for t in range(len(mid)):  # the setup: each card on a centre cell of its value
        c = next(c for c in mid if not filled[c] and grid[c] == placed[t])
        filled[c], place[t] = True, c
        for d in nb[c]:
            touching[d] += 1
    budget = [nodes]

    def opens(c, soon):  # how many cells of values drawn soon placing on c makes reachable
        return sum(1 for d in nb[c] if not filled[d] and touching[d] == 0 and grid[d] in soon)

    def search(t):
        if t == n:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        v = placed[t]
        free = [c for c in range(n) if not filled[c] and touching[c] and grid[c] == v]
        if len(free) > 1:
            soon = set(placed[t + 1: t + 1 + AHEAD])
            free.sort(key=lambda c: -opens(c, soon))
        for c in free:
            filled[c], place[t] = True, c
            for d in nb[c]:
                touching[d] += 1
            if search(t + 1):
                return True
            for d in nb[c]:
                touching[d] -= 1
            filled[c] = False
        return False

    return place if search(len(mid)) else None


def arrangements(grid: np.ndarray, size: int, first: list[int], seed: int, tries: int):
    """Up to ``tries`` seeded arrangements of ``grid`` (its rows in some order, its columns in
    some order, transposed or not), each a flat list of values, all with the setup cards'
    values ``first`` on the centre cells: each picks at random a way of putting rows and
    columns through the centre that does so, and orders the other rows and columns at random."""
    g = np.asarray(grid).reshape(size, size)
    lo = (size - 1) // 2  # the first centre row and column
    mid = size - 2 * lo  # 1 (5x5) or 2 (6x6) centre rows and columns
    want = sorted(first)
    ways = []  # (transposed, centre rows, centre columns)
    for flip in (False, True):
        h = g.T if flip else g
        for rows in itertools.permutations(range(size), mid):
            for cols in itertools.permutations(range(size), mid):
                if sorted(h[r, c] for r in rows for c in cols) == want:
                    ways.append((flip, rows, cols))
    if not ways:
        return
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        flip, rows, cols = ways[rng.integers(len(ways))]
        h = g.T if flip else g
        order = []
        for through in (rows, cols):
            rest = [i for i in range(size) if i not in through]
            rest = [rest[i] for i in rng.permutation(len(rest))]
            order.append(rest[:lo] + list(through) + rest[lo:])
        yield h[order[0]][:, order[1]].ravel().tolist()


def first_played(grid, placed: list[int], size: int, seed: int, tries: int = TRIES,
                 nodes: int = NODES) -> tuple[int, list[int]] | None:
    """(how many arrangements were tried, the cell of every card) for the first of ``grid``'s
    arrangements (:func:`arrangements`, seeded by ``seed``) that :func:`play` plays with the
    cards' values ``placed``, or ``None`` where none of ``tries`` is played."""
    setup = len(_cells(size)[1])
    for k, arranged in enumerate(arrangements(grid, size, placed[:setup], seed, tries), 1):
        place = play(arranged, placed, size, nodes)
        if place is not None:
            return k, place
    return None


def realize(level: int | Level, deck: np.ndarray, grid, seed: int = 0, tries: int = TRIES,
            nodes: int = NODES) -> np.ndarray | None:
    """The moves (card, cell) of a legal game of ``deck`` (draw order) that ends on ``grid``
    (values 1.. per cell) or an arrangement of its rows and columns, or ``None`` where none of
    ``tries`` arrangements is played within ``nodes`` decisions each."""
    lv = get_level(level)
    if not design.applies(lv):
        raise ValueError(f"level {lv.number}: no layout to play (levels 6-10 have one)")
    got = first_played(grid, values(lv, deck), lv.size, seed, tries, nodes)
    if got is None:
        return None
    cards = np.asarray(deck[: lv.cells], np.int64)
    return np.array([[cards[t], cell] for t, cell in enumerate(got[1])], np.int8)


def grid_of(level: int | Level, moves: np.ndarray) -> np.ndarray:
    """The final grid of values (1..) of a whole game's ``moves``."""
    lv = get_level(level)
    grid = np.zeros(lv.cells, np.int8)
    for card, cell in moves:
        if card >= 0 and cell >= 0:
            grid[cell] = card_value(int(card))
    return grid


@dataclass
class Layout:
    """A deal's layout solved and played: ``best`` the layout's result, ``bound`` its proven
    bound (of every game of the deal), ``found``/``moves`` the game that plays it (``None``
    where no arrangement could be played), ``work`` the solver's deterministic seconds."""
    best: int
    bound: int
    found: int | None
    moves: np.ndarray | None
    work: float


def layout_game(level: int | Level, deck: np.ndarray, seconds: float, seed: int = 0,
                start: np.ndarray | None = None, at_most: float | None = None) -> Layout:
    """Solve the layout of the deal's placed values within ``seconds`` of CP-SAT's
    deterministic time (from the final grid of ``start``, a whole game, where given; capped
    by ``at_most``, a proven bound), and play it (:func:`realize`, seeded by ``seed``). The
    game is replayed through the engine: it scores at least the layout's modelled result, and
    exactly that where the layout is proven optimal."""
    from .exact import _replayed_score

    lv = get_level(level)
    cap = None if at_most is None or not math.isfinite(at_most) else int(math.floor(at_most))
    hint = None if start is None else grid_of(lv, start)
    setup = values(lv, deck)[: len(_cells(lv.size)[1])]
    d = design.solve(lv, design.counts(lv, deck), seconds, hint=hint, at_most=cap, setup=setup)
    moves = realize(lv, deck, d.grid, seed)
    found = None
    if moves is not None:  # the model values a line at most at its worth, so at least d.best
        found = _replayed_score(lv, np.asarray(deck), d.best, moves, d.optimal, "layout's")
    return Layout(d.best, d.bound, found, moves, d.work)
