"""The reliability plot (numberup.reports.calibration) draws calibrate's table: one curve, its
points the bins' mean predictions and observed rates."""

from __future__ import annotations

import pytest

from numberup.analysis.calibrate import PREDICTION_COLUMNS, reliability

LEVEL = 14


@pytest.fixture(scope="module")
def pred():
    """A predictions table of calibrate's columns, made up (the plot draws whatever the table
    says; tests/analysis/test_calibrate.py checks real predictions): 48 decisions whose
    predicted P(gold) spreads over [0, 1], Gold reached by a fixed pattern."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 48
    gold = rng.random(n)
    return pd.DataFrame({
        "level": LEVEL, "policy": "greedy", "seed": 5, "continuations": 16,
        "game": np.arange(n) // 2, "decision": np.arange(n) % 2, "cards_left": 10,
        "predicted_mean": 200.0, "predicted_gold": gold,
        "score": np.where(gold > 0.5, 200, 190), "gold": (gold > 0.5).astype(np.int64),
    })[PREDICTION_COLUMNS]


def test_reliability_plot_draws_the_table(pred):
    from matplotlib.container import ErrorbarContainer

    from numberup.reports.calibration import reliability_plot

    table = reliability(pred, bins=4)
    plot = reliability_plot(table)
    ax = plot.figure.axes[0]
    curves = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(curves) == 1 and curves[0].get_label().startswith(f"level {LEVEL}: predicted")
    x, y = curves[0].lines[0].get_data()
    bins = table[table["bin"] != "all"]
    assert list(x) == pytest.approx(bins["mean_predicted"].tolist())
    assert list(y) == pytest.approx(bins["observed"].tolist())
