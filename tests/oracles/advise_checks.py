"""advise's rankings read as actions of the exact reference (:mod:`oracles.expectiminimax`):
shared by the tests that hold the searchers' values against it."""

from __future__ import annotations

from .reference import parse_card

TOL = 1e-9  # exact values agree to rounding
# advise's column for each objective
OBJECTIVE_KEY = {"mean": "mean", "bronze": "p_bronze", "silver": "p_silver", "gold": "p_gold"}


def action_of(row: dict) -> tuple:
    """An advise row as the reference's action: (card, (row, col) or None)."""
    return parse_card(row["card"]), tuple(row["cell"]) if row["cell"] is not None else None
