"""Hindsight beside the players: per level, how far the best player is from foresight.

Reads the tables that ``numberup hindsight --out DIR`` (``summary.csv``, ``deals.csv``) and
``numberup compare --out DIR`` (``games.parquet``) write, pairs them deal by deal (game ``i``
of the same seed is the same deck), and returns one row per level; :func:`gold_plot` draws
each level's P(gold): the best player against foresight. :func:`report_lines` is
``numberup hindsight``'s summary in words.
"""

from __future__ import annotations

import numpy as np

from ..game.levels import LEVELS, get_level
from ..stats import wilson


DEFAULT = "best"  # the default player, whose games are hindsight's warm games (deals.csv warm)


def level_table(hindsight_deals, player_games, players=None, strongest=None):
    """One row per level (pandas DataFrame).

    Parameters
    ----------
    hindsight_deals : DataFrame
        ``deals.csv`` of ``numberup hindsight``: level, game, found, bound.
    player_games : DataFrame
        ``games.parquet`` rows of ``compare`` runs on the same seed: level, policy, game, score.
    players : list of str, optional
        The players to consider (default: all that played every deal hindsight solved).
    strongest : DataFrame, optional
        ``results/best.csv`` (every measured setting per level on decks of the same seed): the
        strongest one's ``strongest`` spec, ``strongest_p_gold`` (with ``_lo``/``_hi``),
        ``strongest_games`` and ``strongest_seconds`` (one core, a game).

    Columns: level, gold, deals; ``best``: the player with the best mean on these deals, its
    ``player_mean``, ``share`` (its mean over the found mean), ``below`` / ``above`` (share of
    deals where the search's result is below / above that player's); found_mean, bound_mean
    (NaN without a proven bound); ``best_gold``: the player with the highest P(gold) on these
    deals (then the best mean), ``p_gold_player`` and ``p_gold_found`` with 95% Wilson
    intervals (``_lo``/``_hi``), ``p_gold_bound`` (deals whose bound reaches gold: the "at
    most") and ``p_gold_if_reachable`` (its P(gold) on the deals where foresight found gold);
    ``warm_mean`` and ``p_gold_warm``: the same floor with the players' games as a warm start
    (per deal the best of the search's game and every player's game, all legal games of the
    deal). Where ``deals.csv`` has the search's own result (``search``): ``search_mean``,
    ``p_gold_search`` and ``search_below`` (deals where the search alone ends below the best
    player's game). Where ``deals.csv`` has the warm games (``warm``: ``best``'s own games,
    the default player's) they count as player ``best`` too, and ``default_mean``,
    ``p_gold_default`` (with ``_lo``/``_hi``) are theirs.
    """
    import pandas as pd

    rows = []
    games = player_games if players is None else player_games[player_games.policy.isin(players)]
    games = games.drop_duplicates(["level", "policy", "game"])  # runs that share a player
    for lv in LEVELS:
        hd = hindsight_deals[hindsight_deals.level == lv.number].sort_values("game")
        if hd.empty:
            continue
        gold = lv.medals[2]
        scores = {}
        for policy, g in games[games.level == lv.number].groupby("policy", sort=True):
            s = g.set_index("game").score.reindex(hd.game)
            if not s.isna().any():  # the player played every deal hindsight solved
                scores[policy] = s.to_numpy()
        if "warm" in hd and len(hd) and not hd.warm.isna().any():
            # the warm games: the default player's (best's) own games on these deals
            scores[DEFAULT] = hd.warm.to_numpy(dtype=float)
        if not scores:
            continue
        best = max(scores, key=lambda k: scores[k].mean())
        best_gold = max(scores, key=lambda k: ((scores[k] >= gold).mean(), scores[k].mean()))
        found = hd.found.to_numpy()
        bound = hd.bound.to_numpy(dtype=float)
        score, gscore = scores[best], scores[best_gold]
        n = len(found)
        reach = found >= gold
        row = {"level": lv.number, "gold": gold, "deals": n, "best": best,
               "player_mean": score.mean(), "found_mean": found.mean(),
               "share": score.mean() / found.mean() if found.mean() > 0 else np.nan,
               "below": float((found < score).mean()), "above": float((found > score).mean()),
               "bound_mean": np.nan if np.isnan(bound).any() else bound.mean(),
               "best_gold": best_gold}
        for name, hit in (("player", gscore >= gold), ("found", reach)):
            k = int(hit.sum())
            lo, hi = wilson(k, n)
            row.update({f"p_gold_{name}": k / n, f"p_gold_{name}_lo": lo,
                        f"p_gold_{name}_hi": hi})
        if DEFAULT in scores:
            hit = scores[DEFAULT] >= gold
            lo, hi = wilson(int(hit.sum()), n)
            row.update(default_mean=scores[DEFAULT].mean(), p_gold_default=float(hit.mean()),
                       p_gold_default_lo=lo, p_gold_default_hi=hi)
        warm = np.maximum.reduce([found] + list(scores.values()))
        row["warm_mean"] = warm.mean()
        row["p_gold_warm"] = float((warm >= gold).mean())
        row["p_gold_bound"] = np.nan if np.isnan(bound).any() else float((bound >= gold).mean())
        k, m = int((gscore[reach] >= gold).sum()), int(reach.sum())
        row["p_gold_if_reachable"] = k / m if m else np.nan
        if "search" in hd:
            alone = hd.search.to_numpy()
            row.update(search_mean=alone.mean(), p_gold_search=float((alone >= gold).mean()),
                       search_below=float((alone < score).mean()))
        if strongest is not None:
            mine = strongest[strongest.level == lv.number]
            if len(mine):
                top = mine.sort_values(["p_gold", "mean"], ascending=False).iloc[0]
                row.update(strongest=top.spec, strongest_p_gold=top.p_gold,
                           strongest_p_gold_lo=top.p_gold_lo, strongest_p_gold_hi=top.p_gold_hi,
                           strongest_games=int(top.games),
                           strongest_seconds=top.seconds_per_game)
        rows.append(row)
    return pd.DataFrame(rows)


