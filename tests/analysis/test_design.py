"""The design bound of chapter 2 (numberup.analysis.design): the layouts it finds score what the
reference scores, its bound is never below a legal game of the deal, the package's table holds
what the solver gives, and it applies only where the rule reads values alone."""

import csv
from importlib import resources

import numpy as np
import pytest

from oracles.reference import ref_game
from test_hindsight import _card

from numberup.analysis import bounds, design, hindsight
from numberup.analysis.warm import player_games
from numberup.game.levels import get_level


def test_every_count_vector():
    for level in (8, 9):
        lv = get_level(level)
        vectors = design.every_count(level)
        assert len(vectors) == len(set(vectors))
        assert all(sum(v) == lv.cells and max(v) <= lv.colours for v in vectors)
    assert len(design.every_count(8)) == 126  # 25 cards, values 1-5, at most 6 of each


@pytest.mark.parametrize("level", [6, 8, 10])
def test_the_best_layout_scores_as_the_reference(level):
    lv = get_level(level)
    deck = hindsight.deal(lv, 2026, 3)
    got = design.solve(lv, design.counts(lv, deck), seconds=5)
    n = lv.size
    grid = [[_card((int(got.grid[r * n + c]) - 1) * 8 + (r + c) % lv.colours) for c in range(n)]
            for r in range(n)]
    assert ref_game(level, grid) == got.best <= got.bound
    assert sorted(got.grid) == sorted(int(c) // 8 + 1 for c in deck[: lv.cells])


def test_the_bound_is_above_every_game_played():
    lv = get_level(8)
    for game, (score, moves) in player_games(lv, 2026, 0, 6, "best").items():
        deck = hindsight.deal(lv, 2026, game)
        d = design.solve(lv, design.counts(lv, deck), seconds=5)
        assert d.bound >= score and bounds.bound(lv, deck) >= score


def _table_rows():
    path = resources.files("numberup") / "data" / "design.csv"
    if not path.is_file():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def test_the_table_holds_what_the_solver_gives():
    """A row the solver closed quickly, solved again with the table's limit: the same figure
    (one thread, a deterministic limit); and the look-up reads the table."""
    rows = [r for r in _table_rows() if float(r["work"]) < 5]
    assert rows, "numberup/data/design.csv has no quickly closed row"
    row = rows[0]
    level, count = int(row["level"]), tuple(int(k) for k in row["counts"].split())
    again = design.solve(level, count, seconds=float(row["seconds"]))
    assert (again.bound, again.best, int(again.optimal)) == (int(row["bound"]), int(row["best"]),
                                                            int(row["optimal"]))
    assert design.table()[(level, count)] == again.bound


def test_only_chapter_2_has_one():
    assert [n for n in range(1, 21) if design.applies(n)] == [6, 7, 8, 9, 10]
    assert design.bound(14, hindsight.deal(14, 1, 0)) is None
    with pytest.raises(ValueError, match="no design bound"):
        design.solve(14, (5,) * 5)
    with pytest.raises(ValueError, match="counts adding up to 25"):
        design.solve(8, (5, 5, 5, 5, 4))
    assert np.sum(design.counts(8, hindsight.deal(8, 1, 0))) == 25
