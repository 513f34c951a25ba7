"""Playing a layout (numberup.analysis.realize): the arrangements of a grid keep every line's
worth and put the setup cards' values on the centre; a game the search plays is a legal game of
the deal that ends on an arrangement of the layout; the grid of any real game is played again;
an impossible layout is refused; and hindsight's layout stage (levels 6-10) finds games at least
as good as the search's, under a bound never below a game played."""

import numpy as np
import pytest

from oracles.reference import ref_game
from test_hindsight import _card

from numberup.analysis import bounds, design, hindsight, realize
from numberup.analysis.warm import player_games, replayed
from numberup.game.grid import geometry
from numberup.game.levels import get_level


def _score(level, grid):
    """The reference's result of a grid of values (any colours: chapter 2 reads values only)."""
    lv = get_level(level)
    n = lv.size
    return ref_game(level, [[_card((int(grid[r * n + c]) - 1) * 8 + (r + c) % lv.colours)
                             for c in range(n)] for r in range(n)])


def _rows_and_columns(grid, n):
    g = np.asarray(grid).reshape(n, n)
    return sorted(map(tuple, np.sort(g, 1))), sorted(map(tuple, np.sort(g.T, 1)))


@pytest.mark.parametrize("level", [8, 9])
def test_arrangements_keep_the_lines_and_the_setup(level):
    lv = get_level(level)
    n = lv.size
    rng = np.random.default_rng(level)
    grid = rng.integers(1, lv.values + 1, lv.cells)
    first = [int(grid[c]) for c in geometry(n).centre.tolist()]
    rng.shuffle(first)
    rows, cols = _rows_and_columns(grid, n)
    score = _score(level, grid)
    got = list(realize.arrangements(grid, n, first, 5, 40))
    assert len(got) == 40
    for a in got:
        assert sorted(a[c] for c in geometry(n).centre.tolist()) == sorted(first)
        r, c = _rows_and_columns(a, n)
        assert (r, c) in ((rows, cols), (cols, rows))  # the same lines, or transposed
        assert _score(level, a) == score
    assert got == list(realize.arrangements(grid, n, first, 5, 40))  # seeded
    assert list(realize.arrangements(np.full(lv.cells, 1), n, [2] * len(first), 5, 9)) == []


@pytest.mark.parametrize("level", [6, 7, 8, 9, 10])
def test_the_grid_of_a_game_played_is_played_again(level):
    """A real game's final grid can be reached in its deal's order, so the search plays it
    (or an arrangement of it), and the game it returns replays to the same result."""
    lv = get_level(level)
    for game, (score, moves) in player_games(lv, 2026, 0, 3, "greedy").items():
        deck = hindsight.deal(lv, 2026, game)
        grid = realize.grid_of(lv, moves)
        assert _score(level, grid) == score
        got = realize.realize(lv, deck, grid, seed=game)
        assert got is not None
        result, played = replayed(lv, deck, got)
        assert result == score and np.array_equal(played, got)
        assert _rows_and_columns(realize.grid_of(lv, got), lv.size) in (
            _rows_and_columns(grid, lv.size),
            _rows_and_columns(np.asarray(grid).reshape(lv.size, lv.size).T.ravel(), lv.size))


def test_a_layout_without_the_first_card_at_its_centre_is_refused():
    lv = get_level(8)
    deck = hindsight.deal(lv, 2026, 0)
    first = int(deck[0]) // 8 + 1
    grid = np.array([int(c) // 8 + 1 for c in deck[: lv.cells]])
    grid[grid == first] = first % lv.values + 1  # no cell holds the first card's value
    assert realize.realize(lv, deck, grid, tries=50) is None
    with pytest.raises(ValueError, match="levels 6-10"):
        realize.realize(get_level(11), deck, grid)


def test_play_follows_the_rules():
    """On a 5x5 grid of one value every order of cells is legal if each touches an earlier
    one: the search's cells are all different, the first on the centre, each later one next
    to an earlier one."""
    values = [1] * 25
    place = realize.play([1] * 25, values, 5)
    assert place[0] == 12 and sorted(place) == list(range(25))
    nb = geometry(5).neighbours
    for t in range(1, 25):
        assert any(d in place[:t] for d in nb[place[t]] if d >= 0)


@pytest.mark.parametrize("level", [7, 8, 9])
def test_layout_game_beats_the_search_under_a_sound_bound(level):
    lv = get_level(level)
    for game, (score, moves) in player_games(lv, 2026, 0, 2, "best").items():
        deck = hindsight.deal(lv, 2026, game)
        laid = realize.layout_game(lv, deck, 3, seed=game, start=moves,
                                   at_most=bounds.bound(lv, deck))
        assert laid.best >= score  # started from the game: never worse
        assert laid.bound >= score and laid.bound >= laid.best
        if laid.found is not None:
            assert laid.bound >= laid.found >= laid.best
            assert replayed(lv, deck, laid.moves)[0] == laid.found
    setup = [int(c) // 8 + 1 for c in deck[: len(geometry(lv.size).centre.tolist())]]
    d = design.solve(lv, design.counts(lv, deck), 3, setup=setup)
    assert sorted(int(d.grid[c]) for c in geometry(lv.size).centre.tolist()) == sorted(setup)


def test_hindsight_plays_the_layout():
    """On level 8's first decks the layout stage finds games the search did not, every found
    game at or below the bound; --jobs does not change the deals."""
    quick = dict(warm=None, pilot=None, width=4, layout_seconds=1)  # a weak search: room to gain
    one = hindsight.run_level(8, 2026, 3, jobs=1, keep=True, **quick)
    two = hindsight.run_level(8, 2026, 3, jobs=2, **quick)
    assert np.array_equal(one.found, two.found) and np.array_equal(one.bound, two.bound)
    assert (one.found >= one.search).all() and (one.found <= one.bound).all()
    assert "layout" in set(one.found_by)
    deals = one.deals()
    assert (deals.layout.dropna() <= deals.bound[deals.layout.notna()]).all()
    s = one.summary()
    assert s["layout_deals"] >= 1 and s["found_by_layout"] > 0
    for f in one.solved:
        assert replayed(get_level(8), f.deck, f.moves)[0] == f.found
        assert f.optimal == (f.found >= f.bound)
        assert f.layout_ran or f.search >= f.bound  # it runs wherever the deal was open
