"""Cells as people type them (numberup.game.cells): 'b3', 'B3', '3 2', '3,2' read as one cell,
the name of a cell read back as itself, and anything off the grid or malformed refused."""

from __future__ import annotations

import pytest

from numberup.errors import InputError
from numberup.game.cells import cell_name, parse_cell


@pytest.mark.parametrize("text,cell", [("b3", 11), ("B3", 11), ("3 2", 11), ("3,2", 11),
                                       ("a1", 0), ("e5", 24), ("1 5", 4)])
def test_parse_cell(text, cell):
    assert parse_cell(text, 5) == cell
    assert parse_cell(cell_name(cell, 5), 5) == cell


@pytest.mark.parametrize("text", ["f1", "6 1", "b0", "b", "33", "", "b3 c4", "z9", "0 0"])
def test_parse_cell_refuses(text):
    with pytest.raises(InputError):
        parse_cell(text, 5)
