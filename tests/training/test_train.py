"""Training the learned evaluation (numberup.training.train): a tiny run improves the line
predictions and the play on decks it never saw, the scale chosen plays best on the tuning
decks, training is deterministic whatever the jobs, and its models round-trip through their
files or fail in one line."""

from __future__ import annotations

import numpy as np
import pytest

from numberup.errors import InputError
from numberup.learned import modelfile as MF
from numberup.learned import value as LE
from numberup.training.train import evaluation_error, play_with, train_level
from oracles.cli_checks import run_command


TINY = 1500  # games of a tiny training run (seconds)


JUDGE = 120  # games of seed 2026 (never trained on) to judge it by


TUNE = 10  # games per scale when a test's training chooses its scale


@pytest.fixture(scope="module")
def tiny():
    """Tiny models of level 16 and of level 3 (seed 5)."""
    return {level: train_level(level, TINY, seed=5, tune=TUNE)[0] for level in (16, 3)}


@pytest.mark.parametrize("level", [16, 3])
def test_tiny_training_improves_the_evaluation_on_unseen_decks(level, tiny):
    """After a few seconds' training the line predictions are closer to what the lines
    finally add than the random completions alone (no model), on decks of another seed."""
    untrained = evaluation_error(level, np.zeros(LE.model_size(level)), 2026, 0, JUDGE)
    trained = evaluation_error(level, tiny[level], 2026, 0, JUDGE)
    assert trained < 0.85 * untrained, (untrained, trained)  # measured: 80.7 -> 46.4, 5.0 -> 3.7


def test_tiny_training_improves_play_on_unseen_decks(tiny):
    """On level 16 the tiny model already plays better than no model (which is the random
    completions alone, with 16 completions a line), paired on the same decks."""
    untrained = play_with(16, np.zeros(LE.model_size(16)), 2026, 0, JUDGE)
    trained = play_with(16, tiny[16], 2026, 0, JUDGE)
    diff = trained - untrained
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() > 2 * se and diff.mean() > 2.0, (diff.mean(), se)  # measured: +5.8


def test_the_scale_chosen_plays_best_on_the_tuning_decks(tiny):
    """tune_scale keeps the scale of the highest mean (ties: the smaller), and each scale's
    mean is that of the learned player with the model's weights times it."""
    from numberup.training.train import SCALES, tune_scale

    scale, means = tune_scale(16, tiny[16], 5, TINY, 12)
    assert list(means) == list(SCALES)
    assert scale == min(s for s in SCALES if means[s] == max(means.values()))
    for s in (0.0, 0.5, 1.0):
        assert means[s] == play_with(16, tiny[16] * s, 5, TINY, 12).mean()
    assert means[0.0] != means[1.0]


def test_training_is_deterministic_whatever_jobs(tmp_path, capsys):
    paths = [tmp_path / f"{j}" for j in (1, 2)]
    for j, path in zip((1, 2), paths):
        code, _, err = _train_into(path, j, capsys)
        assert code == 0, err
    for name in ("level-03.npz", "level-16.npz"):
        assert (paths[0] / name).read_bytes() == (paths[1] / name).read_bytes()
    a, _ = train_level(16, 40, seed=3, tune=TUNE)
    c, _ = train_level(16, 40, seed=4, tune=TUNE)
    assert not np.array_equal(a, c)  # another seed, other games


def _train_into(folder, jobs, capsys):
    """``numberup train --level 3,16`` with the package's models folder at ``folder``."""
    old = MF.MODELS
    MF.MODELS = folder
    try:
        return run_command(["train", "--level", "3,16", "-n", "40", "--seed", "3", "--jobs",
                            str(jobs), "--tune-games", str(TUNE), "--no-progress"], capsys)
    finally:
        MF.MODELS = old


def test_model_round_trips(tiny, tmp_path):
    weights = tiny[3]
    MF.save_model(tmp_path / "m.npz", weights, 3, 5, TINY, 0.3)
    back, facts = MF.read_model(tmp_path / "m.npz", 3)
    assert facts == {"level": 3, "version": LE.FEATURE_VERSION, "seed": 5, "games": TINY,
                     "scale": 0.3}
    assert np.array_equal(back, weights)  # training hands out float32 values, as files keep
    assert np.count_nonzero(weights) > 1000


def test_bad_model_files_fail_in_one_line(tiny, tmp_path):
    path = tmp_path / "m.npz"
    MF.save_model(path, tiny[16], 16, 5, TINY, 0.5)
    with pytest.raises(InputError, match="is for level 16, not level 3"):
        MF.read_model(path, 3)
    damaged = tmp_path / "damaged.npz"
    data = path.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match="damaged"):
        MF.read_model(damaged, 16)
    with pytest.raises(InputError, match="does not exist"):
        MF.read_model(tmp_path / "none.npz", 16)
    with np.load(path) as z:
        arrays = dict(z)
    np.savez(tmp_path / "old.npz", **{**arrays, "version": np.int64(LE.FEATURE_VERSION + 1)})
    with pytest.raises(InputError, match="feature version"):
        MF.read_model(tmp_path / "old.npz", 16)
    np.savez(tmp_path / "short.npz", **{**arrays, "weights": arrays["weights"][:-1]})
    with pytest.raises(InputError, match="damaged"):
        MF.read_model(tmp_path / "short.npz", 16)
    bad = arrays["weights"].copy()
    bad[7] = np.nan
    np.savez(tmp_path / "nan.npz", **{**arrays, "weights": bad})
    with pytest.raises(InputError, match="damaged"):
        MF.read_model(tmp_path / "nan.npz", 16)
    np.savez(tmp_path / "scale.npz", **{**arrays, "scale": np.float64(-0.5)})
    with pytest.raises(InputError, match="damaged"):
        MF.read_model(tmp_path / "scale.npz", 16)
    del arrays["scale"]
    np.savez(tmp_path / "noscale.npz", **arrays)
    with pytest.raises(InputError, match="damaged"):
        MF.read_model(tmp_path / "noscale.npz", 16)
