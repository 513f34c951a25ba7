"""Hindsight beside the players: per level, how far the best player is from foresight.

Reads the tables that ``numberup hindsight --out DIR`` (``summary.csv``, ``deals.csv``) and
``numberup compare --out DIR`` (``games.parquet``) write, pairs them deal by deal (game ``i``
of the same seed is the same deck), and returns one row per level; :func:`gold_plot` draws
each level's P(gold): the best player against foresight.
"""

from __future__ import annotations

import numpy as np

from .levels import LEVELS
from .stats import wilson


def level_table(hindsight_deals, player_games, players=None):
    """One row per level (pandas DataFrame).

    Parameters
    ----------
    hindsight_deals : DataFrame
        ``deals.csv`` of ``numberup hindsight``: level, game, found, bound.
    player_games : DataFrame
        ``games.parquet`` rows of ``compare`` runs on the same seed: level, policy, game, score.
    players : list of str, optional
        The players to consider (default: all); per level the one with the best mean score on
        the deals hindsight solved is "the best player".

    Columns: level, gold, deals, best (player), player_mean, found_mean, share (player mean over
    found mean), bound_mean (NaN without a proven bound), p_gold_player, p_gold_found with
    95% Wilson intervals (``_lo``/``_hi``), p_gold_bound (deals whose bound reaches gold: the
    "at most"), p_gold_if_reachable (the player's P(gold) on the deals where foresight found
    gold), below (share of deals where the search's result is below the player's), above.
    """
    import pandas as pd

    rows = []
    games = player_games if players is None else player_games[player_games.policy.isin(players)]
    for lv in LEVELS:
        hd = hindsight_deals[hindsight_deals.level == lv.number].sort_values("game")
        if hd.empty:
            continue
        gold = lv.medals[2]
        best = None
        for policy, g in games[games.level == lv.number].groupby("policy"):
            s = g.set_index("game").score.reindex(hd.game)
            if s.isna().any():
                continue  # the player did not play every deal hindsight solved
            if best is None or s.mean() > best[1].mean():
                best = (policy, s.to_numpy())
        if best is None:
            continue
        found = hd.found.to_numpy()
        bound = hd.bound.to_numpy(dtype=float)
        policy, score = best
        n = len(found)
        reach = found >= gold
        row = {"level": lv.number, "gold": gold, "deals": n, "best": policy,
               "player_mean": score.mean(), "found_mean": found.mean(),
               "share": score.mean() / found.mean() if found.mean() > 0 else np.nan,
               "bound_mean": np.nan if np.isnan(bound).any() else bound.mean()}
        for name, hit in (("player", score >= gold), ("found", reach)):
            k = int(hit.sum())
            lo, hi = wilson(k, n)
            row.update({f"p_gold_{name}": k / n, f"p_gold_{name}_lo": lo,
                        f"p_gold_{name}_hi": hi})
        row["p_gold_bound"] = np.nan if np.isnan(bound).any() else float((bound >= gold).mean())
        k, m = int((score[reach] >= gold).sum()), int(reach.sum())
        row["p_gold_if_reachable"] = k / m if m else np.nan
        row["below"] = float((found < score).mean())
        row["above"] = float((found > score).mean())
        rows.append(row)
    return pd.DataFrame(rows)


def gold_plot(table):
    """P(gold) per level: the best player against foresight (the search's found games: a
    floor of what foresight reaches), with 95% intervals. Returns a
    :class:`numberup.plots.Plot` whose data is ``table``'s P(gold) columns."""
    from .plots import PALETTE, Plot, _figure, _percent_axis

    fig, axes = _figure(10, 4.2)
    ax = axes[0, 0]
    x = np.arange(len(table))
    for k, (name, label) in enumerate((("player", "best player"),
                                       ("found", "foresight (search, a floor)"))):
        p = table[f"p_gold_{name}"].to_numpy()
        err = np.vstack([p - table[f"p_gold_{name}_lo"], table[f"p_gold_{name}_hi"] - p])
        ax.bar(x + (k - 0.5) * 0.38, p, 0.38, yerr=err, capsize=2, color=PALETTE[k],
               label=label, edgecolor="black", linewidth=0.4)
    ax.set_xticks(x, [str(v) for v in table.level])
    ax.set_xlabel("level")
    ax.set_ylabel("P(gold)")
    _percent_axis(ax.yaxis)
    ax.set_ylim(0, 1.05)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    ax.set_title(f"P(gold) per level: the best player against foresight "
                 f"({int(table.deals.min())}+ deals each, 95% intervals)", loc="left")
    data = table[["level", "best", "p_gold_player", "p_gold_found"]].copy()
    return Plot("hindsight-gold", fig, data, {"deals": int(table.deals.min())})
