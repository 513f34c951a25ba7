"""The learned evaluation: its kernels against plain Python (tests/oracles/learned_reference.py),
training that improves play on decks it never saw, deterministic model bytes, model files that
round-trip or fail in one line, and legal games by the learned player on every level."""

import json
import random

import numpy as np
import pytest

import oracles.learned_reference as REF
from oracles.cli_checks import assert_one_line_error, run_main
from oracles.replay import replay

from numberup.learned import features as F
from numberup.learned import value as LE
from numberup.game import levels as L
from numberup.learned import modelfile as MF
from numberup.errors import InputError
from numberup.game.levels import get_level
from numberup.training.train import evaluation_error, play_with, train_level

TINY = 1500  # games of a tiny training run (seconds)
JUDGE = 120  # games of seed 2026 (never trained on) to judge it by
TUNE = 10  # games per scale when a test's training chooses its scale


@pytest.fixture(scope="module")
def tiny():
    """Tiny models of level 16 and of level 3 (seed 5)."""
    return {level: train_level(level, TINY, seed=5, tune=TUNE)[0] for level in (16, 3)}


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_feature_and_value_kernels_match_python(level):
    from numberup.game.grid import geometry
    from numberup.players.scratch import new_scratch
    from numberup.game.state import I_FILLED, I_UNSEEN, new_state

    lv = get_level(level)
    p = L.PARAMS[level]
    geo = geometry(lv.size)
    rng = random.Random(level)
    weights = np.array([rng.uniform(-5, 5) for _ in range(LE.model_size(level))])
    S, X = new_state(lv.cells), new_scratch(lv)
    X = X._replace(learned=weights)
    out = np.zeros(F.MAX_FEATURES, np.int64)
    for _ in range(60):
        grid, filled, rest = REF.random_grid(lv, rng)
        S.grid[:] = grid
        S.ints[I_FILLED] = filled
        S.ints[I_UNSEEN] = len(rest)
        S.unseen[: len(rest)] = rest
        F._tally(S, X.values_left, X.colours_left, X.masks_left)
        bases = [rng.uniform(-15, 55) for _ in range(14)]
        X.line_eval[:, 0] = bases
        shares = [_random_shares(rng) for _ in range(14)]
        X.line_eval[:, 5:] = shares
        for li in range(int(p[L.P_NLINES])):
            m = F._line_features(p, geo.lines, S.grid, li, filled, X.values_left,
                                  X.colours_left, X.masks_left, bases[li], out)
            want = REF.line_features(p, [int(grid[c]) for c in geo.lines[li][: lv.size]],
                                     filled, rest, bases[li])
            assert list(out[:m]) == want
        got = LE._afterstate_value(p, geo, S, X, filled)
        want = REF.afterstate_value(lv, p, geo.lines[:, : lv.size], grid, filled, rest, bases,
                                    weights, shares)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("level", [1, 3, 8, 13, 14, 18, 19, 20])
def test_predicting_only_the_lines_a_move_touches_gives_the_same_value(level):
    """The learned player predicts every line once per card (_predict_lines) and, per move,
    only the lines through its cell (_value_after_placing): the value is exactly
    _afterstate_value's, and _unplace puts the lines' former state back."""
    from numberup.game.grid import geometry
    from numberup.players.scratch import new_scratch
    from numberup.game.state import I_FILLED, I_UNSEEN, new_state

    lv = get_level(level)
    p = L.PARAMS[level]
    geo = geometry(lv.size)
    rng = random.Random(level)
    weights = np.array([rng.uniform(-5, 5) for _ in range(LE.model_size(level))])
    S, X = new_state(lv.cells), new_scratch(lv)._replace(learned=weights)
    state = ("predicted", "rows", "shift", "at_least")
    for _ in range(40):
        grid, filled, rest = REF.random_grid(lv, rng)
        if filled == lv.cells or not rest:
            continue
        S.grid[:] = grid
        S.ints[I_FILLED] = filled
        S.ints[I_UNSEEN] = len(rest)
        S.unseen[: len(rest)] = rest
        F._tally(S, X.values_left, X.colours_left, X.masks_left)
        X.line_eval[:, 0] = [rng.uniform(-15, 55) for _ in range(14)]
        X.line_eval[:, 5:] = [_random_shares(rng) for _ in range(14)]
        card = rest[0]
        F._take(card, X.values_left, X.colours_left, X.masks_left, -1)
        LE._predict_lines(p, geo, S, X, filled + 1)
        before = {name: getattr(X, name).copy() for name in state}
        cell = rng.choice([c for c in range(lv.cells) if grid[c] < 0])
        S.grid[cell] = card
        for q in range(4):  # the move's lines get new random completions, as the player's do
            li = geo.cell_lines[cell, q]
            if 0 <= li < p[L.P_NLINES]:
                X.line_eval[li, 0] = rng.uniform(-15, 55)
                X.line_eval[li, 5:] = _random_shares(rng)
        got = LE._value_after_placing(p, geo, S, X, filled + 1, cell)
        after = {name: getattr(X, name).copy() for name in state}
        assert got == LE._afterstate_value(p, geo, S, X, filled + 1)
        for name in state:  # as _value_after_placing left them
            getattr(X, name)[:] = after[name]
        LE._unplace(p, geo, X, cell)
        for name in state:
            assert np.array_equal(getattr(X, name), before[name]), name
        S.grid[cell] = -1
        F._take(card, X.values_left, X.colours_left, X.masks_left, 1)


