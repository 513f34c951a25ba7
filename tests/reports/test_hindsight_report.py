"""The hindsight report (numberup.reports.hindsight): the level table pairs each deal's
foresight optimum with the best player's game on it, and the gold plot draws its shares."""

from __future__ import annotations

import pytest

from numberup.game.levels import get_level


def test_level_table_pairs_deals_and_picks_the_best_player():
    import pandas as pd

    from numberup.reports.hindsight import gold_plot, level_table

    gold = get_level(1).medals[2]
    deals = pd.DataFrame({"level": 1, "game": [0, 1, 2, 3], "found": [gold, gold + 5, gold - 1, gold],
                          "bound": [100.0] * 4})
    games = pd.DataFrame({"level": 1, "policy": ["a"] * 4 + ["b"] * 4, "game": [0, 1, 2, 3] * 2,
                          "score": [gold, gold - 2, gold - 1, gold + 1, 0, 0, 0, 0]})
    (row,) = level_table(deals, games).to_dict("records")
    assert row["best"] == "a" and row["deals"] == 4
    assert row["p_gold_found"] == 0.75 and row["p_gold_player"] == 0.5
    assert row["p_gold_if_reachable"] == pytest.approx(2 / 3)
    assert row["below"] == 0.25 and row["above"] == 0.25 and row["p_gold_bound"] == 1.0
    assert row["warm_mean"] == (gold + gold + 5 + gold - 1 + gold + 1) / 4 and row["p_gold_warm"] == 0.75
    plot = gold_plot(level_table(deals, games))
    assert plot.data.p_gold_found.tolist() == [0.75]


def test_level_table_reports_the_search_alone_and_the_strongest_setting():
    import pandas as pd

    from numberup.reports.hindsight import gold_plot, level_table

    gold = get_level(1).medals[2]
    deals = pd.DataFrame({"level": 1, "game": [0, 1], "found": [gold, gold + 5],
                          "search": [gold - 3, gold + 5], "bound": [100.0] * 2})
    games = pd.DataFrame({"level": 1, "policy": "a", "game": [0, 1], "score": [gold, gold]})
    best = pd.DataFrame({"level": [1, 1, 2], "spec": ["x", "y", "z"], "games": [10, 20, 30],
                         "mean": [1.0, 2.0, 3.0], "p_gold": [0.5, 0.9, 1.0],
                         "p_gold_lo": [0.4, 0.8, 0.9], "p_gold_hi": [0.6, 0.95, 1.0],
                         "seconds_per_game": [0.1, 2.0, 0.1]})
    (row,) = level_table(deals, games, strongest=best).to_dict("records")
    assert row["p_gold_search"] == 0.5 and row["search_below"] == 0.5
    assert row["search_mean"] == gold + 1
    assert row["strongest"] == "y" and row["strongest_p_gold"] == 0.9 and row["strongest_games"] == 20
    plot = gold_plot(level_table(deals, games, strongest=best))
    assert plot.data.strongest_p_gold.tolist() == [0.9] and plot.data.p_gold_bound.tolist() == [1.0]


def test_the_warm_games_count_as_the_default_player():
    """deals.csv's warm column holds best's own games (simulate's default player): the
    table reports them apart and counts them among the players."""
    import pandas as pd

    from numberup.reports.hindsight import level_table

    gold = get_level(1).medals[2]
    deals = pd.DataFrame({"level": 1, "game": [0, 1], "found": [gold + 5, gold + 5],
                          "warm": [gold, gold + 2], "bound": [100.0] * 2})
    games = pd.DataFrame({"level": 1, "policy": "a", "game": [0, 1], "score": [gold - 1, gold]})
    (row,) = level_table(deals, games).to_dict("records")
    assert row["p_gold_default"] == 1.0 and row["default_mean"] == gold + 1
    assert row["best"] == "best" and row["best_gold"] == "best" and row["p_gold_player"] == 1.0
