"""Calibration (numberup.analysis.calibrate): predictions of the move played against the
game's end, binned.

A prediction is exactly advise's estimate of the move played at that position (the same
continuations, seeded alike); the games are simulate's games of the seed; the table's
counts, rates and Wilson intervals are recomputed here from the predictions.
"""

from __future__ import annotations

import numpy as np
import pytest

from numberup.analysis.advise import advice
from numberup.analysis.calibrate import TABLE_COLUMNS, _decision_seed, predictions, reliability
from numberup.game.cards import format_card, format_grid
from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.stats import wilson

LEVEL, GAMES, SEED, M = 14, 24, 5, 16


@pytest.fixture(scope="module")
def pred():
    return predictions(LEVEL, parse_player("greedy"), GAMES, SEED, continuations=M,
                       decisions=2, jobs=1)


def test_predictions_are_advise_estimates_of_the_move_played(pred):
    lv = get_level(LEVEL)
    batch = play_batch(lv, parse_player("greedy"), SEED, 0, GAMES, 1)
    assert pred["score"].tolist() == np.repeat(batch.scores, 2).tolist()
    assert set(pred.groupby("game").size()) == {2}
    for row in pred.head(6).itertuples():
        grid = np.full(lv.cells, -1, np.int8)
        for card, cell in batch.moves[row.game][:row.decision]:
            grid[cell] = card
        card, cell = (int(x) for x in batch.moves[row.game][row.decision])
        got = advice(LEVEL, format_grid(grid, lv.size), format_card(card), "", None,
                     "greedy", _decision_seed(SEED, row.game, row.decision),
                     candidates=None, continuations=M)
        est = next(a["estimate"] for a in got["actions"]
                   if a["cell"] == [cell // lv.size, cell % lv.size])
        assert (row.predicted_mean, row.predicted_gold) == pytest.approx(
            (est["mean"], est["p_gold"]), abs=1e-12)


def test_predictions_do_not_depend_on_threads(pred):
    again = predictions(LEVEL, parse_player("greedy"), GAMES, SEED, continuations=M,
                        decisions=2, jobs=2)
    assert again.equals(pred)


def test_reliability_table(pred):
    table = reliability(pred, bins=4)
    assert list(table.columns) == TABLE_COLUMNS
    every = table[table["bin"] == "all"].iloc[0]
    assert every["predictions"] == len(pred) == 2 * GAMES
    assert every["observed"] == pytest.approx(pred["gold"].mean())
    assert every["mean_predicted"] == pytest.approx(pred["predicted_gold"].mean())
    bins = table[table["bin"] != "all"]
    assert bins["predictions"].sum() == len(pred)
    for r in bins.itertuples():
        inside = pred[(pred["predicted_gold"] >= r.bin_lo) & (
            (pred["predicted_gold"] < r.bin_hi) | (r.bin_hi == 1.0))]
        assert r.predictions == len(inside)
        k = int(inside["gold"].sum())
        assert (r.observed_lo, r.observed_hi) == pytest.approx(wilson(k, len(inside)))
        assert r.observed_lo <= r.observed <= r.observed_hi
        assert r.difference == pytest.approx(r.observed - r.mean_predicted)
        assert (r.difference_lo, r.difference_hi) == pytest.approx(
            (r.observed_lo - r.mean_predicted, r.observed_hi - r.mean_predicted))
    d = pred["gold"] - pred["predicted_gold"]
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(len(d))
    assert (every["difference_lo"], every["difference_hi"]) == pytest.approx(
        (d.mean() - half, d.mean() + half))
