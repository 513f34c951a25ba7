"""A learned evaluation of unfinished lines: what a line finally adds, learned from real games.

The searchers' evaluation (:mod:`numberup.search`) judges each line by random completions with
the cards still to come, which score far below what play then makes of the line. A model of
this module maps what can be cheaply computed now to what the line was *finally* worth in games
of the searcher's own play (:mod:`numberup.train`):

    row = (phase, empty cells of the line, binned mean of the line's random completions)

``phase`` is the quarter of the grid already filled (0..3), the mean is binned in half points
from ``DIST_LO`` (0..``MEAN_BINS - 1``). Each row of the table holds, over the training lines
that had that row, the mean final contribution, the mean of its square, P(final value >= the
bronze, silver, gold line targets) and, for every ``t``, P(final value >= t): the same columns
as ``Scratch.line_eval`` (a learned per-line *distribution*, so P(medal) follows as before).

The mean column is not the rows' plain average: it is the bin's centre plus the average
*residual* (final minus random mean) of the whole group (phase, empty cells), so the model keeps
the random completions' ranking of lines within a group and shifts each group by what play
makes of such lines (``SMOOTH_MEAN``; per-bin averages played worse: see results/learned.md).
The probability columns are per-bin averages smoothed over neighbouring bins (``SMOOTH``).

At play, a line's random-completion estimate ``R`` is replaced by ``s w T + (1 - s w) R``
(column by column; the variance through the second moment), ``T`` its row, ``w = c / (c + m)``
with ``c`` the training lines in the row and ``m = PRIOR`` (rows seen rarely or never fall back
on the random completions), and ``s = SHARE``. A full line stays exact. The share is small on
purpose: the model alone (s = 1) predicts final line values far better than the random
completions but ranks moves worse (every open line is credited with what later cards will do
for it, and the lines compete for the same cards), losing 1-8 points of mean on the hard
levels; s = 0.2 changes the mean by -0.4 to +1.5 points (results/learned.md).

Model files are ``.npz``: the level, the feature version, the seed, the games and the
completions ``k`` beside the used rows of the table. Models shipped with the package live in
``numberup/models/level-NN.npz``.
"""

from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import levels as L
from .cards import InputError
from .engine import DIST_HI, DIST_LO, EVAL_WIDTH, I_FILLED, N_STATS
from .jit import kernel

FEATURE_VERSION = 1
PHASES = 4
MAX_SIZE = 8
MEAN_BINS = 2 * (DIST_HI - DIST_LO) + 1  # half points from DIST_LO to DIST_HI
ROWS = PHASES * MAX_SIZE * MEAN_BINS
COUNT = EVAL_WIDTH  # the table's last column: the training lines of the row
MIN_COUNT = 0.01  # smoothed rows with fewer (effective) training lines are left out
SMOOTH = 2.0  # bins (half points): the width of the smoothing of a group's rows
SMOOTH_MEAN = 1000.0  # bins: the width of the smoothing of the mean residual (wide: one shift per group)
SHARE = 0.2  # the model's share in the blend, at most (measured: see the module doc)
PRIOR = 4.0  # pseudo-lines of the random-completion estimate blended into every row
MODELS = Path(__file__).resolve().parent / "models"


def empty_table() -> np.ndarray:
    """No model: the evaluation keeps its random completions."""
    return np.zeros((0, EVAL_WIDTH + 1), np.float64)


