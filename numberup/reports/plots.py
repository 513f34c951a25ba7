"""Plots people read: a level's score distribution, medal odds across levels, and the
searchers' budget curve (score and Gold odds against compute per game).

Each plot function takes the tables that ``numberup simulate --out DIR`` writes, as pandas
DataFrames (``games``: one row per game, the columns of :class:`numberup.runs.simulate.GameTable`;
``summary``: one row per level x player, the keys of ``RunResult.summary``), and returns a
:class:`Plot`: the matplotlib Figure and the exact numbers drawn (``data``, one row per bar,
step or point), so that tests can hold the picture against the tables and ``--json`` can print
it.

Figures are made with ``matplotlib.figure.Figure`` on the Agg canvas, never through pyplot:
no display, no global figure registry, nothing to close. Colours are Okabe and Ito's
colour-blind-safe palette; medal lines also differ in line style.
"""

from __future__ import annotations

import math
import numpy as np

from ..game.levels import CHAPTERS, MEDALS, get_level
from ..stats import medal_counts
from .style import MEDAL_COLOURS, MEDAL_STYLES, HATCHES, MEDAL_LABELS, Plot, figure, colour_of, percent_axis, policies_of, one_level

# ---------------------------------------------------------------------------------------------
# Score distribution of one level


def histogram_bins(scores, medals=(), bin_width: int | None = None, max_bins: int = 60):
    """Bin edges for integer game results: every bin holds whole results only, and no result
    lies on an edge.

    Results of most levels step by 1, of some by 10 (``10 x ...`` levels): the step ``g`` is
    the gcd of the differences between the results. The bin width is ``bin_width`` or the
    smallest of g x (1, 2, 5, 10, 20, ...) giving at most ``max_bins`` bins. With
    ``u = gcd(g, width)`` every result is ``lo + j*u``; edges sit at ``u/2`` below such a
    value, aligned so that the Gold threshold starts a bin when it can.
    ``histogram_bins([160, 180, 200]) -> (array([155., 165., 175., 185., 195., 205.]), 10, 10)``.

    Returns
    -------
    edges : ndarray of float64
    width : int
        Bin width in points.
    unit : int
        ``u``: a bin holds the results ``edge + u/2, edge + 3u/2, ..., edge + width - u/2``.
    """
    s = np.asarray(scores, dtype=np.int64)
    lo, hi = int(s.min()), int(s.max())
    step = int(np.gcd.reduce(s - lo)) or 1
    widths = [step * m for m in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)]
    if bin_width is not None:
        widths = [int(bin_width)]
        if widths[0] < 1:
            raise ValueError(f"bin width must be a whole number >= 1, not {bin_width!r}")
    for width in widths:  # the first width whose bins (Gold-aligned) are few enough
        unit = math.gcd(step, width)
        start = lo
        if medals and (medals[-1] - lo) % unit == 0:
            start = lo - (lo - medals[-1]) % width
        n = (hi - start) // width + 1
        if n <= max_bins:
            break
    edges = start - unit / 2 + width * np.arange(n + 1, dtype=np.float64)
    return edges, width, unit


