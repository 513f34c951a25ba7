"""The campaign: the whole Challenge Booklet, K attempts at every level.

The booklet keeps each level's best result; a chapter's result is the sum of the best results
of its five levels, with Bronze/Silver/Gold thresholds of its own
(:data:`numberup.game.levels.CHAPTERS`). Given a sample of games per level (``numberup simulate``),
everything here is exact on the samples' discrete support (no resampling):

- a level: the medal probabilities of one game, and the expected number of games until the
  first Gold (geometric: ``1 / p_gold``; infinite when no sampled game reached Gold);
- the best of K attempts at a level: the K-th order statistic of K independent draws from the
  empirical distribution, ``P(best <= x) = F(x) ** K``;
- a chapter: its total is the sum of five independent best-of-K results, so its distribution
  is their convolution, and ``P(total >= threshold)`` is read off it;
- the booklet: every chapter reaching the medal, ``P = prod over the 4 chapters``
  (chapters are independent).

A game result of 0 or less is lost and is not entered in the booklet (rulebook), so a best
result counts ``max(0, best)``: a level whose K attempts are all lost adds 0 to its chapter.

Distributions are :class:`Pmf`: probabilities on consecutive integers, as one numpy array.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..game.levels import CHAPTERS, MEDALS, Chapter, get_level
from ..stats import medal_counts

LOST_FLOOR = 0  # a lost game (result <= 0) is not entered: it counts as 0 in a chapter total


@dataclass(frozen=True)
class Pmf:
    """A distribution on the integers ``lo, lo + 1, ..., lo + len(p) - 1``.

    Attributes
    ----------
    lo : int
        The smallest value of the support.
    p : ndarray of float64, shape (n,)
        ``p[i] = P(X = lo + i)``; sums to 1.
    """

    lo: int
    p: np.ndarray

    @property
    def values(self) -> np.ndarray:
        """The integers the probabilities stand for (int64, same shape as ``p``)."""
        return np.arange(self.lo, self.lo + len(self.p), dtype=np.int64)

    def at_least(self, x: int) -> float:
        """``P(X >= x)``: ``Pmf(0, [.25, .5, .25]).at_least(1) -> 0.75``."""
        i = int(x) - self.lo
        if i <= 0:
            return 1.0
        return float(min(1.0, self.p[i:].sum())) if i < len(self.p) else 0.0

    def mean(self) -> float:
        return float(np.dot(self.values, self.p))

    def as_dict(self) -> dict[int, float]:
        """The values of positive probability: ``{0: 0.25, 1: 0.5, 2: 0.25}``."""
        return {int(v): float(q) for v, q in zip(self.values, self.p) if q > 0}


def _as_scores(scores, floor: int | None) -> np.ndarray:
    s = np.asarray(scores)
    if s.ndim != 1 or len(s) == 0:
        raise ValueError("a sample of game results must be a non-empty 1-d array")
    if not np.issubdtype(s.dtype, np.integer):
        if not np.all(np.mod(s, 1) == 0):
            raise ValueError("game results must be whole numbers")
    s = s.astype(np.int64)
    return s if floor is None else np.maximum(s, floor)


def _cdf(scores: np.ndarray) -> tuple[int, np.ndarray]:
    """The empirical CDF on ``min .. max``: ``[1, 3, 3] -> (1, [1/3, 1/3, 1])``."""
    lo = int(scores.min())
    counts = np.bincount(scores - lo)
    cdf = np.cumsum(counts) / len(scores)  # exact integer sums, so monotone and ending at 1
    cdf[-1] = 1.0
    return lo, cdf


def empirical_pmf(scores, *, floor: int | None = None) -> Pmf:
    """The sample's distribution: ``empirical_pmf([0, 10]).as_dict() -> {0: .5, 10: .5}``.

    Parameters
    ----------
    scores : array_like of int, shape (n,)
        Game results, one per game.
    floor : int, optional
        Results below it count as ``floor`` (the campaign uses 0: lost games are not entered).
    """
    return best_of_k_pmf(scores, 1, floor=floor)


def best_of_k_pmf(scores, k: int, *, floor: int | None = None) -> Pmf:
    """The best of ``k`` independent games drawn from the sample ``scores``.

    The K-th order statistic of the empirical distribution, exactly:
    ``P(best <= x) = F(x) ** k`` with F the empirical CDF, so
    ``P(best = x) = F(x) ** k - F(x - 1) ** k``.
    ``best_of_k_pmf([0, 10], 2).as_dict() -> {0: 0.25, 10: 0.75}``.

    Parameters
    ----------
    scores : array_like of int, shape (n,)
        Game results, one per game (n >= 1).
    k : int
        Attempts, k >= 1.
    floor : int, optional
        Results below it count as ``floor`` before the best is taken.
    """
    if int(k) != k or k < 1:
        raise ValueError(f"attempts must be a whole number >= 1, not {k!r}")
    lo, cdf = _cdf(_as_scores(scores, floor))
    fk = cdf ** int(k)
    return Pmf(lo, np.diff(fk, prepend=0.0))


def sum_pmf(pmfs: Sequence[Pmf]) -> Pmf:
    """The distribution of the sum of independent variables: the convolution of their pmfs.

    ``sum_pmf([Pmf(0, [.5, .5])] * 2).as_dict() -> {0: .25, 1: .5, 2: .25}``; an empty list
    gives the point mass at 0.
    """
    lo, p = 0, np.ones(1)
    for pmf in pmfs:
        lo += pmf.lo
        p = np.convolve(p, pmf.p)
    return Pmf(lo, p)


def medal_odds(pmf: Pmf, medals: Sequence[int]) -> dict[str, float]:
    """``P(X >= threshold)`` for bronze, silver and gold: ``{'p_bronze': ..., ...}``."""
    return {f"p_{name}": pmf.at_least(t) for name, t in zip(MEDALS, medals)}


def expected_attempts(p: float) -> float:
    """Expected games until the first success of probability ``p`` (geometric): ``1 / p``,
    ``inf`` when ``p == 0``."""
    return 1.0 / p if p > 0 else math.inf


def chapter_total_pmf(samples: Sequence, k: int, *, floor: int | None = LOST_FLOOR) -> Pmf:
    """The distribution of a chapter result: the sum over its levels of the best of ``k``
    attempts, levels independent.

    Parameters
    ----------
    samples : sequence of array_like of int
        Per level of the chapter, its sampled game results.
    k : int
        Attempts per level.
    floor : int, optional
        Each best result counts at least this (default 0: lost games are not entered).
    """
    return sum_pmf([best_of_k_pmf(s, k, floor=floor) for s in samples])


def chapter_odds(samples: Sequence, medals: Sequence[int], k: int, *,
                 floor: int | None = LOST_FLOOR) -> dict[str, float]:
    """``p_bronze/p_silver/p_gold`` of a chapter result reaching each threshold, and
    ``mean_total``, the expected chapter result (see :func:`chapter_total_pmf`)."""
    total = chapter_total_pmf(samples, k, floor=floor)
    return {**medal_odds(total, medals), "mean_total": total.mean()}


def level_odds(scores, medals: Sequence[int], k: int) -> dict[str, float]:
    """One level: medal probabilities of one game (``p_*``, P(>= threshold) as in
    ``numberup simulate``), ``expected_attempts_gold`` (1 / p_gold), ``p_gold_in_attempts``
    (at least one Gold in ``k`` games) and ``mean_best`` (the expected best of ``k``, lost
    games counting 0: what the level adds to its chapter on average)."""
    s = _as_scores(scores, None)
    n = len(s)
    counts = medal_counts(s, tuple(medals))
    out = {"games": n}
    out.update({f"p_{name}": counts[name] / n for name in MEDALS})
    out["expected_attempts_gold"] = expected_attempts(out["p_gold"])
    out["p_gold_in_attempts"] = 1.0 - (1.0 - out["p_gold"]) ** k
    out["mean_best"] = best_of_k_pmf(s, k, floor=LOST_FLOOR).mean()
    return out


def campaign(samples: Mapping[int, Sequence], attempts: int,
             chapters: Sequence[Chapter] = CHAPTERS) -> dict:
    """The campaign's odds from per-level samples of game results.

    Parameters
    ----------
    samples : mapping of int to array_like of int
        Level number -> its sampled game results. Levels may be missing: a chapter with a
        missing level gets ``None`` odds (and ``missing``), and then so does the booklet.
    attempts : int
        K, the attempts at every level.

    Returns
    -------
    dict
        ``{"attempts", "games" (the fewest games of any level), "levels": [...],
        "chapters": [...], "booklet": {...}}``; infinities stay ``math.inf``.
    """
    levels = []
    for number in sorted(samples):
        lv = get_level(int(number))
        levels.append({"level": lv.number, "chapter": lv.chapter,
                       **level_odds(samples[number], lv.medals, attempts)})
    out_chapters = []
    for ch in chapters:
        entry = {"chapter": ch.number, "name": ch.name, "levels": list(ch.levels),
                 "thresholds": dict(zip(MEDALS, ch.medals))}
        missing = [n for n in ch.levels if n not in samples]
        if missing:
            entry.update({f"p_{m}": None for m in MEDALS}, mean_total=None, missing=missing)
        else:
            entry.update(chapter_odds([samples[n] for n in ch.levels], ch.medals, attempts))
        out_chapters.append(entry)
    complete = all(c["p_gold"] is not None for c in out_chapters)
    booklet = {
        f"p_{m}": (math.prod(c[f"p_{m}"] for c in out_chapters) if complete else None)
        for m in MEDALS
    }
    booklet["definition"] = "every chapter's result at or above the medal's threshold"
    return {
        "attempts": attempts,
        "games": min((lv["games"] for lv in levels), default=0),
        "levels": levels,
        "chapters": out_chapters,
        "booklet": booklet,
    }


def level_samples(games, policy: str) -> dict[int, np.ndarray]:
    """Level -> results of ``policy``'s games, from a games table (DataFrame with columns
    ``level``, ``policy``, ``score``; one row per game)."""
    rows = games[games["policy"] == policy]
    return {int(level): np.array(group["score"].to_numpy(), dtype=np.int64)
            for level, group in rows.groupby("level", sort=True)}


# ---------------------------------------------------------------------------------------------
# Text
