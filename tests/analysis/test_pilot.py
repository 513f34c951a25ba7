"""The nested Monte Carlo search with a player's playouts (numberup.analysis.pilot): its games
legal with their score, never above the brute-force optimum of an endgame and equal to it where
every action is tried and nothing is left to the pilot, the same on every repeat and thread,
and bad input refused."""

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from oracles.replay import replay
from test_hindsight import brute_force

from numberup.analysis import hindsight
from numberup.analysis.pilot import pilot_search, restart_seed

LEVELS = [1, 9, 14, 19, 20]  # draw-and-place, 5x5 discards, lowest line, 6x6 with a hand of five


def _endgame(level, game, left):
    deck = hindsight.deal(level, 11, game)
    _, moves = hindsight.search(level, deck, width=8)
    played = moves[moves[:, 0] >= 0]
    return deck, played[: len(played) - left]


@pytest.mark.parametrize("level", LEVELS, ids=[f"level-{n}" for n in LEVELS])
def test_endgames_against_brute_force(level):
    for game in range(2):
        deck, prefix = _endgame(level, game, 1)
        exact = brute_force(level, deck, [tuple(int(x) for x in m) for m in prefix])
        # one decision left and every action tried: the search is exhaustive
        assert pilot_search(level, deck, seed=game, width=1000, prefix=prefix)[0] == exact
        deck, prefix = _endgame(level, game, 4)
        exact = brute_force(level, deck, [tuple(int(x) for x in m) for m in prefix])
        for width in (1, 3, 1000):
            found, moves = pilot_search(level, deck, seed=game, width=width, prefix=prefix)
            assert found <= exact
            assert np.array_equal(moves[: len(prefix)], prefix)


@pytest.mark.parametrize("level", LEVELS, ids=[f"level-{n}" for n in LEVELS])
def test_games_replay_with_their_score(level):
    deck = hindsight.deal(level, 2026, 3)
    found, moves = pilot_search(level, deck, seed=5, width=2)
    f = hindsight.Foresight(level, 3, 0, found, None, False, deck, moves)
    replay(json.loads(json.dumps(f.record())), level)  # legal; the score is the reference's


def test_same_result_on_repeat_and_on_threads_and_a_seed_of_its_own():
    deck = hindsight.deal(19, 4, 0)
    one = pilot_search(19, deck, seed=9, width=2)
    with ThreadPoolExecutor(2) as pool:
        two = list(pool.map(lambda s: pilot_search(19, deck, seed=s, width=2), (9, 9)))
    for found, moves in two:
        assert found == one[0] and np.array_equal(moves, one[1])


def test_solve_keeps_the_better_search_and_reports_both():
    f = hindsight.solve(19, 2026, 2, width=4, pilot_width=2)
    assert f.pilot is not None and f.search == max(f.beam, f.pilot)
    g = hindsight.solve(19, 2026, 2, width=4, pilot=None)
    assert g.pilot is None and g.search == g.beam == f.beam


def test_restarts_keep_the_best_of_the_searches_from_their_own_streams():
    """``restarts=R`` is the first best of R single searches, restart k from restart_seed(k);
    restart 0 is the search from the seed itself, and the streams differ."""
    deck = hindsight.deal(18, 2026, 56)
    single = [pilot_search(18, deck, seed=restart_seed(7, k), width=2, restarts=1)
              for k in range(3)]
    assert restart_seed(7, 0) == 7 and len({restart_seed(7, k) for k in range(3)}) == 3
    found, moves = pilot_search(18, deck, seed=7, width=2, restarts=3)
    top = max(range(3), key=lambda k: (single[k][0], -k))
    assert found == single[top][0] and np.array_equal(moves, single[top][1])
    assert pilot_search(18, deck, seed=7, width=2, restarts=1)[0] == single[0][0]


def test_bad_input_is_refused():
    deck = hindsight.deal(1, 1, 0)
    with pytest.raises(ValueError, match="width"):
        pilot_search(1, deck, width=0)
    with pytest.raises(ValueError, match="restarts"):
        pilot_search(1, deck, restarts=0)
    with pytest.raises(ValueError, match="not a game of this deck"):
        pilot_search(1, deck, prefix=[(63, 12)])  # no such card


def test_deals_table_keeps_beam_and_pilot_apart():
    run = hindsight.run_level(4, 2026, 3, jobs=1, width=4, pilot_width=2)
    deals = run.deals()
    assert (deals["search"] == np.maximum(deals["beam"], deals["pilot"].astype(int))).all()
    alone = hindsight.run_level(4, 2026, 3, jobs=1, width=4, pilot=None).deals()
    assert alone["pilot"].isna().all() and (alone["search"] == alone["beam"]).all()
    assert (alone["beam"] == deals["beam"]).all()


def test_both_searches_refuse_a_prefix_off_the_cells_on_offer():
    """A card placed on a cell that touches no card, or on a full one, or off the setup's
    centre, is not a move of the game: the beam's and the nested search's replays refuse it."""
    for level, prefix in ((1, [(0, 12), (1, 0)]), (1, [(0, 12), (1, 12)]), (16, [(0, 0)])):
        deck = hindsight.deal(level, 1, 0)
        prefix = [(int(deck[k]), cell) for k, (_, cell) in enumerate(prefix)]
        with pytest.raises(ValueError, match="not a game of this deck"):
            hindsight.search(level, deck, prefix=prefix, width=1, pilots=0)
        with pytest.raises(ValueError, match="not a game of this deck"):
            pilot_search(level, deck, prefix=prefix, width=1)
