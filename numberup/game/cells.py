"""Cells for people: a column letter and a row number from the top left (``b3``: column b, row
3), or two numbers, row then column (``3 2``: the same cell); a cell index is
``row * size + col``."""

from __future__ import annotations

import re

from ..errors import InputError

COLUMN_LETTERS = "abcdef"


def centre_cells(size: int) -> list[int]:
    from .grid import geometry

    return [int(c) for c in geometry(size).centre]


def cell_name(cell: int, size: int) -> str:
    """``cell_name(7, 5) -> 'c2'`` (column c, row 2)."""
    return f"{COLUMN_LETTERS[cell % size]}{cell // size + 1}"


_CELL_AN = re.compile(r"^([a-f])\s*([1-6])$")
_CELL_NN = re.compile(r"^([1-6])[\s,]+([1-6])$")


def parse_cell(text: str, size: int) -> int:
    """``'b3'`` (column b, row 3) or ``'3 2'`` (row 3, column 2) -> the cell index."""
    t = text.strip().lower()
    m = _CELL_AN.match(t)
    if m:
        col, row = COLUMN_LETTERS.index(m.group(1)), int(m.group(2)) - 1
    else:
        m = _CELL_NN.match(t)
        if not m:
            raise InputError(
                f"{text.strip()!r} is not a cell: type a column letter and a row number "
                f"(e.g. b3) or row and column numbers (e.g. 3 2)"
            )
        row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise InputError(
            f"{text.strip()!r} is off the {size}x{size} grid (columns a-{COLUMN_LETTERS[size - 1]}, "
            f"rows 1-{size})"
        )
    return row * size + col
