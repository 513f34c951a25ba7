"""The exact model of a deal (numberup.analysis.exact): on every level it models, a whole game
fixed in the model scores what the plain-Python reference scores; on endgames of real deals its
optimum is the brute-force optimum and its bound, under any time limit, never below it; its
optimal games replay legally; other levels and bad decisions are refused."""

import numpy as np
import pytest

from oracles.reference import ref_game
from test_hindsight import _card, brute_force

from numberup.analysis import hindsight
from numberup.analysis.exact import LEVELS, exact, supported
from numberup.analysis.warm import player_games, replayed
from numberup.errors import InputError
from numberup.game.levels import get_level


def test_the_levels_modelled():
    assert LEVELS == (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17)


@pytest.mark.parametrize("level", LEVELS, ids=[f"level-{n}" for n in LEVELS])
def test_a_whole_game_fixed_scores_as_the_reference(level):
    """Every line rule's model reaches the line's real value, and no more: with every card's
    cell fixed the optimum is the grid's score. The games are the random player's (minus
    markers, chips and checkmarkers alike) and the beam's."""
    lv = get_level(level)
    n = lv.size
    games = [(hindsight.deal(lv, 2026, g), m)
             for g, (_, m) in player_games(lv, 2026, 0, 3, "random").items()]
    deck = hindsight.deal(lv, 5, 0)
    games.append((deck, hindsight.search(lv, deck, width=2, pilots=0)[1]))
    for deck, moves in games:
        played = moves[moves[:, 0] >= 0]
        grid = {int(cell): int(card) for card, cell in played}
        want = ref_game(level, [[_card(grid[r * n + c]) for c in range(n)] for r in range(n)])
        got = exact(lv, deck, seconds=60, prefix=played)
        assert got.optimal and got.found == want == got.bound


ENDGAMES = [(1, 5), (4, 4), (8, 4), (9, 4), (11, 4), (12, 4), (14, 4), (15, 4), (16, 4), (17, 4)]


@pytest.mark.parametrize("level,left", ENDGAMES, ids=[f"level-{n}" for n, _ in ENDGAMES])
def test_endgames_against_brute_force(level, left):
    for game in range(2):
        deck = hindsight.deal(level, 11, game)
        moves = hindsight.search(level, deck, width=4)[1]
        prefix = moves[moves[:, 0] >= 0][: get_level(level).cells - left]
        best = brute_force(level, deck, [tuple(int(x) for x in m) for m in prefix])
        got = exact(level, deck, seconds=60, prefix=prefix)
        assert got.optimal and got.found == best == got.bound
        score, played = replayed(get_level(level), deck, got.moves)
        assert score == best and np.array_equal(played[: len(prefix)], prefix)
        # stopped at once, the bound stays a bound
        assert exact(level, deck, seconds=1e-3, prefix=prefix).bound >= best


def test_a_deal_solved_whole_replays_legally():
    deck = hindsight.deal(10, 2026, 0)  # level 10 closes in a few seconds
    got = exact(10, deck, seconds=120)
    assert got.optimal and not got.hit_limit
    score, played = replayed(get_level(10), deck, got.moves)
    assert score == got.found and np.array_equal(played, got.moves)


def test_hindsight_keeps_the_exact_outcome_per_deal():
    run = hindsight.run_level(1, 2026, 2, jobs=1, width=2, pilot=None, warm=None,
                              exact_seconds=0.5)
    deals = run.deals()
    assert set(deals["exact"]) <= {"optimal", "limit", ""}
    assert ((deals["exact"] == "optimal") <= deals["optimal"]).all()
    assert (deals["bound"] >= deals["found"]).all()
    off = hindsight.run_level(1, 2026, 2, jobs=1, width=2, pilot=None, warm=None).deals()
    assert (off["exact"] == "").all() and (off["exact_seconds"] == 0).all()
    assert "exact_deals" not in hindsight.run_level(2, 2026, 1, jobs=1, width=2, pilot=None,
                                                    warm=None, exact_seconds=0.5).summary()


def test_other_levels_and_bad_decisions_are_refused():
    for level in (2, 3, 13, 18, 19, 20):
        assert not supported(level)
        with pytest.raises(InputError, match=f"level {level}: no exact model"):
            exact(level, hindsight.deal(level, 1, 0))
    deck = hindsight.deal(1, 1, 0)
    with pytest.raises(ValueError, match="not a game of this deck"):
        exact(1, deck, prefix=[(int(deck[1]), 12)])  # not the card drawn first
