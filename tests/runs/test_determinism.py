"""Contract tests of the game engine, the players and the runner, checked from the outside.

Every logged game is re-played by tests/oracles/replay.py, which knows the rules (RULES.md) but not
the engine: deck, draw order, setup, adjacency, discards, hand, end of game and score. Then the
runner's promises: per-game results independent of threads, chunks and ``first``; the same
deck for every player; greedy beats random; pinned seeding; whole files under --out, even
when a run is interrupted or fails.
"""

from __future__ import annotations

import csv
import json
import math
import signal
from pathlib import Path

import numpy as np
import pytest

from oracles.reference import LEVELS as REF_LEVELS, ref_game_lines, ref_medal
from oracles.replay import replay, replay_log

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.game.rng import game_seed
from numberup.runs.sinks import GameLog, GameTable, game_records
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run
from oracles.cli_checks import invoke

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]
POLICIES = ["random", "greedy"]
# Levels that exercise every special: discards (3, 13), 6x6 setup (9, 12), hand (18), 6x6 hand (20).
SPECIAL_LEVELS = [3, 9, 13, 18, 20]

CLI_GAMES = 30
CLI_SEED = 7



def _read_log(path) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class Collect:
    """A sink keeping every batch's per-game arrays."""

    def __init__(self):
        self.batches = []

    def write(self, batch):
        self.batches.append(batch)

    def arrays(self) -> dict:
        out = {}
        for key in ("seeds", "scores", "lines", "decks", "moves"):
            out[key] = np.concatenate([getattr(b, key) for b in self.batches])
        out["games"] = np.concatenate(
            [np.arange(b.first, b.first + len(b.scores)) for b in self.batches]
        )
        return out


def _assert_same_games(a: dict, b: dict, what: str) -> None:
    for key in ("games", "seeds", "scores", "lines", "decks", "moves"):
        assert a[key].shape == b[key].shape, f"{what}: {key} shapes {a[key].shape} != {b[key].shape}"
        diff = np.argwhere(a[key] != b[key])
        assert len(diff) == 0, f"{what}: {key} differ first at index {tuple(diff[0])}"


def _tmp_files(directory: Path) -> list[str]:
    return sorted(p.name for p in Path(directory).iterdir() if p.name.endswith(".tmp"))


# -------------------------------------------------------------------------------------------
# Every logged game of every level and player obeys the rules.


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_simulate_log_replays(level, policy, tmp_path):
    log = tmp_path / "games.jsonl"
    summary = json.loads(invoke([
        "simulate", "--level", str(level), "--policy", policy, "--games", str(CLI_GAMES),
        "--seed", str(CLI_SEED), "--log", str(log), "--json", "--no-progress",
    ]))
    assert isinstance(summary, list) and len(summary) == 1, summary
    summary = summary[0]

    records = replay_log(log, level)  # every rule, every game
    assert [r["game"] for r in records] == list(range(CLI_GAMES))
    assert {r["policy"] for r in records} == {policy}
    for r in records:
        assert r["seed"] == game_seed(CLI_SEED, r["game"]), f"game {r['game']}: seed {r['seed']}"

    scores = np.array([r["score"] for r in records], dtype=float)
    assert summary["level"] == level
    assert summary["policy"] == policy
    assert summary["games"] == CLI_GAMES
    assert summary["seed"] == CLI_SEED
    assert math.isclose(summary["mean"], scores.mean(), rel_tol=1e-12, abs_tol=1e-9), (
        f"summary mean {summary['mean']} != mean of the logged scores {scores.mean()}"
    )
    if not np.isnan(summary["sd"]):
        assert math.isclose(summary["sd"], scores.std(ddof=1), rel_tol=1e-9, abs_tol=1e-9)
    medals = REF_LEVELS[level].medals
    assert math.isclose(summary["p_lost"], float(np.mean(scores <= 0)))
    assert math.isclose(summary["p_bronze"], float(np.mean(scores >= medals[0])))
    assert math.isclose(summary["p_gold"], float(np.mean(scores >= medals[2])))


# -------------------------------------------------------------------------------------------
# The replay checker itself catches violations (so a green run above means something).


@pytest.fixture(scope="module")
def logged_games():
    """One real logged game per special level (random player: it discards sometimes)."""
    out = {}
    for level in (1, 3, 9, 18, 20):
        batch = play_batch(get_level(level), parse_player("random"), 5, 0, 40, 4)
        out[level] = list(game_records(batch))
    return out