def dist_plot(games, level: int, *, policies=None, style: str = "hist",
              bin_width: int | None = None, title: str | None = None) -> Plot:
    """The distribution of one level's game results, one curve per player, with the
    Bronze/Silver/Gold thresholds as vertical lines and each player's P(medal) in the legend.

    Parameters
    ----------
    games : DataFrame
        The games table (columns ``level``, ``policy``, ``score``; one row per game).
    level : int
    policies : list of str, optional
        Players to draw, in this order (default: every player of the level, in table order).
    style : {'hist', 'ecdf'}
        ``hist``: the share of games per bin (see :func:`histogram_bins`), as step outlines;
        data columns ``policy, left, right, lowest, highest, count, share`` (``lowest`` and
        ``highest``: the results a bin holds). ``ecdf``: ``P(result <= x)``; data columns
        ``policy, score, count, p_le``, one row per distinct result.
    bin_width : int, optional
        Histogram bin width in points.
    """
    import pandas as pd

    if style not in ("hist", "ecdf"):
        raise ValueError(f"style must be 'hist' or 'ecdf', not {style!r}")
    lv = get_level(level)
    rows = one_level(games, lv.number, "games")
    players = policies_of(rows, policies)
    colours = colour_of(players)
    scores = {p: rows.loc[rows["policy"] == p, "score"].to_numpy().astype(np.int64)
              for p in players}
    every = np.concatenate(list(scores.values()))
    fig, axes = figure(8, 4.8)
    ax = axes[0, 0]
    legend = []
    parts = []
    if style == "hist":
        edges, width, step = histogram_bins(every, lv.medals, bin_width)
    else:
        step = int(np.gcd.reduce(every - every.min())) or 1
    for p in players:
        s = scores[p]
        n = len(s)
        counts = medal_counts(s, lv.medals)
        odds = {m: counts[m] / n for m in MEDALS}
        legend.append({"policy": p, "games": n, "mean": float(s.mean()),
                       **{f"p_{m}": odds[m] for m in MEDALS}})
        label = (f"{p} (n={n:,}): " + ", ".join(f"{MEDAL_LABELS[m]} {100 * odds[m]:.1f}%"
                                                 for m in MEDALS))
        if style == "hist":
            count, _ = np.histogram(s, edges)
            share = count / n
            ax.stairs(share, edges, color=colours[p], linewidth=2, label=label,
                      fill=len(players) == 1, alpha=0.85 if len(players) == 1 else 1.0)
            left = edges[:-1]
            parts.append(pd.DataFrame({
                "policy": p, "left": left, "right": edges[1:],
                "lowest": (left + step / 2).astype(np.int64),
                "highest": (left + step / 2 + width - step).astype(np.int64),
                "count": count.astype(np.int64), "share": share,
            }))
        else:
            values, count = np.unique(s, return_counts=True)
            p_le = np.cumsum(count) / n
            # Start at 0 left of the lowest result so the first step is visible.
            xs = np.concatenate([[values[0] - step], values])
            ax.step(xs, np.concatenate([[0.0], p_le]), where="post", color=colours[p],
                    linewidth=2, label=label)
            parts.append(pd.DataFrame({"policy": p, "score": values.astype(np.int64),
                                       "count": count.astype(np.int64), "p_le": p_le}))
    base = int(every.min())
    for m, t in zip(MEDALS, lv.medals):
        x = float(t)
        if style == "hist":
            # Bars are centred on their results: the line goes half a step below the lowest
            # possible result >= t, so that what lies right of it is exactly P(>= t).
            x = base + math.ceil((t - base) / step) * step - step / 2
        ax.axvline(x, color=MEDAL_COLOURS[m], linestyle=MEDAL_STYLES[m], linewidth=1.8,
                   label=f"{m.capitalize()} >= {t}")
    ax.set_xlabel("game result (points)")
    if style == "hist":
        ax.set_ylabel(f"share of games (bins of {width} point{'s' * (width != 1)})")
    else:
        ax.set_ylabel("P(result <= x)")
        ax.set_ylim(0, 1.02)
    percent_axis(ax.yaxis)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title or f"Level {lv.number}: game results ({lv.summary})", loc="left",
                 fontsize=11)
    ax.legend(loc="upper left", fontsize=8, frameon=False, bbox_to_anchor=(0, -0.14),
              ncols=1)
    data = pd.concat(parts, ignore_index=True)
    meta = {"level": lv.number, "style": style, "medals": dict(zip(MEDALS, lv.medals)),
            "players": legend}
    if style == "hist":
        meta["bin_width"] = width
    return Plot("dist", fig, data, meta)


# ---------------------------------------------------------------------------------------------
# Medal odds across levels


def _chapter_marks(ax, levels: list[int], top: bool) -> None:
    """Lines between chapters; the chapter names above the top panel."""
    positions = {n: i for i, n in enumerate(levels)}
    for ch in CHAPTERS:
        idx = [positions[n] for n in ch.levels if n in positions]
        if not idx:
            continue
        if idx[0] > 0:
            ax.axvline(idx[0] - 0.5, color="#555555", linewidth=0.8)
        if top:
            ax.text((idx[0] + idx[-1]) / 2, 1.02, f"{ch.number} {ch.name}", ha="center",
                    va="bottom", fontsize=8, transform=ax.get_xaxis_transform())


