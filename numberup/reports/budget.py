"""The budget plot: every player's mean result and P(gold) against its seconds per game.

Every player of the table is drawn as its own point, named in the legend by its full spec,
with a colour per family and a marker per member (so ``expectimax``, ``expectimax:k=16`` and
``expectimax:endgame=3`` stay apart). Players of one family (specs equal but for numeric
parameters: :func:`budget_family`) are also joined by a thin line in order of cost, their
budget curve. The time axis is logarithmic, in whole decades.
"""

from __future__ import annotations

import math

import numpy as np

from ..game.levels import MEDALS, get_level
from ..stats import Z95

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")


def budget_family(spec: str) -> str:
    """The spec without its numeric parameters: the players that differ only in a budget
    form one curve. ``budget_family('rollout:n=200,base=greedy') -> 'rollout:base=greedy'``."""
    name, _, rest = spec.partition(":")
    kept = []
    for item in filter(None, (x.strip() for x in rest.split(","))):
        value = item.partition("=")[2].strip()
        try:
            float(value)
        except ValueError:
            kept.append(item)
    return name + (":" + ",".join(kept) if kept else "")


def budget_plot(summary, level: int, *, policies=None, title: str | None = None):
    """Mean result and P(gold) of each player of one level against its seconds per game (log
    axis). Returns a :class:`numberup.reports.style.Plot`.

    Parameters
    ----------
    summary : DataFrame
        The summary table: ``level, policy, games, mean, p_gold, seconds_per_game``, and
        ``se`` (else ``sd``: se = sd / sqrt(games)) and ``p_gold_lo/hi`` when present (the
        95% intervals drawn). Seconds per game are wall time over games with the threads of
        that run: compare runs made with the same ``--jobs`` on one machine.
    policies : list of str, optional
        The players to draw (default: every player of the level).

    Data: one row per player: ``level, policy, family, marker, games, seconds_per_game,
    mean, se, p_gold`` (and ``p_gold_lo, p_gold_hi``), ordered by seconds per game.
    """
    import pandas as pd

    from .style import MEDAL_COLOURS, MEDAL_STYLES, PALETTE, Plot, figure, one_level, percent_axis, policies_of

    lv = get_level(level)
    rows = one_level(summary, lv.number, "summary")
    players = policies_of(rows, policies)
    rows = rows[rows["policy"].isin(players)].copy()
    bad = rows[~(rows["seconds_per_game"].astype(float) > 0)]
    if not bad.empty:
        raise ValueError(f"level {lv.number} {bad['policy'].iloc[0]}: seconds_per_game is "
                         f"{bad['seconds_per_game'].iloc[0]}, which a log axis cannot show")
    if "se" not in rows.columns and {"sd", "games"} <= set(rows.columns):
        rows["se"] = rows["sd"].astype(float) / np.sqrt(rows["games"].astype(float))
    cols = [c for c in ("level", "policy", "games", "seconds_per_game", "mean", "se", "p_gold",
                        "p_gold_lo", "p_gold_hi") if c in rows.columns]
    data = rows[cols].sort_values("seconds_per_game", kind="stable").reset_index(drop=True)
    data.insert(2, "family", [budget_family(p) for p in data["policy"]])
    families = list(dict.fromkeys(data["family"]))
    colours = {f: PALETTE[i % len(PALETTE)] for i, f in enumerate(families)}
    # a marker per member of a family, in order of cost; families past the palette's length
    # reuse a colour, so they start further along the markers
    data.insert(3, "marker", [
        MARKERS[(families.index(f) // len(PALETTE) * 3
                 + int((data["family"][:k] == f).sum())) % len(MARKERS)]
        for k, f in enumerate(data["family"])])
    data["level"] = data["level"].astype(int)
    fig, axes = figure(11, 5.6, 1, 2, sharex=True)
    ax_mean, ax_gold = axes[0, 0], axes[0, 1]
    for fam in families:
        r = data[data["family"] == fam]
        if len(r) > 1:  # the family's budget curve
            for ax, col in ((ax_mean, "mean"), (ax_gold, "p_gold")):
                ax.plot(r["seconds_per_game"], r[col], color=colours[fam], linewidth=1,
                        alpha=0.6)
    for row in data.itertuples():
        kw = {"color": colours[row.family], "marker": row.marker, "markersize": 7,
              "capsize": 3, "linestyle": "none", "label": row.policy}
        se = getattr(row, "se", math.nan)
        ax_mean.errorbar([row.seconds_per_game], [row.mean],
                         yerr=None if not np.isfinite(se) else [Z95 * se], **kw)
        gerr = None
        if "p_gold_lo" in data.columns:
            gerr = [[row.p_gold - row.p_gold_lo], [row.p_gold_hi - row.p_gold]]
        ax_gold.errorbar([row.seconds_per_game], [row.p_gold], yerr=gerr, **kw)
    for m, t in zip(MEDALS, lv.medals):
        ax_mean.axhline(t, color=MEDAL_COLOURS[m], linestyle=MEDAL_STYLES[m], linewidth=1.2,
                        label=f"{m.capitalize()} >= {t}")
    seconds = data["seconds_per_game"].to_numpy(dtype=np.float64)
    # Whole decades, so that the log axis always shows labelled powers of ten.
    xlim = (10.0 ** math.floor(math.log10(seconds.min()) - 0.1),
            10.0 ** math.ceil(math.log10(seconds.max()) + 0.1))
    from matplotlib.ticker import LogLocator, NullFormatter

    for ax in (ax_mean, ax_gold):
        ax.set_xscale("log")
        ax.set_xlim(*xlim)
        ax.xaxis.set_major_locator(LogLocator(base=10))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("seconds per game (wall time, log scale)")
        ax.grid(alpha=0.3, which="both")
    ax_mean.set_ylabel("mean game result (points, 95% interval)")
    ax_gold.set_ylabel("P(gold) (95% interval)")
    ax_gold.set_ylim(-0.02, 1.05)  # a point at 0% stays whole
    percent_axis(ax_gold.yaxis)
    handles, labels = ax_mean.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)),
               fontsize=8, frameon=False)
    fig.suptitle(title or f"Level {lv.number}: result and Gold odds against compute, every "
                          f"player", x=0.01, ha="left", fontsize=11)
    meta = {"level": lv.number, "medals": dict(zip(MEDALS, lv.medals))}
    return Plot("budget", fig, pd.DataFrame(data), meta)