def _copy(record):
    return json.loads(json.dumps(record))


def _first_with_discard(records):
    for r in records:
        if any(m.get("discard") for m in r["moves"]):
            return r
    pytest.fail("no game with a discard among the random player's games")


@pytest.mark.parametrize(
    "level, mutate, message",
    [
        (1, lambda r: r["deck"].pop(), "deck has"),
        (1, lambda r: r["deck"].__setitem__(1, r["deck"][0]), "repeats"),
        (1, lambda r: r["deck"].__setitem__(0, "6r"), "not in level 1's deck"),
        (1, lambda r: r.__setitem__("score", r["score"] + 1), "logged score"),
        (1, lambda r: r["moves"].pop(), "cells filled"),
        (1, lambda r: r["moves"].__setitem__(0, {"card": r["moves"][0]["card"], "cell": [0, 0]}),
         "not on a centre cell"),
        (1, lambda r: r["moves"].__setitem__(1, dict(r["moves"][2])), "next card of the deck"),
        (1, lambda r: r["moves"].append({"card": r["deck"][-1], "cell": [0, 0]}), "already full"),
        (9, lambda r: r["moves"].__setitem__(1, {"card": r["moves"][1]["card"], "cell": [1, 2]}),
         "centre cell"),
        (18, lambda r: r["moves"].__setitem__(1, {"card": r["deck"][-1], "cell": r["moves"][1]["cell"]}),
         "not in the hand"),
        (20, lambda r: r["moves"].__setitem__(4, {"card": r["moves"][4]["card"], "discard": True}),
         "has no discards"),
    ],
    ids=["short-deck", "duplicate-deck-card", "foreign-card", "wrong-score", "unfinished",
         "setup-off-centre", "out-of-order", "move-after-full", "6x6-setup-off-centre",
         "hand-card-not-held", "discard-not-allowed"],
)
def test_replay_catches(logged_games, level, mutate, message):
    record = _copy(logged_games[level][0])
    replay(record, level)  # the real game passes
    mutate(record)
    with pytest.raises(AssertionError, match=message):
        replay(record, level)


def test_replay_catches_move_without_neighbour(logged_games):
    record = _copy(logged_games[1][0])
    # move 1 is the first placement after setup: put it in a corner, far from the centre
    record["moves"][1]["cell"] = [0, 0]
    with pytest.raises(AssertionError, match="no orthogonal neighbour"):
        replay(record, 1)


def test_replay_catches_bad_discards(logged_games):
    record = _copy(_first_with_discard(logged_games[3]))
    replay(record, 3)
    # a discard during setup
    bad = _copy(record)
    bad["moves"][0] = {"card": bad["moves"][0]["card"], "discard": True}
    with pytest.raises(AssertionError, match="during setup"):
        replay(bad, 3)
    # three discards right after setup
    bad = _copy(record)
    bad["moves"] = bad["moves"][:1] + [
        {"card": m["card"], "discard": True} for m in bad["moves"][1:4]
    ]
    with pytest.raises(AssertionError, match="allows 2"):
        replay(bad, 3)


# -------------------------------------------------------------------------------------------
# Per-game results do not depend on threads, chunks or where the run starts.


def _run(level, spec, games, seed, **kw) -> dict:
    sink = Collect()
    result = run(level, parse_player(spec), games, seed, sinks=[sink], **kw)
    assert not result.interrupted
    assert result.games == games
    arrays = sink.arrays()
    assert np.array_equal(result.all_scores, arrays["scores"])
    return arrays


@pytest.mark.parametrize("spec", POLICIES)
@pytest.mark.parametrize("level", SPECIAL_LEVELS, ids=[f"level-{n}" for n in SPECIAL_LEVELS])
def test_results_independent_of_jobs_and_chunks(level, spec):
    games, seed = 60, 11
    base = _run(level, spec, games, seed, jobs=1, chunk=1000)
    assert np.array_equal(base["games"], np.arange(games))
    _assert_same_games(base, _run(level, spec, games, seed, jobs=2, chunk=1000), "jobs=2")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=2, chunk=7), "chunk=7")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=1, chunk=1), "chunk=1")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=None), "adaptive chunks")
    # play_batch directly, with any number of parallel blocks
    for blocks in (1, 3, 64):
        b = play_batch(get_level(level), parse_player(spec), seed, 0, games, blocks)
        assert np.array_equal(b.scores, base["scores"]), f"blocks={blocks}"
        assert np.array_equal(b.moves, base["moves"]), f"blocks={blocks}"


