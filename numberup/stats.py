"""Summaries of per-game results: moments, percentiles, medal probabilities with intervals."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion: ``wilson(0, 10) -> (0.0, 0.278)``."""
    if n == 0:
        return (0.0, 1.0)
    phat = successes / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def medal_counts(scores: np.ndarray, medals: tuple[int, int, int]) -> dict[str, int]:
    """Games lost (result <= 0) and at or above each threshold."""
    bronze, silver, gold = medals
    return {
        "lost": int((scores <= 0).sum()),
        "bronze": int((scores >= bronze).sum()),
        "silver": int((scores >= silver).sum()),
        "gold": int((scores >= gold).sum()),
    }


def summarize(scores: np.ndarray, medals: tuple[int, int, int]) -> dict:
    """Mean, sd, percentiles and ``p_lost/p_bronze/p_silver/p_gold`` (each with a 95% Wilson
    interval ``*_lo``/``*_hi``) of one sample of game results. ``p_bronze`` is P(>= bronze)."""
    scores = np.asarray(scores, dtype=np.float64)
    n = len(scores)
    out: dict = {"games": n}
    out["mean"] = float(scores.mean()) if n else math.nan
    out["sd"] = float(scores.std(ddof=1)) if n > 1 else math.nan
    out["se"] = out["sd"] / math.sqrt(n) if n > 1 else math.nan
    for q in (5, 25, 50, 75, 95):
        out[f"p{q:02d}"] = float(np.percentile(scores, q)) if n else math.nan
    for name, k in medal_counts(scores, medals).items():
        lo, hi = wilson(k, n)
        out[f"p_{name}"] = k / n if n else math.nan
        out[f"p_{name}_lo"] = lo
        out[f"p_{name}_hi"] = hi
    return out


def paired(a: np.ndarray, b: np.ndarray) -> dict:
    """``b - a`` game by game on the same decks: mean difference with a 95% normal interval,
    and b's wins, ties and losses against a (over their common games)."""
    n = min(len(a), len(b))
    d = np.asarray(b[:n], np.float64) - np.asarray(a[:n], np.float64)
    mean = float(d.mean()) if n else math.nan
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return {
        "diff_mean": mean,
        "diff_lo": mean - Z95 * se,
        "diff_hi": mean + Z95 * se,
        "wins": int((d > 0).sum()),
        "ties": int((d == 0).sum()),
        "losses": int((d < 0).sum()),
    }
