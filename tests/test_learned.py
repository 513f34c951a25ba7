"""The learned evaluation: the calibration kernel against plain Python, training that improves
the evaluation on decks it never saw, deterministic model bytes, model files that round-trip
or fail in one line, and legal games by expectimax:eval=learned."""

import json
import os
import random
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import assert_one_line_error, run_main  # noqa: E402
from replay import replay  # noqa: E402

from numberup import learned as LE  # noqa: E402
from numberup import levels as L  # noqa: E402
from numberup.cards import InputError  # noqa: E402
from numberup.engine import DIST_LO, EVAL_WIDTH, N_STATS  # noqa: E402
from numberup.levels import get_level  # noqa: E402
from numberup.train import self_play, train_level  # noqa: E402

TINY = 60  # games per round of a tiny training run


@pytest.fixture(scope="module")
def tiny():
    """A tiny model of level 14 (one round), and one of level 3 (two rounds)."""
    return {14: train_level(14, TINY, seed=5, jobs=1, rounds=1),
            3: train_level(3, TINY, seed=5, jobs=1, rounds=2)}


def _calibrate_reference(p, lines, grid, filled, line_eval, table, li):
    """Plain Python of :func:`numberup.learned._calibrate_line`."""
    n = int(p[L.P_SIZE])
    n_empty = sum(grid[lines[li, i]] < 0 for i in range(n))
    out = list(line_eval[li])
    if n_empty == 0 or len(table) == 0:
        return out
    phase = min(filled * LE.PHASES // (n * n), LE.PHASES - 1)
    g = (phase * LE.MAX_SIZE + n_empty - 1) * LE.MEAN_BINS
    x = min(max((line_eval[li][0] - DIST_LO) * 2.0, 0.0), LE.MEAN_BINS - 1.0)
    b = min(int(x // 1), LE.MEAN_BINS - 2)
    f = x - b
    row = [(1 - f) * table[g + b][q] + f * table[g + b + 1][q] for q in range(EVAL_WIDTH + 1)]
    c = row[LE.COUNT]
    if c <= 0:
        return out
    w = LE.SHARE * c / (c + LE.PRIOR)
    m = out[0]
    mean = w * row[0] + (1 - w) * m
    m2 = w * row[1] + (1 - w) * (out[1] + m * m)
    out[0], out[1] = mean, max(m2 - mean * mean, 0.0)
    width = EVAL_WIDTH if p[L.P_AGG] == L.AGG_MIN_X10 else N_STATS
    for q in range(2, width):
        out[q] = w * row[q] + (1 - w) * out[q]
    return out


@pytest.mark.parametrize("level", [3, 14])
def test_calibration_kernel_matches_python(level, tiny):
    from numberup.engine import I_FILLED, new_state
    from numberup.grid import geometry

    table = tiny[level][0]
    p = L.PARAMS[level]
    lv = get_level(level)
    geo = geometry(lv.size)
    rng = random.Random(level)
    S = new_state(lv.cells)
    checked = 0
    for _ in range(200):
        S.grid[:] = -1
        filled = rng.randrange(lv.cells)
        for c in rng.sample(range(lv.cells), filled):
            S.grid[c] = rng.randrange(48)
        S.ints[I_FILLED] = filled
        line_eval = np.array([[rng.uniform(DIST_LO - 2, 45), rng.uniform(0, 50)]
                              + [rng.random() for _ in range(EVAL_WIDTH - 2)]
                              for _ in range(14)])
        for li in range(int(p[L.P_NLINES])):
            want = _calibrate_reference(p, geo.lines, S.grid, filled, line_eval.tolist(), table, li)
            got = line_eval.copy()
            LE._calibrate_line(p, geo, S, got, table, li)  # called from Python: jit-compiled
            assert got[li] == pytest.approx(want, rel=1e-12, abs=1e-12)
            checked += want != list(line_eval[li])
    assert checked > 100  # the calibration did change most lines


def test_tiny_training_improves_the_evaluation_on_unseen_decks(tiny):
    """The model predicts what lines finally make better than the random completions do, on
    games of another seed than the training games."""
    table = tiny[14][0]
    rows, mean, contrib, _ = self_play(get_level(14), LE.empty_table(), seed=99, first=0, n=40)
    before = LE.prediction_error(LE.empty_table(), rows, contrib, mean)
    alone = LE.prediction_error(table, rows, contrib, mean, share=1.0)
    blended = LE.prediction_error(table, rows, contrib, mean)  # as played (LE.SHARE)
    assert alone < 0.8 * before, (before, alone)
    assert blended < 0.97 * before, (before, blended)


def test_training_is_deterministic_whatever_jobs(tmp_path):
    a, fa = train_level(14, 24, seed=3, jobs=1, rounds=1, chunk=7)
    b, fb = train_level(14, 24, seed=3, jobs=2, rounds=1, chunk=24)
    LE.save_model(tmp_path / "a.npz", a, 14, 3, 24, 64, 1)
    LE.save_model(tmp_path / "b.npz", b, 14, 3, 24, 64, 1)
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    c, _ = train_level(14, 24, seed=4, jobs=1, rounds=1)
    assert not np.array_equal(a, c)  # another seed, other games


def test_model_round_trips(tiny, tmp_path):
    table = tiny[3][0]
    LE.save_model(tmp_path / "m.npz", table, 3, 5, TINY, 64, 2)
    back, facts = LE.read_model(tmp_path / "m.npz", 3)
    assert facts == {"level": 3, "version": LE.FEATURE_VERSION, "seed": 5, "games": TINY,
                     "k": 64, "iterations": 2}
    assert np.allclose(back, table, rtol=1e-6, atol=1e-6)  # float32 on file
    assert (back[:, LE.COUNT] > 0).sum() == (table[:, LE.COUNT] > 0).sum()


def test_bad_model_files_fail_in_one_line(tiny, tmp_path):
    path = tmp_path / "m.npz"
    LE.save_model(path, tiny[14][0], 14, 5, TINY, 64, 1)
    with pytest.raises(InputError, match="is for level 14, not level 3"):
        LE.read_model(path, 3)
    damaged = tmp_path / "damaged.npz"
    data = path.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match="damaged"):
        LE.read_model(damaged, 14)
    with pytest.raises(InputError, match="does not exist"):
        LE.read_model(tmp_path / "none.npz", 14)
    with np.load(path) as z:
        arrays = dict(z)
    np.savez(tmp_path / "old.npz", **{**arrays, "version": np.int64(LE.FEATURE_VERSION + 1)})
    with pytest.raises(InputError, match="feature version"):
        LE.read_model(tmp_path / "old.npz", 14)
    np.savez(tmp_path / "rows.npz", **{**arrays, "rows": arrays["rows"] + LE.ROWS})
    with pytest.raises(InputError, match="damaged"):
        LE.read_model(tmp_path / "rows.npz", 14)


def test_a_level_without_a_model_says_how_to_make_one(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(LE, "MODELS", tmp_path)
    LE.load_table.cache_clear()
    try:
        code, out, err = run_main(["simulate", "--level", "5", "-n", "2",
                                   "-p", "expectimax:eval=learned"], capsys)
    finally:
        LE.load_table.cache_clear()
    assert_one_line_error(code, out, err, must_name=("level 5", "numberup train --level 5"))


def test_train_command_writes_a_model(tmp_path, capsys):
    path = tmp_path / "m.npz"
    code, out, err = _main(["train", "--level", "14", "-n", "8", "--rounds", "1", "--seed",
                            "2", "--out", str(path), "--json"], capsys)
    assert code == 0, err
    facts = json.loads(out)
    assert facts[0]["level"] == 14 and facts[0]["out"] == str(path)
    assert LE.read_model(path, 14)[1]["games"] == 8
    code, out, err = _main(["train", "--level", "3,4", "--out", str(path)], capsys)
    assert_one_line_error(code, out, err, must_name=("--out",))


def _main(argv, capsys):
    from numberup_cli.main import main

    try:
        main(argv)
    except SystemExit as exc:
        out, err = capsys.readouterr()
        return exc.code, out, err
    out, err = capsys.readouterr()
    return 0, out, err


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_learned_games_replay(level, tmp_path):
    """The shipped model of every level plays legal games (tests/replay.py)."""
    from numberup.players import parse_player
    from numberup.simulate import GameLog, run

    path = tmp_path / "games.jsonl"
    log = GameLog(path)
    result = run(get_level(level), parse_player("expectimax:eval=learned"), 2, seed=11, jobs=1,
                 sinks=[log])
    log.close()
    records = [json.loads(line) for line in open(path)]
    for r in records:
        replay(r)
    assert [r["score"] for r in records] == result.all_scores.tolist()
