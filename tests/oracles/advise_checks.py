"""advise's rankings read as actions of the exact reference (:mod:`oracles.expectiminimax`),
and a position where the mean and P(gold) choose apart: shared by the tests that hold the
searchers' values against it."""

from __future__ import annotations

from .reference import parse_card

TOL = 1e-9  # exact values agree to rounding
# advise's column for each objective
OBJECTIVE_KEY = {"mean": "mean", "bronze": "p_bronze", "silver": "p_silver", "gold": "p_gold"}


def action_of(row: dict) -> tuple:
    """An advise row as the reference's action: (card, (row, col) or None)."""
    return parse_card(row["card"]), tuple(row["cell"]) if row["cell"] is not None else None


# Level 1, the last two cells: 4b on (1, 2) makes gold (80) whatever comes; on (3, 0) the mean
# is higher (81.83) but gold only with 4 of the 6 unseen cards.
GOLD_GRID = """\
1y 5n 2b 2n 4g
3y 1n . 4r 1r
3b 3r 2o 1b 5b
. 4n 2g 5g 3g
5y 1o 3o 2y 4y
"""
SAFE, RISKY = (1, 2), (3, 0)
