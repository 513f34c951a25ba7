"""The score card of a grid: the plain-Python API of scoring.

:func:`score` scores one grid (full, or partial: the cards present) into a :class:`GameScore`
with one :class:`LineScore` per line; :func:`score_line` scores one line; :func:`score_grids`
scores many grids at once, without validation. Each validates and converts its input (text or
card ids: :func:`as_grid`) and calls the numba kernels of :mod:`numberup.game.scoring`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from . import levels as L
from .cards import EMPTY, parse_grid, parse_line
from ..errors import InputError
from .grid import KIND_NAMES, geometry
from .levels import Level, get_level
from .scoring import (
    MINUS, NULL_POINTS, _line_score, _line_value, _score_grid, _score_grids, _score_lines,
)


@dataclass(frozen=True)
class LineScore:
    """One scored line: ``points`` is None where there is none (no street / no triplet)."""

    kind: str
    index: int
    points: int | None
    markers: int
    value: int

    @property
    def marker(self) -> str:
        """'checkmarker' (xN), 'chip' or 'minus', for people."""
        if self.markers > 0:
            return "checkmarker" if self.markers == 1 else f"{self.markers} checkmarkers"
        return "minus marker" if self.markers == MINUS else "chip"


@dataclass(frozen=True)
class GameScore:
    level: int
    total: int
    medal: str
    lines: tuple[LineScore, ...]

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "total": self.total,
            "medal": self.medal,
            "lines": [asdict(line) for line in self.lines],
        }


def as_grid(level: int | Level, grid) -> np.ndarray:
    """A grid of this level as a fresh ``int8`` array: from its text or any array of card ids.

    Raises :class:`InputError` on a wrong size, an id not in the level's deck, or a duplicate.
    """
    lv = get_level(level)
    if isinstance(grid, str):
        return parse_grid(grid, lv)
    a = np.array(grid, dtype=np.int64).reshape(-1)
    if a.size != lv.cells:
        raise InputError(f"a level {lv.number} grid has {lv.cells} cells, not {a.size}")
    cards = a[a != EMPTY]
    bad = (cards < 0) | (cards // 8 >= lv.values) | (cards % 8 >= lv.colours)
    if bad.any():
        raise InputError(f"card id {int(cards[bad][0])} is not in level {lv.number}'s deck")
    if len(np.unique(cards)) != len(cards):
        raise InputError("a card appears twice in the grid (each card exists once)")
    return a.astype(np.int8)


def score(level: int | Level, grid) -> GameScore:
    """Score one grid (full, or partial: the cards present) of a level.

    Parameters
    ----------
    level : int or Level
    grid : str or array_like
        The text form (one row per line, ``3g`` cards, ``.`` empty) or card ids (see
        :mod:`numberup.game.cards`).

    Returns
    -------
    GameScore
        ``total``, ``medal`` and one :class:`LineScore` per line: rows, columns, diagonals.

    Examples
    --------
    >>> score(1, grid_text).total  # doctest: +SKIP
    64
    """
    lv = get_level(level)
    g = as_grid(lv, grid)
    geo = geometry(lv.size)
    p = L.PARAMS[lv.number]
    out = np.zeros((p[L.P_NLINES], 3), dtype=np.int64)
    _score_lines(p, g, geo.lines, out)
    total = int(_score_grid(p, g, geo.lines))
    lines = tuple(
        LineScore(
            KIND_NAMES[geo.line_kind[li]],
            int(geo.line_index[li]),
            None if out[li, 0] == NULL_POINTS else int(out[li, 0]),
            int(out[li, 1]),
            int(out[li, 2]),
        )
        for li in range(out.shape[0])
    )
    return GameScore(lv.number, total, lv.medal(total), lines)


def score_line(level: int | Level, cards) -> LineScore:
    """Score one line of a level, e.g. ``score_line(14, "3g 4g 2g 2r 2b")``.

    ``cards`` is the line's text (``.`` for empty cells) or card ids, at most the grid's side
    long; a shorter line is padded with empty cells at its end.
    """
    lv = get_level(level)
    ids = parse_line(cards, lv) if isinstance(cards, str) else np.asarray(cards, dtype=np.int8)
    line = np.full(lv.size, EMPTY, dtype=np.int8)
    line[: len(ids)] = ids
    table = np.arange(lv.size, dtype=np.int64).reshape(1, -1)
    points, markers = _line_score(L.PARAMS[lv.number], line, table, 0, lv.size)
    return LineScore(
        "line", 0, None if points == NULL_POINTS else int(points), int(markers),
        int(_line_value(points, markers)),
    )


def score_grids(level: int | Level, grids: np.ndarray) -> np.ndarray:
    """Game results of many grids at once: ``grids`` int8 (N, cells) -> int64 (N,).

    Inputs are not validated (this is the fast path for code that made the grids itself).
    """
    lv = get_level(level)
    grids = np.ascontiguousarray(grids, dtype=np.int8).reshape(-1, lv.cells)
    out = np.empty(grids.shape[0], dtype=np.int64)
    _score_grids(L.PARAMS[lv.number], grids, geometry(lv.size).lines, out)
    return out
