"""Plots (numberup.reports.plots, numberup.reports.budget): what is drawn equals the tables it
was drawn from.

Each plot function returns the Figure and the data drawn; the tests read the artists back
(bar heights, histogram steps, points) and hold them against ``games.parquet`` and
``summary.csv`` as ``numberup simulate --out`` wrote them. The ``plot`` command (files, JSON,
errors): tests/cli/test_plot_command.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import StepPatch

from numberup.game.levels import get_level
from numberup.reports.plots import dist_plot, histogram_bins, medals_plot
from numberup.reports.style import PALETTE
from numberup.reports.budget import budget_family, budget_plot
from oracles.tables import fake_budget

MEDALS = ("bronze", "silver", "gold")


# -------------------------------------------------------------------------------------------
# the data drawn equals the tables


@pytest.mark.parametrize("level", [1, 3, 14])
def test_dist_hist_counts_are_the_games_scores(tables, level):
    plot = dist_plot(tables.games, level)
    data = plot.data
    ax = plot.figure.axes[0]
    steps = [a for a in ax.patches if isinstance(a, StepPatch)]
    assert len(steps) == 2
    games = tables.games[tables.games["level"] == level]
    for step, policy in zip(steps, ("greedy", "random")):
        scores = games.loc[games["policy"] == policy, "score"].to_numpy()
        rows = data[data["policy"] == policy]
        edges = np.append(rows["left"].to_numpy(), rows["right"].iloc[-1])
        assert rows["count"].tolist() == np.histogram(scores, edges)[0].tolist()
        assert rows["count"].sum() == len(scores) == 50
        for r in rows.itertuples():  # each bin holds exactly the results lowest..highest
            assert r.count == ((scores >= r.lowest) & (scores <= r.highest)).sum()
        values, drawn_edges, _ = step.get_data()
        assert np.allclose(values, rows["count"] / len(scores))
        assert np.allclose(drawn_edges, edges)
        assert np.allclose(rows["share"], rows["count"] / len(scores))


def test_dist_legend_probabilities_equal_the_summary(tables):
    plot = dist_plot(tables.games, 14)
    summary = tables.summary[tables.summary["level"] == 14].set_index("policy")
    labels = [t.get_text() for t in plot.figure.axes[0].get_legend().get_texts()]
    for player in plot.meta["players"]:
        row = summary.loc[player["policy"]]
        for m in MEDALS:
            assert player[f"p_{m}"] == pytest.approx(row[f"p_{m}"])
        label = next(t for t in labels if t.startswith(player["policy"]))
        assert f"P(gold) {100 * row['p_gold']:.1f}%" in label
    lv = get_level(14)
    for m, t in zip(MEDALS, lv.medals):
        assert any(f"{m.capitalize()} >= {t}" == text for text in labels)


def test_dist_ecdf_is_the_empirical_cdf(tables):
    plot = dist_plot(tables.games, 3, style="ecdf", policies=["random"])
    scores = tables.games.query("level == 3 and policy == 'random'")["score"].to_numpy()
    assert plot.data["policy"].unique().tolist() == ["random"]
    for r in plot.data.itertuples():
        assert r.p_le == pytest.approx(np.mean(scores <= r.score))
    assert plot.data["count"].sum() == len(scores)
    line = plot.figure.axes[0].lines[0]
    assert np.allclose(line.get_ydata()[1:], plot.data["p_le"])


@pytest.mark.parametrize("style", ["panels", "stacked"])
def test_medals_bar_heights_are_the_summary(tables, style):
    plot = medals_plot(tables.summary, style=style)
    summary = tables.summary.set_index(["level", "policy"])
    data = plot.data.set_index(["level", "policy"])
    for key, row in data.iterrows():
        for m in MEDALS:
            assert row[f"p_{m}"] == summary.loc[key, f"p_{m}"]
    levels = plot.meta["levels"]
    assert levels == [1, 3, 14]
    bars = [c for ax in plot.figure.axes for c in ax.containers if isinstance(c, BarContainer)]
    if style == "panels":
        # panel i, player j: the bars are p_<medal i> of that player, level by level
        assert len(bars) == 3 * 2
        for i, m in enumerate(MEDALS):
            for j, policy in enumerate(("greedy", "random")):
                c = bars[2 * i + j]
                assert c.get_label() == policy
                want = [summary.loc[(n, policy), f"p_{m}"] for n in levels]
                assert [p.get_height() for p in c.patches] == pytest.approx(want)
                facecolour = c.patches[0].get_facecolor()
                from matplotlib.colors import to_rgba

                assert facecolour == pytest.approx(to_rgba(PALETTE[j]))
    else:
        # per player: gold, silver, bronze segments; each segment's top is that medal's p
        assert len(bars) == 2 * 3
        for j, policy in enumerate(("greedy", "random")):
            for k, m in enumerate(reversed(MEDALS)):
                c = bars[3 * j + k]
                want = [summary.loc[(n, policy), f"p_{m}"] for n in levels]
                tops = [p.get_y() + p.get_height() for p in c.patches]
                assert tops == pytest.approx(want)


def test_medals_select_levels_and_players(tables):
    plot = medals_plot(tables.summary, levels=[14], policies=["random"])
    assert plot.data[["level", "policy"]].values.tolist() == [[14, "random"]]
    with pytest.raises(ValueError, match="level 5"):
        medals_plot(tables.summary, levels=[5])
    with pytest.raises(ValueError, match="'wizard'"):
        medals_plot(tables.summary, policies=["wizard"])


def _drawn_points(ax) -> dict:
    """{legend label: (x, y)} of the single-point error bars of ``ax``."""
    out = {}
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            x, y = c.lines[0].get_data()
            out[c.get_label()] = (float(x[0]), float(y[0]))
    return out


def test_budget_points_are_the_summary():
    summary = fake_budget()
    plot = budget_plot(summary, 14)
    assert plot.data["policy"].tolist() == ["greedy", "rollout:n=50", "rollout:n=200",
                                            "rollout:n=800"]
    assert plot.data["family"].tolist() == ["greedy", "rollout", "rollout", "rollout"]
    ax_mean, ax_gold = plot.figure.axes[:2]
    assert ax_mean.get_xscale() == ax_gold.get_xscale() == "log"
    for ax, col in ((ax_mean, "mean"), (ax_gold, "p_gold")):
        drawn = _drawn_points(ax)
        for r in plot.data.itertuples():
            assert drawn[r.policy] == pytest.approx((r.seconds_per_game, getattr(r, col)))
        # the rollout family's budget curve: one line through its points in order of cost
        rollout = plot.data[plot.data["family"] == "rollout"]
        curves = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 3]
        assert len(curves) == 1
        assert list(curves[0].get_xdata()) == rollout["seconds_per_game"].tolist()


def test_budget_shows_every_player_apart():
    """New players and settings (a base, an endgame, a learned player) each get a point and
    a legend entry of their own, never two with the same colour and marker; a table with
    sd but no se (results/summary.csv) gets the mean's interval from sd / sqrt(games)."""
    specs = ["random", "greedy", "expectimax", "expectimax:k=16", "expectimax:endgame=3",
             "expectimax:eval=learned", "learned", "rollout:n=200",
             "rollout:n=200,base=expectimax", "rollout:n=100,base=expectimax,objective=gold",
             "rollout:n=800"]
    k = len(specs)
    summary = pd.DataFrame({
        "level": [18] * k, "policy": specs, "games": [400] * k,
        "seconds_per_game": np.geomspace(1e-6, 0.5, k), "mean": np.linspace(-60, 90, k),
        "sd": [12.0] * k, "p_gold": np.linspace(0, 0.8, k),
    })
    plot = budget_plot(summary, 18)
    assert sorted(plot.data["policy"]) == sorted(specs)
    styles = [tuple(x) for x in plot.data[["family", "marker"]].values]
    assert len(set(styles)) == k
    ax_mean, ax_gold = plot.figure.axes[:2]
    for ax in (ax_mean, ax_gold):
        drawn = _drawn_points(ax)
        assert sorted(drawn) == sorted(specs)
        keys = {(c.lines[0].get_color(), c.lines[0].get_marker()) for c in ax.containers}
        assert len(keys) == k
    legend = [t.get_text() for t in plot.figure.legends[0].get_texts()]
    assert all(s in legend for s in specs)
    assert plot.data["se"].tolist() == pytest.approx([12.0 / 20] * k)


