"""The exact model of a deal (numberup.analysis.exact, CP-SAT): on every level a whole game fixed
in the model scores what the plain-Python reference scores; on endgames of real deals its
optimum is the brute-force optimum and its bound, under any time limit, never below it; its
games replay legally; the same deal gives the same answer; bad decisions are refused."""

import numpy as np
import pytest

from oracles.reference import ref_game
from test_hindsight import _card, brute_force

from numberup.analysis import hindsight
from numberup.analysis.exact import LEVELS, exact, supported
from numberup.analysis.warm import player_games, replayed
from numberup.game.levels import get_level

ALL = list(range(1, 21))


def test_every_level_is_modelled():
    assert LEVELS == tuple(ALL) and all(supported(n) for n in ALL)


def _reference(level, moves):
    n = get_level(level).size
    grid = {int(cell): int(card) for card, cell in moves[moves[:, 0] >= 0] if cell >= 0}
    return ref_game(level, [[_card(grid[r * n + c]) for c in range(n)] for r in range(n)])


@pytest.mark.parametrize("level", ALL, ids=[f"level-{n}" for n in ALL])
def test_a_whole_game_fixed_scores_as_the_reference(level):
    """Every line rule's model reaches the line's real value, and no more: with every decision
    fixed the optimum is the grid's score. The games are the random player's (minus markers,
    chips and checkmarkers alike, discards where the level has them) and the beam's."""
    lv = get_level(level)
    games = [(hindsight.deal(lv, 2026, g), m)
             for g, (_, m) in player_games(lv, 2026, 0, 2, "random").items()]
    deck = hindsight.deal(lv, 5, 0)
    games.append((deck, hindsight.search(lv, deck, width=2, pilots=0)[1]))
    for deck, moves in games:
        played = moves[moves[:, 0] >= 0]
        want = _reference(level, moves)
        got = exact(lv, deck, seconds=60, prefix=played)
        assert got.optimal and got.found == want == got.bound
        assert np.array_equal(got.moves[: len(played)], played)


# every family of rule, and every special: discards (3, 13), diagonals and the lowest line
# (3, 20), runs of neighbouring cells (2, 13, 18-20), 6x6 setup (5, 9, 12, 15, 17, 19, 20), a
# hand of five (18-20), checkmarkers only (12, 14)
ENDGAMES = [(1, 4), (2, 4), (3, 4), (4, 4), (8, 4), (9, 4), (10, 4), (11, 4), (12, 4), (13, 4),
            (14, 4), (15, 4), (16, 4), (17, 4), (18, 3), (19, 3), (20, 3)]


@pytest.mark.parametrize("level,left", ENDGAMES, ids=[f"level-{n}" for n, _ in ENDGAMES])
def test_endgames_against_brute_force(level, left):
    for game in range(2):
        deck = hindsight.deal(level, 11, game)
        moves = hindsight.search(level, deck, width=4)[1]
        played = moves[moves[:, 0] >= 0]
        prefix = played[: len(played) - left]
        best = brute_force(level, deck, [tuple(int(x) for x in m) for m in prefix])
        got = exact(level, deck, seconds=60, prefix=prefix)
        assert got.optimal and got.found == best == got.bound
        score, again = replayed(get_level(level), deck, got.moves)
        assert score == best and np.array_equal(again[: len(prefix)], prefix)
        # stopped at once, the bound stays a bound, and a game found is real
        quick = exact(level, deck, seconds=1e-3, prefix=prefix)
        assert quick.bound >= best and (quick.found is None or quick.found <= best)


@pytest.mark.parametrize("level", [3, 13, 20], ids=["level-3", "level-13", "level-20"])
def test_whole_deals_solved_replay_legally(level):
    """Levels whose deals close in a few seconds: discards and diagonals, runs, a hand of five."""
    deck = hindsight.deal(level, 2026, 0)
    got = exact(level, deck, seconds=60)
    assert got.optimal and not got.hit_limit and got.found == got.bound
    score, played = replayed(get_level(level), deck, got.moves)
    assert score == got.found and np.array_equal(played, got.moves)


def test_a_start_game_and_known_figures_only_help():
    """Started from a game with its result and a proven bound known, the model's game is never
    below the start game, and its bound never above the known one; the same deal gives the same
    answer (one thread, a deterministic time limit)."""
    lv = get_level(8)
    deck = hindsight.deal(lv, 2026, 1)
    score, moves = hindsight.search(lv, deck, width=2, pilots=0)
    runs = [exact(lv, deck, seconds=2, start=moves, at_least=score, at_most=115) for _ in range(2)]
    for got in runs:
        assert got.found >= score and got.bound <= 115
    assert runs[0].found == runs[1].found and runs[0].bound == runs[1].bound
    assert np.array_equal(runs[0].moves, runs[1].moves)


def test_hindsight_keeps_the_exact_outcome_per_deal():
    run = hindsight.run_level(1, 2026, 2, jobs=1, width=2, pilot=None, warm=None,
                              exact_seconds=0.5)
    deals = run.deals()
    assert set(deals["exact"]) <= {"optimal", "limit", ""}
    assert ((deals["exact"] == "optimal") <= deals["optimal"]).all()
    assert (deals["bound"] >= deals["found"]).all()
    assert ((deals["found_by"] == "exact") <= (deals["found"] > deals["search"])).all()
    off = hindsight.run_level(1, 2026, 2, jobs=1, width=2, pilot=None, warm=None).deals()
    assert (off["exact"] == "").all() and (off["exact_seconds"] == 0).all()


def test_hindsight_with_the_exact_model_does_not_depend_on_jobs():
    """Level 18 (a hand of five): the model finds better games than the beam there, and the
    same ones on one thread or two."""
    runs = [hindsight.run_level(18, 2026, 2, jobs=jobs, width=2, pilot=None, warm=None,
                                exact_seconds=1).deals() for jobs in (1, 2)]
    for col in ("found", "found_by", "bound", "optimal", "exact"):
        assert runs[0][col].tolist() == runs[1][col].tolist()
    assert (runs[0]["found"] >= runs[0]["search"]).all()


def test_bad_decisions_are_refused():
    deck = hindsight.deal(1, 1, 0)
    with pytest.raises(ValueError, match="not a game of this deck"):
        exact(1, deck, prefix=[(int(deck[1]), 12)])  # not the card drawn first
    with pytest.raises(ValueError, match="not a game of this deck"):
        exact(1, deck, prefix=[(int(deck[0]), 0)])  # the first card goes on the centre
    with pytest.raises(ValueError, match="not a game of this deck"):
        exact(1, deck, prefix=[(int(deck[0]), 12), (int(deck[1]), -1)])  # no discards on 1