@pytest.mark.parametrize("spec", POLICIES)
@pytest.mark.parametrize("level", SPECIAL_LEVELS, ids=[f"level-{n}" for n in SPECIAL_LEVELS])
def test_first_offset(level, spec):
    whole = _run(level, spec, 20, 5, jobs=2, chunk=6)
    tail = _run(level, spec, 10, 5, jobs=1, chunk=4, first=10)
    assert np.array_equal(tail["games"], np.arange(10, 20))
    head = {k: v[10:] for k, v in whole.items()}
    _assert_same_games(head, tail, "games 10..19 vs first=10")


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_same_deck_for_every_player(level):
    lv = get_level(level)
    a = play_batch(lv, parse_player("random"), 3, 100, 25, 4)
    b = play_batch(lv, parse_player("greedy"), 3, 100, 25, 4)
    assert np.array_equal(a.seeds, b.seeds)
    assert np.array_equal(a.decks, b.decks), "random and greedy got different decks"
    # the decks are shuffled, and differ from game to game
    assert len({bytes(d) for d in a.decks}) == len(a.decks)
    assert not np.array_equal(a.decks[0], np.sort(a.decks[0]))


# -------------------------------------------------------------------------------------------
# Greedy beats random, paired on the same decks.

PAIRED_GAMES = 300


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_greedy_beats_random(level):
    lv = get_level(level)
    rnd = play_batch(lv, parse_player("random"), 2024, 0, PAIRED_GAMES, 8)
    grd = play_batch(lv, parse_player("greedy"), 2024, 0, PAIRED_GAMES, 8)
    assert np.array_equal(rnd.decks, grd.decks)
    diff = grd.scores.astype(float) - rnd.scores.astype(float)
    mean = diff.mean()
    se = diff.std(ddof=1) / math.sqrt(len(diff))
    lo = mean - 1.96 * se
    assert mean > 0 and lo > 0, (
        f"level {level}: greedy - random = {mean:.2f} (95% interval {lo:.2f} .. "
        f"{mean + 1.96 * se:.2f}) over {len(diff)} paired games; greedy mean "
        f"{grd.scores.mean():.1f}, random mean {rnd.scores.mean():.1f}"
    )


# -------------------------------------------------------------------------------------------
# Seeding


def test_game_seed_pinned():
    # pinned: a change to the seeding changes every published result
    assert game_seed(0, 0) == 11736287521897286111
    assert game_seed(0, 1) == 10874952478317988202
    assert game_seed(7, 0) == 2522958211821140835
    assert game_seed(1, 0) != game_seed(0, 0)


def test_game_seeds_differ():
    for master in (0, 1, 7, 2**64 - 1):
        seeds = [game_seed(master, g) for g in range(2000)]
        assert len(set(seeds)) == len(seeds), f"master {master}: repeated game seeds"
    assert len({game_seed(m, 0) for m in range(2000)}) == 2000


def test_seed_zero_still_shuffles():
    b = play_batch(get_level(1), parse_player("random"), 0, 0, 2, 1)
    assert int(b.seeds[0]) == game_seed(0, 0) != 0
    assert not np.array_equal(b.decks[0], np.sort(b.decks[0]))
    assert not np.array_equal(b.decks[0], b.decks[1])


# -------------------------------------------------------------------------------------------
# --out: games.parquet and summary.csv, whole files only.

PARQUET_COLUMNS = ["level", "policy", "game", "seed", "score", "medal", "lines"]


def test_out_dir_files(tmp_path):
    import pyarrow.parquet as pq

    out, log = tmp_path / "run", tmp_path / "games.jsonl"
    stdout = invoke([
        "simulate", "--level", "3,18", "--policy", "random", "--games", "25", "--seed", "9", "--chunk", "6",
        "--out", str(out), "--log", str(log), "--json", "--no-progress",
    ])
    assert sorted(p.name for p in out.iterdir()) == [".lock", "games.parquet", "manifest.json",
                                                     "parts", "summary.csv"]
    records = _read_log(log)
    table = pq.read_table(out / "games.parquet")
    assert table.column_names == PARQUET_COLUMNS
    rows = table.to_pylist()
    assert len(rows) == len(records) == 50
    for row, rec in zip(rows, records):
        grid = replay(rec)
        key = f"level {rec['level']} game {rec['game']}"
        assert (row["level"], row["policy"], row["game"], row["seed"]) == (
            rec["level"], rec["policy"], rec["game"], rec["seed"]), key
        assert row["score"] == rec["score"], key
        assert row["medal"] == ref_medal(rec["level"], rec["score"]), key
        assert row["lines"] == [v for *_, v in ref_game_lines(rec["level"], grid)], key

    with open(out / "summary.csv", newline="") as f:
        summary = list(csv.DictReader(f))
    printed = json.loads(stdout)
    assert [(int(s["level"]), s["policy"], int(s["games"])) for s in summary] == [
        (3, "random", 25), (18, "random", 25)]
    for s, p in zip(summary, printed):
        level = int(s["level"])
        scores = [r["score"] for r in records if r["level"] == level]
        assert math.isclose(float(s["mean"]), np.mean(scores))
        assert math.isclose(p["mean"], np.mean(scores))


