"""The best of several hindsight runs of the same seed, deal by deal: the best legal game any of
them found and the tightest bound any of them proved (a found game is legal whichever run found
it, a bound is proven whichever run proved it, so both hold together; the package's cheap
bounds, `numberup.analysis.bounds.bound`, and level 4's `supply.paired_bound` are taken again
for every deal of --seed, so a bound added since a run counts), and per level the figures
issue 25 sets targets on.

    python results/hindsight_best.py --games 100 --out results/hindsight-bounds.csv \\
        results/runs/hindsight results/runs/hindsight-lp-100 results/runs/hindsight-exact/level-* \\
        results/runs/hindsight-layout/level-*

Each argument is a run directory of `numberup hindsight --out` (its deals.csv); only games
0..games-1 are kept. Columns per level: deals, found_mean, bound_mean, bound_over_found (mean
bound / mean found), optimal (share of deals whose found result meets the bound), p_gold_found
and p_gold_bound (share of deals whose found game / whose bound reaches gold), found_by_exact
(share whose best game came from the exact model), found_by_layout (from a layout played,
`--layout`), runs (the runs that hold the level).
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from numberup.analysis.bounds import bound as cheap_bound
from numberup.analysis.supply import paired_bound
from numberup.game.cards import deal
from numberup.game.levels import get_level

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("runs", nargs="+", type=Path)
ap.add_argument("--games", type=int, default=100)
ap.add_argument("--seed", type=int, default=2026, help="the master seed of every run merged")
ap.add_argument("--out", type=Path, required=True)
args = ap.parse_args()

frames = []
for run in args.runs:
    d = pd.read_csv(run / "deals.csv")
    d = d[d.game < args.games].assign(run=run.as_posix().removeprefix("results/runs/"))
    frames.append(d[["level", "game", "found", "found_by", "bound", "run"]])
deals = pd.concat(frames, ignore_index=True)
best = deals.loc[deals.groupby(["level", "game"]).found.idxmax()].set_index(["level", "game"])
tight = deals.groupby(["level", "game"]).bound.min()


def again(level, game):
    """The package's bounds of the deal now: the cheap ones and level 4's paired supply."""
    deck = deal(get_level(level), args.seed, game)
    return min(b for b in (cheap_bound(level, deck), paired_bound(level, deck)) if b is not None)


tight[:] = [min(b, again(int(level), int(game))) for (level, game), b in tight.items()]
rows = []
for level, g in best.groupby(level="level"):
    gold = get_level(int(level)).medals[2]
    found = g.found.to_numpy(float)
    bound = tight.loc[level].reindex(g.index.get_level_values("game")).to_numpy(float)
    rows.append({
        "level": int(level), "deals": len(g), "found_mean": found.mean(),
        "bound_mean": bound.mean(), "bound_over_found": bound.mean() / found.mean(),
        "optimal": float(np.mean(found >= bound)),
        "p_gold_found": float(np.mean(found >= gold)), "p_gold_bound": float(np.mean(bound >= gold)),
        "found_by_exact": float(np.mean(g.found_by == "exact")),
        "found_by_layout": float(np.mean(g.found_by == "layout")),
        "runs": " ".join(sorted(set(deals[deals.level == level].run)))})
table = pd.DataFrame(rows)
table.to_csv(args.out, index=False, float_format="%.6g")
print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
print(f"bound/found <= 1.10 on {int((table.bound_over_found <= 1.10).sum())} levels; "
      f"optimum proven on half the deals or more on {int((table.optimal >= 0.5).sum())}")