def _random_shares(rng):
    """A line's random-completion P(value >= t) for every t: falling with t, from 1 (every
    completion) to 0 (none), with values in between."""
    from numberup.evaluation.layout import EVAL_WIDTH

    width = EVAL_WIDTH - 5
    ones = rng.randrange(width)
    middle = sorted((rng.random() for _ in range(rng.randrange(width - ones + 1))), reverse=True)
    return [1.0] * ones + middle + [0.0] * (width - ones - len(middle))


@pytest.mark.parametrize("level", [3, 8, 14, 20])
def test_medal_kernel_matches_python(level):
    from numberup.learned.value import _medals
    from numberup.players.scratch import new_scratch

    lv = get_level(level)
    p = L.PARAMS[level]
    rng = random.Random(level)
    X = new_scratch(lv)._replace(
        learned=np.array([rng.uniform(-3, 3) for _ in range(LE.model_size(level))]))
    out = np.zeros(5)
    for _ in range(100):
        X.predicted[:] = [rng.uniform(-12, 45) for _ in range(14)]
        X.rows[:] = [rng.choice([-1, rng.randrange(F.PHASES * (lv.size + 1))]) for _ in range(14)]
        X.shift[:] = [rng.uniform(-3, 3) for _ in range(14)]
        for li in range(14):
            X.line_eval[li, :2] = rng.uniform(-12, 45), rng.choice([0.0, rng.uniform(0, 40)])
            X.line_eval[li, 5:] = _random_shares(rng)  # P(value >= t) falls with t
        value = rng.uniform(0, 200)
        _medals(p, X, value, out)
        want = REF.medals(p, X.predicted.tolist(), X.line_eval.tolist(), value, X.rows.tolist(),
                          X.shift.tolist(), X.learned)
        assert out.tolist() == pytest.approx(want, rel=1e-9, abs=1e-12)


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


def test_the_player_plays_with_the_scaled_model():
    """The learned player's scratch carries the package's model times the model's own scale,
    or times the scale its spec names; expectimax:eval=learned and rollout bases the model's."""
    from numberup.players.registry import parse_player
    from numberup.players.scratch import new_scratch

    lv = get_level(17)
    weights, facts = MF.load_model(17)
    assert 0.0 <= facts["scale"] <= 1.0
    for spec, scale in (("learned", facts["scale"]), ("learned:scale=0.25", 0.25),
                        ("learned:scale=0", 0.0), ("expectimax:eval=learned", facts["scale"])):
        assert np.array_equal(new_scratch(lv, parse_player(spec)).learned, weights * scale), spec
    base = new_scratch(lv, parse_player("rollout:base=learned")).base.X.learned
    assert np.array_equal(base, weights * facts["scale"])


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
        return _main(["train", "--level", "3,16", "-n", "40", "--seed", "3", "--jobs", str(jobs),
                      "--tune-games", str(TUNE), "--no-progress"], capsys)
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


@pytest.mark.parametrize("spec", ["learned", "expectimax:eval=learned"])
def test_a_level_without_a_model_says_how_to_make_one(spec, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(MF, "MODELS", tmp_path)
    MF.clear_cache()
    try:
        code, out, err = run_main(["simulate", "--level", "5", "-n", "2", "-p", spec], capsys)
    finally:
        MF.clear_cache()
    assert_one_line_error(code, out, err, must_name=("level 5", "numberup train --level 5"))


def test_train_command_writes_a_model(tmp_path, capsys):
    path = tmp_path / "m.npz"
    code, out, err = _main(["train", "--level", "14", "-n", "8", "--seed", "2", "--out",
                            str(path), "--tune-games", "4", "--json"], capsys)
    assert code == 0, err
    facts = json.loads(out)
    assert facts[0]["level"] == 14 and facts[0]["out"] == str(path)
    kept = MF.read_model(path, 14)[1]
    assert kept["games"] == 8 and kept["scale"] == facts[0]["scale"]
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
    """The shipped model of every level plays legal games (tests/oracles/replay.py), and
    expectimax:eval=learned plays the same games as the learned player one move deep."""
    from numberup.players.registry import parse_player
    from numberup.runs.sinks import GameLog
    from numberup.runs.simulate import run

    path = tmp_path / "games.jsonl"
    log = GameLog(path)
    result = run(get_level(level), parse_player("learned"), 2, seed=11, jobs=1, sinks=[log])
    log.close()
    records = [json.loads(line) for line in open(path)]
    for r in records:
        replay(r)
    assert [r["score"] for r in records] == result.all_scores.tolist()
    # expectimax:eval=learned plays the kernel one move deep, as learned:depth=1 does (the
    # learned player's default looks at the next card where that is cheap: value-count rules)
    from numberup.evaluation.exact import VALUES, family

    one_move = result if family(level) != VALUES else run(
        get_level(level), parse_player("learned:depth=1"), 2, seed=11, jobs=1)
    same = run(get_level(level), parse_player("expectimax:eval=learned"), 2, seed=11, jobs=1)
    assert same.all_scores.tolist() == one_move.all_scores.tolist()
