"""Write what the commands need from measured results into the package (numberup/data/), so an
installed numberup has it outside a checkout: `python results/package_data.py` from the
repository root (step 4b of results/make.sh).

- summary.csv: every level x player of results/summary.csv (cost and medal odds), read by
  `numberup players`, advise's choice of ranker and play's hints;
- scores.csv: per level and player of results/runs/baseline, how many of its games ended on each
  score, read by play's standing (where a person's result falls among the solver's).
"""

from pathlib import Path

import pandas as pd

DATA = Path("numberup/data")
DATA.mkdir(exist_ok=True)
summary = pd.read_csv("results/summary.csv")
summary.to_csv(DATA / "summary.csv", index=False, float_format="%.6g")
games = pd.read_parquet("results/runs/baseline/games.parquet", columns=["level", "policy", "score"])
counts = games.groupby(["level", "policy", "score"]).size().rename("games").reset_index()
counts.to_csv(DATA / "scores.csv", index=False)
print(f"{DATA}/summary.csv: {len(summary)} rows; {DATA}/scores.csv: {len(counts)} rows")
