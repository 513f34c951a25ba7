"""Made-up tables the report tests draw (no numberup here): a budget summary of level 14."""

import pandas as pd


def fake_budget():
    """A summary table of level 14: four players' cost, mean and P(gold) with intervals."""
    return pd.DataFrame({
        "level": [14] * 4, "policy": ["rollout:n=200", "greedy", "rollout:n=50", "rollout:n=800"],
        "games": [100] * 4, "seconds_per_game": [1e-2, 2e-5, 3e-3, 4e-2],
        "mean": [211.0, 196.0, 205.0, 214.0], "se": [0.7, 0.8, 0.8, 0.7],
        "p_gold": [0.7, 0.52, 0.6, 0.74], "p_gold_lo": [0.66, 0.48, 0.56, 0.7],
        "p_gold_hi": [0.74, 0.56, 0.64, 0.78],
    })
