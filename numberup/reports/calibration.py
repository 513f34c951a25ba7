"""The reliability plot of advise's estimates (:mod:`numberup.analysis.calibrate` makes its table)."""

from __future__ import annotations

import numpy as np

from ..analysis.calibrate import BINS
from .style import PALETTE, Plot, figure, percent_axis


def reliability_plot(table, title: str | None = None):
    """The reliability plot: per level, the observed rate of Gold (95% interval) against the
    mean predicted P(gold) of each bin, the diagonal being perfect calibration; the legend
    gives each level's calibration in the large. Returns a :class:`numberup.reports.style.Plot`."""
    fig, axes = figure(6.4, 7.0)
    ax = axes[0, 0]
    ax.plot([0, 1], [0, 1], color="#888888", linewidth=1, linestyle="--",
            label="perfect calibration")
    keys = list(dict.fromkeys(zip(table["level"], table["policy"])))
    for i, (level, policy) in enumerate(keys):
        t = table[(table["level"] == level) & (table["policy"] == policy)]
        every = t[t["bin"] == "all"].iloc[0]
        b = t[t["bin"] != "all"]
        x = b["mean_predicted"].to_numpy(np.float64)
        y = b["observed"].to_numpy(np.float64)
        err = np.vstack([y - b["observed_lo"].to_numpy(np.float64),
                         b["observed_hi"].to_numpy(np.float64) - y])
        who = "" if len(set(table["policy"])) == 1 else f" {policy}"
        label = (f"level {level}{who}: predicted {100 * every['mean_predicted']:.1f}%, "
                 f"observed {100 * every['observed']:.1f}%, difference "
                 f"{100 * every['difference']:+.1f} [{100 * every['difference_lo']:+.1f}, "
                 f"{100 * every['difference_hi']:+.1f}] points, "
                 f"{int(every['predictions']):,} decisions")
        ax.errorbar(x, y, yerr=err, color=PALETTE[i % len(PALETTE)], marker="o", markersize=4,
                    linewidth=1.2, capsize=2, label=label)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    percent_axis(ax.xaxis)
    percent_axis(ax.yaxis)
    ax.set_xlabel("predicted P(gold) of the move played (mean of the bin)")
    ax.set_ylabel("observed: games that reached Gold (95% interval)")
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", fontsize=7, frameon=False)
    players = ", ".join(dict.fromkeys(table["policy"]))
    ax.set_title(title or f"Reliability of advise's P(gold), games of {players}",
                 fontsize=10, loc="left")
    return Plot("reliability", fig, table.reset_index(drop=True), {"bins": BINS})