def test_interrupted_run_keeps_whole_files(tmp_path):
    """simulate.run with a stop that fires after the first chunk; the sinks close cleanly."""
    import pyarrow.parquet as pq

    table = GameTable(tmp_path / "games.parquet")
    game_log = GameLog(tmp_path / "games.jsonl")
    result = run(13, parse_player("greedy"), 100, 4, jobs=2, chunk=8,
                 sinks=[table, game_log], stop=lambda: True)
    game_log.close()
    table.close()
    assert result.interrupted
    assert result.games == 8
    t = pq.read_table(tmp_path / "games.parquet")
    assert t.column_names == PARQUET_COLUMNS
    assert t.column("game").to_pylist() == list(range(8))
    records = replay_log(tmp_path / "games.jsonl", 13)
    assert t.column("score").to_pylist() == [r["score"] for r in records]
    assert _tmp_files(tmp_path) == []


def test_ctrl_c_keeps_finished_games(tmp_path, monkeypatch):
    """run_runs as simulate calls it; a Ctrl-C (SIGINT) arrives while the first chunk is kept."""
    import pyarrow.parquet as pq
    from numberup.runs.rundir import RunDir
    from numberup_cli.commands import run_runs

    write_part = RunDir.write_part

    def interrupting(self, *args, **kw):
        path = write_part(self, *args, **kw)
        signal.raise_signal(signal.SIGINT)  # the first Ctrl-C: stop after this chunk
        return path

    monkeypatch.setattr(RunDir, "write_part", interrupting)
    out = tmp_path / "run"
    out.mkdir()
    results, interrupted = run_runs([1, 2], [parse_player("random")], 50, 3, 1, 8, 0, out,
                                    tmp_path / "games.jsonl", False)
    assert interrupted
    assert [r.games for r in results] == [8]
    assert sorted(p.name for p in out.iterdir()) == [".lock", "games.parquet", "manifest.json",
                                                     "parts"]
    t = pq.read_table(out / "games.parquet")
    assert t.column("game").to_pylist() == list(range(8))
    assert t.column("level").to_pylist() == [1] * 8
    records = replay_log(tmp_path / "games.jsonl", 1)
    assert t.column("score").to_pylist() == [r["score"] for r in records]
    assert _tmp_files(out) == [] and _tmp_files(out / "parts") == [] and _tmp_files(tmp_path) == []


def test_failing_write_keeps_the_finished_chunks_only(tmp_path, monkeypatch):
    """A chunk that cannot be written stops the run: the chunks kept before stay (for
    --resume), no half-written file is left, and no table is built over the failure."""
    from numberup.runs.rundir import RunDir
    from numberup_cli.commands import run_runs

    write_part = RunDir.write_part
    writes = []

    def failing(self, *args, **kw):
        writes.append(1)
        if len(writes) == 2:
            raise OSError("disk full (simulated)")
        return write_part(self, *args, **kw)

    monkeypatch.setattr(RunDir, "write_part", failing)
    out = tmp_path / "run"
    out.mkdir()
    with pytest.raises(OSError, match="simulated"):
        run_runs([5], [parse_player("greedy")], 40, 3, 1, 8, 0, out, tmp_path / "games.jsonl",
                 False)
    assert len(writes) == 2
    assert sorted(p.name for p in (out / "parts").iterdir()) == [
        "L05-P0-000000000000-000000000007.parquet"]
    assert not (out / "games.parquet").exists() and not (tmp_path / "games.jsonl").exists()
    assert _tmp_files(out / "parts") == [] and _tmp_files(tmp_path) == []
