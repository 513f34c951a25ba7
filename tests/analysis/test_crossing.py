"""The crossing bound of chapter 2 (numberup.analysis.crossing): the Gale-Ryser test against
every 0/1 matrix of a small grid, the bound between the best layout and the row partition, never
below a game played, and the package's table holding what the solver gives."""

import csv
import itertools
from importlib import resources

import numpy as np
import pytest

from numberup.analysis import bounds, crossing, design, hindsight
from numberup.analysis.warm import player_games
from numberup.game.levels import get_level


def test_gale_ryser_against_every_small_matrix():
    n = 3
    seen = set()
    for bits in itertools.product((0, 1), repeat=n * n):
        rows = tuple(sum(bits[r * n: r * n + n]) for r in range(n))
        cols = tuple(sum(bits[c::n]) for c in range(n))
        seen.add((rows, cols))
    for rows in itertools.product(range(n + 1), repeat=n):
        for cols in itertools.product(range(n + 1), repeat=n):
            assert crossing.gale_ryser(rows, cols) == ((rows, cols) in seen)


@pytest.mark.parametrize("n", [3, 4])
def test_the_lists_of_sums_are_every_list(n):
    for total in range(n * n + 1):
        every = {tuple(sorted(c, reverse=True))
                 for c in itertools.product(range(n + 1), repeat=n) if sum(c) == total}
        assert sorted(crossing._sums(total, n)) == sorted(every)


def test_crossings_against_every_small_matrix():
    n = 3
    seen = {}
    for bits in itertools.product((0, 1), repeat=n * n):
        rows = tuple(sorted((sum(bits[r * n: r * n + n]) for r in range(n)), reverse=True))
        cols = tuple(sorted((sum(bits[c::n]) for c in range(n)), reverse=True))
        seen.setdefault(sum(bits), set()).add((rows, cols))
    for total, pairs in seen.items():
        assert set(crossing.crossings(total, n)) == pairs


def test_two_rows_of_three_need_three_columns():
    assert not crossing.gale_ryser((3, 3, 0, 0, 0), (3, 3, 0, 0, 0))
    assert crossing.gale_ryser((3, 3, 0, 0, 0), (2, 2, 2, 0, 0))
    assert ((3, 3, 0, 0, 0), (2, 2, 1, 1, 0)) in crossing.crossings(6, 5)


@pytest.mark.parametrize("level", [6, 7, 8, 10])
def test_between_the_best_layout_and_the_row_partition(level):
    lv = get_level(level)
    for game in range(2):
        deck = hindsight.deal(lv, 2026, game)
        got = crossing.solve(lv, design.counts(lv, deck), seconds=10)
        layout = design.solve(lv, design.counts(lv, deck), seconds=1)
        assert got.optimal
        assert layout.best <= got.bound <= bounds.row_partition(lv, deck)


def test_tighter_than_the_row_partition_somewhere():
    lv = get_level(8)
    decks = [hindsight.deal(lv, 2026, g) for g in range(10)]
    assert any(crossing.bound(lv, d) < bounds.row_partition(lv, d) for d in decks)


def test_never_below_the_learned_players_games():
    lv = get_level(8)
    for game, (score, _) in player_games(lv, 2026, 0, 8, "learned").items():
        deck = hindsight.deal(lv, 2026, game)
        assert crossing.bound(lv, deck) >= score and bounds.bound(lv, deck) >= score


def _table_rows():
    path = resources.files("numberup") / "data" / "crossing.csv"
    with path.open() as f:
        return list(csv.DictReader(f))


def test_the_table_holds_what_the_solver_gives():
    rows = _table_rows()
    assert {int(r["level"]) for r in rows} >= {6, 7, 8, 10}
    for level in (6, 7, 8, 10):
        assert len([r for r in rows if int(r["level"]) == level]) == len(crossing.every_count(level))
    for row in rows[::97][:4]:
        level, count = int(row["level"]), tuple(int(k) for k in row["counts"].split())
        again = crossing.solve(level, count, seconds=float(row["seconds"]))
        assert (again.bound, int(again.optimal)) == (int(row["bound"]), int(row["optimal"]))
        assert crossing.table()[(level, count)] == again.bound
    assert crossing.bound(14, hindsight.deal(14, 1, 0)) is None
