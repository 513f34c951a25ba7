"""Write what the commands need from measured results into the package (numberup/data/), so an
installed numberup has it outside a checkout: `python results/package_data.py` from the
repository root (step 4b of results/make.sh).

- summary.csv: every level x player of results/summary.csv (cost and medal odds), read by
  `numberup players`, advise's choice of ranker and play's hints;
- scores.csv: per level and player of results/runs/baseline, learned and objective, how many of
  its games ended on each score, read by play's standing (where a person's result falls among
  the solver's).
"""

from pathlib import Path

import pandas as pd

DATA = Path("numberup/data")
DATA.mkdir(exist_ok=True)
summary = pd.read_csv("results/summary.csv")
summary.to_csv(DATA / "summary.csv", index=False, float_format="%.6g")
# the baseline's players, the learned player and the medal objectives (what 'best' may play)
runs = [pd.read_parquet(f"results/runs/{d}/games.parquet", columns=["level", "policy", "score"])
        for d in ("baseline", "learned", "objective")]
seen = set()
frames = []
for games in runs:  # a level x player once (the runs share the baseline's expectimax games)
    keys = set(map(tuple, games[["level", "policy"]].drop_duplicates().to_numpy()))
    new = keys - seen
    seen |= new
    frames.append(games[[(lv, p) in new for lv, p in zip(games.level, games.policy)]])
games = pd.concat(frames)
counts = games.groupby(["level", "policy", "score"]).size().rename("games").reset_index()
counts.to_csv(DATA / "scores.csv", index=False)
print(f"{DATA}/summary.csv: {len(summary)} rows; {DATA}/scores.csv: {len(counts)} rows")
