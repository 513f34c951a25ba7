"""Reading run directories back (numberup.runs.tables.read_runs): the tables of several stacked,
and a level and player given twice taken from the first directory."""

from __future__ import annotations

import pandas as pd

from numberup.runs.tables import read_runs


def test_read_runs_stacks_the_tables(runs, tables):
    g = [pd.read_parquet(runs[p] / "games.parquet") for p in ("greedy", "random")]
    assert len(tables.games) == sum(len(x) for x in g) == 2 * 3 * 50
    assert len(tables.summary) == 6
    assert tables.games["score"].tolist() == pd.concat(g)["score"].tolist()


def test_read_runs_takes_a_repeated_level_and_player_from_the_first_directory(runs):
    both = read_runs([runs["greedy"], runs["random"], runs["greedy"]])
    once = read_runs([runs["greedy"], runs["random"]])
    pd.testing.assert_frame_equal(both.games, once.games)
    pd.testing.assert_frame_equal(both.summary, once.summary)
    first = read_runs([runs["random"], runs["greedy"]])
    assert first.games["policy"].iloc[0] == "random" and len(first.games) == len(once.games)