def gold_plot(table):
    """P(gold) per level: the best player against foresight (the search's found games: a
    floor of what foresight reaches), with 95% intervals. Returns a
    :class:`numberup.reports.style.Plot` whose data is ``table``'s P(gold) columns."""
    from .style import PALETTE, Plot, figure, percent_axis

    fig, axes = figure(10, 4.2)
    ax = axes[0, 0]
    x = np.arange(len(table))
    bars = [("player", "best player for gold on these deals"),
            ("found", "foresight found (a floor)")]
    three = "p_gold_bound" in table
    width = 0.27 if three else 0.38
    offsets = (-width, 0.0) if three else (-width / 2, width / 2)
    for k, (name, label) in enumerate(bars):
        p = table[f"p_gold_{name}"].to_numpy()
        err = np.vstack([p - table[f"p_gold_{name}_lo"], table[f"p_gold_{name}_hi"] - p])
        ax.bar(x + offsets[k], p, width, yerr=err,
               capsize=2, color=PALETTE[k], label=label, edgecolor="black", linewidth=0.4)
    if three:  # the proven bound's "at most"
        ax.bar(x + width, table.p_gold_bound.to_numpy(), width, color="white",
               edgecolor=PALETTE[2], hatch="//", linewidth=0.8, label="proven bound (at most)")
    if "strongest_p_gold" in table:
        ax.scatter(x, table.strongest_p_gold, marker="_", s=220, color="black", zorder=3,
                   label="strongest measured setting (its own decks of the seed)")
    ax.set_xticks(x, [str(v) for v in table.level])
    ax.set_xlabel("level")
    ax.set_ylabel("P(gold)")
    percent_axis(ax.yaxis)
    ax.set_ylim(0, 1.05)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    ax.set_title(f"P(gold) per level: players, foresight and its proven bound "
                 f"({int(table.deals.min())} deals per level, 95% intervals)", loc="left")
    data = table[[c for c in ("level", "best_gold", "p_gold_player", "p_gold_found",
                              "p_gold_bound", "strongest", "strongest_p_gold") if c in table]].copy()
    return Plot("hindsight-gold", fig, data, {"deals": int(table.deals.min())})


def report_lines(rows: list[dict], seed: int) -> list[str]:
    """The summary in words, one block per level."""
    out = [f"numberup hindsight (seed {seed}): best game found with the deck order known"]
    for r in rows:
        lv = get_level(r["level"])
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        out.append(
            f"level {r['level']:>2}: {r['games']} deals, mean found {r['mean']:.1f}; "
            f"P(>=B/S/G) {pct(r['p_bronze'])} / {pct(r['p_silver'])} / {pct(r['p_gold'])}; "
            f"{r['seconds_per_deal']:.3f} s a deal")
        out.append(f"    with foresight, gold ({lv.medals[2]}) is reachable on at least "
                   f"{pct(r['p_gold'])} of deals (95% CI {pct(r['p_gold_lo'])}-{pct(r['p_gold_hi'])})")
        if r.get("warm_games"):
            out.append(f"    search alone: mean {r['search_mean']:.1f}, gold {pct(r['search_p_gold'])}; "
                       f"warm games ({r['warm']}): mean {r['warm_mean']:.1f}, gold "
                       f"{pct(r['warm_p_gold'])}; search >= warm on {pct(r['search_at_least_warm'])}"
                       f" of deals, warm kept on {pct(r['found_by_warm'])}")
        if r["bound_proven"]:
            out.append(f"    proven bound: mean {r['bound_mean']:.1f} (found/bound "
                       f"{r['mean'] / r['bound_mean']:.2f}); gold reachable on at most "
                       f"{pct(r['bound_p_gold'])} of deals (95% CI up to {pct(r['bound_p_gold_hi'])}); "
                       f"found = bound on {pct(r['bound_tight'])}")
        else:
            out.append("    no proven bound")
        if r.get("layout_deals"):
            out.append(f"    layout on {r['layout_deals']} deals: played on "
                       f"{pct(r['layout_played'])} of them; the found game on "
                       f"{pct(r['found_by_layout'])} of deals")
        if r.get("exact_deals"):
            out.append(f"    exact model on {r['exact_deals']} deals: optimum proven on "
                       f"{pct(r['exact_optimal'])}, time limit hit on {pct(r['exact_hit_limit'])}, "
                       f"better than the searches on {pct(r['found_by_exact'])}; "
                       f"{r['exact_seconds_per_deal']:.1f} s a deal")
    return out
