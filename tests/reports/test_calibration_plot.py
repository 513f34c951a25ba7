"""The reliability plot (numberup.reports.calibration) draws calibrate's table: one curve, its
points the bins' mean predictions and observed rates."""

from __future__ import annotations

import pytest

from numberup.analysis.calibrate import predictions, reliability
from numberup.players.registry import parse_player

LEVEL, GAMES, SEED, M = 14, 24, 5, 16


@pytest.fixture(scope="module")
def pred():
    return predictions(LEVEL, parse_player("greedy"), GAMES, SEED, continuations=M,
                       decisions=2, jobs=1)


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
