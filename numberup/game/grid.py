"""Grid geometry as index tables, computed once per grid size.

Cells are numbered row-major. The 5x5 grid::

     0  1  2  3  4
     5  6  7  8  9
    10 11 12 13 14      centre: 12
    15 16 17 18 19
    20 21 22 23 24

The 6x6 grid has the four centre cells 14, 15, 20, 21. Lines are numbered rows 0..n-1, then
columns n..2n-1, then diagonal 2n (top-left to bottom-right) and 2n+1 (top-right to
bottom-left); a level that does not score diagonals uses the first 2n lines only.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

KIND_ROW, KIND_COL, KIND_DIAG = 0, 1, 2
KIND_NAMES = ("row", "col", "diag")


class Geometry(NamedTuple):
    """Index tables of one grid size (all ``int64``, read-only).

    Attributes
    ----------
    size : int
    lines : ndarray, shape (2*size + 2, size)
        Cell indices of every line, in reading order (left to right, top to bottom).
    line_kind, line_index : ndarray, shape (2*size + 2,)
        ``KIND_*`` and the index within the kind (row 0, col 3, diag 1, ...).
    cell_lines : ndarray, shape (size*size, 4)
        The lines through each cell, padded with -1 (row, col, then diagonals).
    neighbours : ndarray, shape (size*size, 4)
        Orthogonal neighbours of each cell, padded with -1.
    centre : ndarray
        The start cell(s): 1 on 5x5, 4 on 6x6.
    """

    size: int
    lines: np.ndarray
    line_kind: np.ndarray
    line_index: np.ndarray
    cell_lines: np.ndarray
    neighbours: np.ndarray
    centre: np.ndarray


def _frozen(a) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.int64)
    a.setflags(write=False)
    return a


@cache
def geometry(size: int) -> Geometry:
    """The index tables of the ``size`` x ``size`` grid."""
    n = size
    idx = np.arange(n * n).reshape(n, n)
    lines = [idx[r] for r in range(n)] + [idx[:, c] for c in range(n)]
    lines += [np.diag(idx), np.diag(idx[:, ::-1])]
    kind = [KIND_ROW] * n + [KIND_COL] * n + [KIND_DIAG] * 2
    index = list(range(n)) + list(range(n)) + [0, 1]

    cell_lines = -np.ones((n * n, 4), dtype=np.int64)
    fill = np.zeros(n * n, dtype=np.int64)
    for li, cells in enumerate(lines):
        for c in cells:
            cell_lines[c, fill[c]] = li
            fill[c] += 1

    neighbours = -np.ones((n * n, 4), dtype=np.int64)
    for r in range(n):
        for c in range(n):
            k = 0
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    neighbours[r * n + c, k] = rr * n + cc
                    k += 1

    h = n // 2
    centre = [h * n + h] if n % 2 else [(h - 1) * n + h - 1, (h - 1) * n + h, h * n + h - 1, h * n + h]
    return Geometry(n, _frozen(lines), _frozen(kind), _frozen(index), _frozen(cell_lines),
                    _frozen(neighbours), _frozen(centre))