def test_budget_from_real_runs(tables):
    plot = budget_plot(tables.summary, 1)
    summary = tables.summary[tables.summary["level"] == 1]
    got = plot.data.set_index("policy")
    for r in summary.itertuples():
        assert got.loc[r.policy, "seconds_per_game"] == r.seconds_per_game
        assert got.loc[r.policy, "mean"] == r.mean
        assert got.loc[r.policy, "p_gold"] == r.p_gold


def test_budget_family():
    assert budget_family("rollout:n=200,base=greedy") == "rollout:base=greedy"
    assert budget_family("expectimax:depth=2") == "expectimax"
    assert budget_family("greedy") == "greedy"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-50, 400), min_size=1, max_size=60), st.sampled_from([1, 10]),
       st.one_of(st.none(), st.integers(1, 30)))
@example([0, -11, 285], 1, None)  # aligning Gold to an edge adds a bin: still at most 60
def test_histogram_bins_hold_whole_results(raw, step, width):
    scores = np.array(raw) * step
    edges, w, unit = histogram_bins(scores, (160, 180, 200), width)
    assert np.allclose(np.diff(edges), w) and w % unit == 0
    assert int(np.gcd.reduce(scores - scores.min())) % unit == 0
    assert edges[0] < scores.min() and scores.max() < edges[-1]
    # no result on an edge, so every bin holds whole results only
    assert not np.isin(scores, edges).any()
    assert np.histogram(scores, edges)[0].sum() == len(scores)
    if width is None:
        assert len(edges) - 1 <= 60


def test_histogram_bins_start_a_bin_at_gold():
    edges, w, unit = histogram_bins(np.array([150, 170, 190, 200, 230]), (160, 180, 200))
    assert w == unit == 10 and 195.0 in edges


# -------------------------------------------------------------------------------------------
# the command


def test_medal_lines_split_the_bins_at_the_threshold():
    # results step by 10 but sit at 5 mod 10: Gold (200) starts at the result 205
    games = pd.DataFrame({"level": 14, "policy": "x", "score": [165, 185, 195, 205, 215]})
    plot = dist_plot(games, 14, bin_width=10)
    lines = {ln.get_label(): ln.get_xdata()[0] for ln in plot.figure.axes[0].lines}
    assert lines["Gold >= 200"] == 200.0 and lines["Bronze >= 160"] == 160.0
    right_of_gold = plot.data[plot.data["left"] >= 200]["count"].sum()
    assert right_of_gold == 2 == plot.meta["players"][0]["p_gold"] * 5
