"""The runner's promises: per-game results independent of threads, chunks and ``first``, and
the same deck for every player; whole files under --out, even when a run is interrupted or
fails."""

from __future__ import annotations

import signal
from pathlib import Path

import numpy as np
import pytest

from oracles.replay import replay_log

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.sinks import GameLog, GameTable
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]
POLICIES = ["random", "greedy"]
# Levels that exercise every special: discards (3, 13), 6x6 setup (9, 12), hand (18), 6x6 hand (20).
SPECIAL_LEVELS = [3, 9, 13, 18, 20]
PARQUET_COLUMNS = ["level", "policy", "game", "seed", "score", "medal", "lines"]


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
# --out: games.parquet and summary.csv, whole files only.


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