@kernel(inline="always")
def _line_group(p, geo, S, li):
    """The first table row of line ``li``'s group (phase, empty cells); -1: a full line."""
    n = p[L.P_SIZE]
    n_empty = 0
    for i in range(n):
        if S.grid[geo.lines[li, i]] < 0:
            n_empty += 1
    if n_empty == 0:
        return -1
    phase = min((S.ints[I_FILLED] * PHASES) // (n * n), PHASES - 1)
    return (phase * MAX_SIZE + n_empty - 1) * MEAN_BINS


@kernel(inline="always")
def _bin_position(mean):
    """Where ``mean`` falls on the bins of a group, as a float in [0, MEAN_BINS - 1]."""
    return min(max((mean - DIST_LO) * 2.0, 0.0), MEAN_BINS - 1.0)


@kernel(inline="always")
def _line_row(p, geo, S, li, mean):
    """The table row (nearest bin) of line ``li`` whose random-completion mean is ``mean``, as
    training logs it; -1: a full line."""
    g = _line_group(p, geo, S, li)
    if g < 0:
        return -1
    return g + np.int64(np.floor(_bin_position(mean) + 0.5))


@kernel(inline="always")
def _calibrate_line(p, geo, S, line_eval, table, li):
    """Blend line ``li``'s random-completion estimate in ``line_eval`` with its learned value,
    interpolated between the two bins around its mean (module doc); nothing without a model."""
    if table.shape[0] == 0:
        return
    g = _line_group(p, geo, S, li)
    if g < 0:
        return
    x = _bin_position(line_eval[li, 0])
    b = min(np.int64(np.floor(x)), MEAN_BINS - 2)
    f = x - b
    r0 = g + b
    r1 = r0 + 1
    c = (1.0 - f) * table[r0, COUNT] + f * table[r1, COUNT]
    if c <= 0.0:
        return
    w = SHARE * c / (c + PRIOR)
    mean_r = line_eval[li, 0]
    t0 = (1.0 - f) * table[r0, 0] + f * table[r1, 0]
    t1 = (1.0 - f) * table[r0, 1] + f * table[r1, 1]
    m2 = w * t1 + (1.0 - w) * (line_eval[li, 1] + mean_r * mean_r)
    mean = w * t0 + (1.0 - w) * mean_r
    line_eval[li, 0] = mean
    line_eval[li, 1] = max(m2 - mean * mean, 0.0)
    width = EVAL_WIDTH if p[L.P_AGG] == L.AGG_MIN_X10 else N_STATS
    for q in range(2, width):
        tq = (1.0 - f) * table[r0, q] + f * table[r1, q]
        line_eval[li, q] = w * tq + (1.0 - w) * line_eval[li, q]


@kernel
def _calibrate_all(p, geo, S, line_eval, table):
    if table.shape[0] == 0:
        return
    for li in range(p[L.P_NLINES]):
        _calibrate_line(p, geo, S, line_eval, table, li)


def fit_table(level, rows: np.ndarray, mean: np.ndarray, contrib: np.ndarray,
              values: np.ndarray, smooth_mean: float | None = None) -> np.ndarray:
    """The dense table (``ROWS`` x ``EVAL_WIDTH + 1``) from training lines: each line's row,
    random-completion mean, final contribution and final value (flat arrays in a fixed order,
    so the table does not depend on how the games were split).

    The mean column is the bin's centre plus the smoothed mean *residual* (final minus random
    mean) over a Gaussian of ``smooth_mean`` bins: wide, it keeps the random completions' slope
    and only shifts each group (phase, empty cells) by what play adds to such lines."""
    smooth_mean = SMOOTH_MEAN if smooth_mean is None else smooth_mean
    p = L.PARAMS[level.number]
    rows = rows.astype(np.int64)
    contrib = contrib.astype(np.float64)
    values = values.astype(np.int64)
    resid = contrib - np.asarray(mean, np.float64)
    count = np.bincount(rows, minlength=ROWS).astype(np.float64)
    t = np.zeros((ROWS, EVAL_WIDTH + 1), np.float64)
    used = count > 0
    cnt = np.where(used, count, 1.0)
    t[:, 0] = np.bincount(rows, contrib, ROWS) / cnt
    t[:, 1] = np.bincount(rows, contrib * contrib, ROWS) / cnt
    for q, medal in enumerate((L.P_BRONZE, L.P_SILVER, L.P_GOLD)):
        target = (int(p[medal]) + 9) // 10
        t[:, 2 + q] = np.bincount(rows, (values >= target).astype(np.float64), ROWS) / cnt
    width = DIST_HI - DIST_LO + 1
    v = np.clip(values, DIST_LO, DIST_HI) - DIST_LO
    hist = np.bincount(rows * width + v, minlength=ROWS * width).reshape(ROWS, width)
    at_least = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # [:, j]: lines of value >= DIST_LO + j
    t[:, N_STATS:EVAL_WIDTH] = at_least[:, 1:] / cnt[:, None]
    t[:, COUNT] = count
    out = smooth(t, SMOOTH)
    r = np.zeros_like(t)
    r[:, 0] = np.bincount(rows, resid, ROWS) / cnt
    r[:, 1] = np.bincount(rows, resid * resid, ROWS) / cnt
    r[:, COUNT] = count
    r = smooth(r, smooth_mean)
    ok = out[:, COUNT] > 0
    centre = np.tile(np.arange(MEAN_BINS) / 2.0 + DIST_LO, ROWS // MEAN_BINS)
    out[:, 0] = np.where(ok, centre + r[:, 0], 0.0)
    out[:, 1] = np.where(ok, out[:, 0] ** 2 + np.maximum(r[:, 1] - r[:, 0] ** 2, 0.0), 0.0)
    return out


def smooth(t: np.ndarray, sigma: float) -> np.ndarray:
    """Each group's rows averaged over neighbouring bins (a Gaussian of ``SMOOTH`` bins,
    weighted by the rows' counts): a row's value borrows from lines of nearly the same mean,
    so that a table of a few thousand games is not noisier than the differences between
    moves. The count becomes the smoothed (effective) count."""
    b = np.arange(MEAN_BINS)
    kern = np.exp(-0.5 * ((b[:, None] - b[None, :]) / sigma) ** 2)
    out = np.zeros_like(t)
    for g0 in range(0, ROWS, MEAN_BINS):
        block = t[g0:g0 + MEAN_BINS]
        cnt = block[:, COUNT]
        eff = kern @ cnt
        ok = eff >= MIN_COUNT
        out[g0:g0 + MEAN_BINS, :EVAL_WIDTH] = np.where(
            ok[:, None], (kern @ (block[:, :EVAL_WIDTH] * cnt[:, None])) / np.where(ok, eff, 1.0)[:, None], 0.0)
        out[g0:g0 + MEAN_BINS, COUNT] = np.where(ok, eff, 0.0)
    return out


def predict(table, groups, random_mean, share: float = SHARE) -> np.ndarray:
    """The evaluation's line means (as :func:`_calibrate_line` makes them), in plain numpy:
    lines given by their group's first row and their random-completion mean."""
    pred = np.asarray(random_mean, np.float64).copy()
    if len(table) == 0:
        return pred
    x = np.clip((pred - DIST_LO) * 2.0, 0.0, MEAN_BINS - 1.0)
    b = np.minimum(np.floor(x).astype(np.int64), MEAN_BINS - 2)
    f = x - b
    r0 = np.asarray(groups, np.int64) + b
    c = (1 - f) * table[r0, COUNT] + f * table[r0 + 1, COUNT]
    t0 = (1 - f) * table[r0, 0] + f * table[r0 + 1, 0]
    w = np.where(c > 0, share * c / (c + PRIOR), 0.0)
    return w * t0 + (1 - w) * pred


def prediction_error(table, rows, contrib, random_mean, share: float = SHARE) -> float:
    """Mean squared error of the evaluation's line means against the lines' final
    contributions (``rows``: as training logs them); with an empty table, that of the random
    completions; ``share=1``: that of the model alone."""
    groups = np.asarray(rows, np.int64) // MEAN_BINS * MEAN_BINS
    return float(np.mean((predict(table, groups, random_mean, share) - contrib) ** 2))


# --- model files --------------------------------------------------------------------------

def save_model(path, table: np.ndarray, level: int, seed: int, games: int, k: int,
               iterations: int) -> None:
    """Write a model: the used rows of ``table`` and what made it. The same table gives the
    same bytes (the archive's timestamps are fixed)."""
    used = np.flatnonzero(table[:, COUNT] > 0).astype(np.int32)
    arrays = {
        "level": np.int64(level), "version": np.int64(FEATURE_VERSION), "seed": np.int64(seed),
        "games": np.int64(games), "k": np.int64(k), "iterations": np.int64(iterations),
        "rows": used, "table": table[used, :EVAL_WIDTH].astype(np.float32),
        "counts": table[used, COUNT].astype(np.float32),
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue())
    tmp.replace(path)


def read_model(path, level: int | None = None) -> tuple[np.ndarray, dict]:
    """(dense table, facts) of the model file ``path``; a damaged file, another feature
    version or (given ``level``) another level's model raises a one-line InputError."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            facts = {k: int(z[k]) for k in ("level", "version", "seed", "games", "k", "iterations")}
            used, tab, counts = z["rows"], z["table"], z["counts"]
    except FileNotFoundError:
        raise InputError(f"model file {path} does not exist") from None
    except Exception as err:  # a damaged archive: zip, npy or missing-key errors
        raise InputError(f"model file {path} is damaged or not a numberup model "
                         f"({type(err).__name__})") from None
    if facts["version"] != FEATURE_VERSION:
        raise InputError(f"model file {path} has feature version {facts['version']}, this "
                         f"numberup reads version {FEATURE_VERSION}: train it again")
    if level is not None and facts["level"] != level:
        raise InputError(f"model file {path} is for level {facts['level']}, not level {level}")
    ok = (used.ndim == 1 and tab.shape == (len(used), EVAL_WIDTH) and counts.shape == used.shape
          and (len(used) == 0 or (used.min() >= 0 and used.max() < ROWS))
          and np.all(np.isfinite(tab)) and np.all(counts > 0))
    if not ok:
        raise InputError(f"model file {path} is damaged (its table does not fit feature "
                         f"version {FEATURE_VERSION})")
    table = np.zeros((ROWS, EVAL_WIDTH + 1), np.float64)
    table[used, :EVAL_WIDTH] = tab
    table[used, COUNT] = counts
    return table, facts


def model_path(level: int) -> Path:
    """Where the package's model of ``level`` lives."""
    return MODELS / f"level-{level:02d}.npz"


@lru_cache(maxsize=None)
def load_table(level: int) -> np.ndarray:
    """The package's model of ``level`` (cached); none raises a one-line InputError saying how
    to make it."""
    path = model_path(level)
    if not path.is_file():
        raise InputError(f"level {level} has no learned model ({path.name}): make one with "
                         f"'numberup train --level {level} --out {path}'")
    table, _ = read_model(path, level)
    return table


def model_for(level, player) -> np.ndarray:
    """The table a player's scratch carries: the level's model if the player asks for the
    learned evaluation (``eval=learned``), or its base player does (``rollout:base=learned``),
    else none."""
    if "eval" in player.kind.params and player.param("eval") == "learned":
        return load_table(level.number)
    if player.kind.base is not None:
        return model_for(level, player.kind.base(player.params))
    return empty_table()