def medals_plot(summary, *, policies=None, levels=None, style: str = "panels",
                title: str | None = None) -> Plot:
    """P(>=bronze), P(>=silver) and P(gold) of every level present, per player.

    Parameters
    ----------
    summary : DataFrame
        The summary table (columns ``level, policy, games, p_bronze, p_silver, p_gold``, and
        ``p_*_lo``/``p_*_hi`` for 95% intervals when present); one row per level x player.
    policies, levels : list, optional
        What to draw (default: everything in the table).
    style : {'panels', 'stacked'}
        ``panels``: one panel per medal, a group of bars per level (one per player), with the
        95% intervals; ``stacked``: one bar per level x player, gold at the bottom, then
        silver, then bronze, so the tops stand at P(gold), P(>=silver), P(>=bronze).

    Data: one row per level x player: ``level, policy, games, p_bronze, p_silver, p_gold``
    (and the intervals); each bar's height (stack top) is its ``p_*``.
    """
    if style not in ("panels", "stacked"):
        raise ValueError(f"style must be 'panels' or 'stacked', not {style!r}")
    rows = summary
    if levels:
        have = set(int(x) for x in summary["level"])
        missing = [n for n in levels if n not in have]
        if missing:
            raise ValueError(f"no summary of level {', '.join(map(str, missing))} (the tables "
                             f"hold levels {', '.join(map(str, sorted(have))) or 'none'})")
        rows = summary[summary["level"].isin(levels)]
    players = policies_of(rows, policies)
    rows = rows[rows["policy"].isin(players)]
    level_list = sorted(set(int(x) for x in rows["level"]))
    cols = ["level", "policy", "games"] + [
        c for m in MEDALS for c in (f"p_{m}", f"p_{m}_lo", f"p_{m}_hi") if c in rows.columns]
    order = {p: i for i, p in enumerate(players)}
    data = (rows[cols].assign(_o=rows["policy"].map(order))
            .sort_values(["level", "_o"], kind="stable").drop(columns="_o")
            .reset_index(drop=True))
    data["level"] = data["level"].astype(int)
    colours = colour_of(players)
    x = np.arange(len(level_list), dtype=np.float64)
    xpos = {n: i for i, n in enumerate(level_list)}
    width = 0.8 / len(players)
    offsets = {p: (j - (len(players) - 1) / 2) * width for j, p in enumerate(players)}
    wide = max(6.0, 0.45 * len(level_list) * max(1, len(players)) ** 0.5 + 2)
    head = title or "Medal odds per level"
    if style == "panels":
        fig, axes = figure(wide, 7.5, 3, 1, sharex=True)
        for i, m in enumerate(MEDALS):
            ax = axes[i, 0]
            for p in players:
                r = data[data["policy"] == p]
                h = r[f"p_{m}"].to_numpy(dtype=np.float64)
                err = None
                if f"p_{m}_lo" in r.columns:
                    err = np.vstack([h - r[f"p_{m}_lo"].to_numpy(dtype=np.float64),
                                     r[f"p_{m}_hi"].to_numpy(dtype=np.float64) - h])
                ax.bar(r["level"].map(xpos).to_numpy() + offsets[p], h, width, yerr=err,
                       color=colours[p], label=p, error_kw={"elinewidth": 0.8, "capsize": 0,
                                                           "ecolor": "#333333"})
            ax.set_ylim(0, 1.05)
            percent_axis(ax.yaxis)
            ax.set_ylabel(MEDAL_LABELS[m])
            ax.grid(axis="y", alpha=0.3)
            _chapter_marks(ax, level_list, top=i == 0)
        axes[0, 0].set_title(head, loc="left", fontsize=11, pad=16)
        axes[0, 0].legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
        bottom = axes[-1, 0]
    else:
        fig, axes = figure(wide, 4.8)
        ax = bottom = axes[0, 0]
        for j, p in enumerate(players):
            r = data[data["policy"] == p]
            xs = r["level"].map(xpos).to_numpy() + offsets[p]
            below = np.zeros(len(r))
            # gold at the bottom: each segment's top is the probability of that medal or better
            for m in reversed(MEDALS):
                top = r[f"p_{m}"].to_numpy(dtype=np.float64)
                ax.bar(xs, top - below, width, bottom=below, color=MEDAL_COLOURS[m],
                       hatch=HATCHES[j % len(HATCHES)], edgecolor="white", linewidth=0.5,
                       label=f"{p}: {m}")
                below = top
        ax.set_ylim(0, 1.05)
        percent_axis(ax.yaxis)
        ax.set_ylabel("probability of the medal or better")
        ax.grid(axis="y", alpha=0.3)
        _chapter_marks(ax, level_list, top=True)
        ax.set_title(head, loc="left", fontsize=11, pad=16)
        from matplotlib.patches import Patch

        handles = [Patch(facecolor=MEDAL_COLOURS[m], label=m) for m in reversed(MEDALS)]
        if len(players) > 1:
            handles += [Patch(facecolor="#DDDDDD", edgecolor="#555555",
                              hatch=HATCHES[j % len(HATCHES)], label=p)
                        for j, p in enumerate(players)]
        ax.legend(handles=handles, fontsize=8, frameon=False, loc="upper left",
                  bbox_to_anchor=(1, 1))
    bottom.set_xticks(x, [str(n) for n in level_list])
    bottom.set_xlabel("level")
    meta = {"style": style, "levels": level_list, "players": players}
    return Plot("medals", fig, data, meta)


# ---------------------------------------------------------------------------------------------
# Tables in and out


