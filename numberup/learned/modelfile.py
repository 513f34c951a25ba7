"""Model files of the learned evaluation (:mod:`numberup.learned.value`): writing and reading them
(a damaged or mismatched file is a one-line error, never a wrong answer), the package's models
in ``numberup/learned/models/``, and the weights a player's scratch carries (the model times the
player's scale)."""

from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..game import levels as L
from ..errors import InputError
from ..files import written_whole
from .value import FEATURE_VERSION, MAX_SCALE, model_size

MODELS = Path(__file__).resolve().parent / "models"


def empty_table() -> np.ndarray:
    """No model (players that do not read one carry this), read-only as every table is."""
    return read_only(np.zeros(0, np.float64))


def read_only(weights: np.ndarray) -> np.ndarray:
    """A read-only view of ``weights`` (float64), for ``Scratch.learned``. Every scratch
    carries its weights read-only, the package's models as much as the weights a training
    is changing (through another, writable, view), so the kernels that read a scratch are
    compiled once, not once more for writable weights."""
    view = np.asarray(weights, np.float64).view()
    view.setflags(write=False)
    return view


def save_model(path, weights: np.ndarray, level: int, seed: int, games: int,
               scale: float) -> None:
    """Write a model: the weights (float32), the scale it plays with and what made them.
    The same weights give the same bytes (the archive's timestamps are fixed)."""
    arrays = {
        "level": np.int64(level), "version": np.int64(FEATURE_VERSION), "seed": np.int64(seed),
        "games": np.int64(games), "scale": np.float64(scale),
        "weights": np.asarray(weights, np.float32),
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with written_whole(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue())


def read_model(path, level: int | None = None) -> tuple[np.ndarray, dict]:
    """(weights as float64, facts) of the model file ``path``; a damaged file, another feature
    version or (given ``level``) another level's model raises a one-line InputError."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            facts = {k: int(z[k]) for k in ("level", "version", "seed", "games")}
            if facts["version"] == FEATURE_VERSION:
                facts["scale"] = float(z["scale"])
            weights = z["weights"]
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
    lv = facts["level"]
    ok = (1 <= lv < len(L.PARAMS) and weights.dtype == np.float32
          and weights.shape == (model_size(lv),) and bool(np.all(np.isfinite(weights)))
          and 0.0 <= facts["scale"] <= MAX_SCALE)
    if not ok:
        raise InputError(f"model file {path} is damaged (its weights or scale do not fit "
                         f"feature version {FEATURE_VERSION} of level {lv})")
    return weights.astype(np.float64), facts


def model_path(level: int) -> Path:
    """Where the package's model of ``level`` lives."""
    return MODELS / f"level-{level:02d}.npz"


@lru_cache(maxsize=None)
def load_model(level: int) -> tuple[np.ndarray, dict]:
    """The package's model of ``level``: (weights, facts), cached, the weights read-only;
    none raises a one-line InputError saying how to make it."""
    path = model_path(level)
    if not path.is_file():
        raise InputError(f"level {level} has no learned model ({path.name}): make one with "
                         f"'numberup train --level {level} --out {path}'")
    weights, facts = read_model(path, level)
    weights.setflags(write=False)
    return weights, facts


@lru_cache(maxsize=None)
def load_table(level: int, scale: float | None = None) -> np.ndarray:
    """The weights a player of ``level`` plays with: the package's model times ``scale``
    (None: the model's own scale, chosen in training), cached and read-only."""
    weights, facts = load_model(level)
    table = weights * (facts["scale"] if scale is None else scale)
    table.setflags(write=False)
    return table


def clear_cache() -> None:
    """Forget the models read (after ``MODELS`` changed)."""
    load_model.cache_clear()
    load_table.cache_clear()


def uses_model(player) -> bool:
    """Whether ``player`` plays with the learned evaluation itself: the learned player, or
    expectimax with ``eval=learned`` (a rollout's base is found by :func:`model_for`)."""
    if player.kind.name == "learned":
        return True
    return "eval" in player.kind.params and player.param("eval") == "learned"


def model_for(level, player) -> np.ndarray:
    """The weights a player's scratch carries (``Scratch.learned``): the level's model (times
    the player's ``scale``, or the model's own) if the player plays with it
    (:func:`uses_model`), or its base player does, else none."""
    if uses_model(player):
        scale = player.param("scale") if "scale" in player.kind.params else -1.0
        return load_table(level.number, None if scale < 0 else float(scale))
    if player.kind.base is not None:
        return model_for(level, player.kind.base(player.params))
    return empty_table()
