"""Run directories (``--out DIR``): chunks kept as parts, ``--resume`` after an interruption or
a hard kill, and ``merge`` of a split run. "Equal" means: the same games.parquet rows in game
order, and summary.csv the same in every column but the three that time the invocation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from numberup.game.levels import get_level
from numberup.runs.rundir import Manifest, RunDir, gaps
from numberup.players.registry import parse_player
from numberup.runs.sinks import finish_run_dir
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run

from oracles.cli_checks import invoke

TIMING = ["seconds", "games_per_s", "seconds_per_game"]


def simulate(out, *extra, games=300, level="1,14", policy="greedy", seed=5):
    return json.loads(invoke(["simulate", "--level", level, "--policy", policy, "--games",
                              str(games), "--seed", str(seed), "--out", str(out), "--no-progress",
                              "--json", *extra]))


def assert_same_tables(a, b):
    pd.testing.assert_frame_equal(pd.read_parquet(a / "games.parquet"),
                                  pd.read_parquet(b / "games.parquet"))
    pd.testing.assert_frame_equal(pd.read_csv(a / "summary.csv").drop(columns=TIMING),
                                  pd.read_csv(b / "summary.csv").drop(columns=TIMING))


def part_stamps(d):
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (d / "parts").glob("*.parquet")}


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The uninterrupted run that the others must equal, with its log."""
    out = tmp_path_factory.mktemp("whole")
    simulate(out / "run", "--log", str(out / "log.jsonl"), "--chunk", "64")
    return out


def test_gaps():
    assert gaps([(0, 5), (8, 9)], 0, 12) == [(5, 8), (9, 12)]
    assert gaps([], 3, 7) == [(3, 7)] and gaps([(0, 10)], 0, 10) == []


def test_parts_cover_the_run_in_chunks(whole):
    d = RunDir.read(whole / "run")
    assert d.manifest.levels == [1, 14] and d.manifest.players == ["greedy"]
    for level in (1, 14):
        kept = d.kept(level, 0)
        assert len(kept) == 5 and kept[0][0] == 0 and kept[-1][1] == 300  # 64 games a chunk
        assert d.missing(level, 0) == []


def test_resume_after_an_interruption(whole, tmp_path):
    """Stopped after two chunks of level 1 (as Ctrl-C does), then --resume: the same tables
    and log, and the kept chunks are not played again."""
    out = tmp_path / "run"
    d = RunDir.create(out, Manifest(5, 0, 300, [1, 14], ["greedy"], moves=True))
    chunks = []
    r = run(1, parse_player("greedy"), 300, 5, jobs=1, chunk=50, run_dir=d,
            sinks=[type("S", (), {"write": lambda self, b: chunks.append(b)})()],
            stop=lambda: len(chunks) >= 2)
    finish_run_dir(d)
    d.close()
    assert r.interrupted and r.games == 100
    before = part_stamps(out)
    assert len(before) == 2
    code = subprocess_free_resume(out, tmp_path / "log.jsonl")
    assert code["kept"] == 100 and code["to_play"] == 500
    after = part_stamps(out)
    assert all(after[name] == stamp for name, stamp in before.items())
    assert_same_tables(whole / "run", out)
    assert (tmp_path / "log.jsonl").read_text() == (whole / "log.jsonl").read_text()


def subprocess_free_resume(out, log):
    """``simulate --resume`` in-process; returns the counts it announced on stderr."""
    from click.testing import CliRunner

    import numberup_cli.main  # noqa: F401  (every command on the group)

    from numberup_cli.group import cli

    res = CliRunner().invoke(cli, ["simulate", "--level", "1,14", "--policy", "greedy", "--games",
                                   "300", "--seed", "5", "--out", str(out), "--resume", "--log",
                                   str(log), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.stderr.splitlines() if x.startswith("resuming"))
    kept, to_play = _counts(line)
    return {"kept": kept, "to_play": to_play}


def _counts(line):
    """'resuming D: 1,234 games kept, 56 to play' -> (1234, 56)."""
    words = line.replace(",", "").split()
    return int(words[-6]), int(words[-3])


def test_kill_9_then_resume(tmp_path):
    """A hard kill of ``simulate --out`` keeps every finished chunk; --resume plays only the
    rest, and the table is the uninterrupted run's games."""
    out = tmp_path / "run"
    games = 40_000
    argv = [sys.executable, "-m", "numberup", "simulate", "--level", "1", "--policy", "greedy",
            "--games", str(games), "--seed", "9", "--chunk", "40", "--jobs", "1", "--out",
            str(out), "--no-progress"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(out.glob("parts/*.parquet"))) < 5:
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "games.parquet").exists()
    before = part_stamps(out)
    kept = sum(int(n.split("-")[3].split(".")[0]) - int(n.split("-")[2]) + 1 for n in before)
    assert 5 <= len(before) < games // 40
    res = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert _counts(next(x for x in res.stderr.splitlines() if x.startswith("resuming"))) == (
        kept, games - kept)
    after = part_stamps(out)
    assert all(after[name] == stamp for name, stamp in before.items())
    assert not list((out / "parts").glob(".*.tmp"))
    table = pd.read_parquet(out / "games.parquet")
    b = play_batch(get_level(1), parse_player("greedy"), 9, 0, games, 1)
    assert table["game"].tolist() == list(range(games))
    assert table["score"].tolist() == b.scores.tolist()
    assert table["seed"].tolist() == b.seeds.tolist()


# -------------------------------------------------------------------------------------------
# merge


@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    out = tmp_path_factory.mktemp("halves")
    simulate(out / "a", "--log", str(out / "a.jsonl"), games=120)
    simulate(out / "b", "--first", "120", "--log", str(out / "b.jsonl"), games=180)
    return out


def test_merge_of_split_runs_equals_one_run(whole, halves, tmp_path):
    rows = json.loads(invoke(["merge", str(halves / "a"), str(halves / "b"), "--out",
                              str(tmp_path / "m"), "--log", str(tmp_path / "m.jsonl"), "--json"]))
    assert [r["games"] for r in rows] == [300, 300]
    assert_same_tables(whole / "run", tmp_path / "m")
    assert (tmp_path / "m.jsonl").read_text() == (whole / "log.jsonl").read_text()
    m = RunDir.read(tmp_path / "m").manifest
    assert (m.first, m.games, m.seed) == (0, 300, 5)


def test_plots_read_a_split_run_as_one(whole, halves):
    from numberup.runs.tables import read_runs

    split, one = read_runs([halves / "b", halves / "a"]), read_runs([whole / "run"])
    key = ["level", "policy", "game"]
    pd.testing.assert_frame_equal(split.games.sort_values(key, ignore_index=True),
                                  one.games.sort_values(key, ignore_index=True))
    pd.testing.assert_frame_equal(
        split.summary.drop(columns=TIMING).sort_values("level", ignore_index=True),
        one.summary.drop(columns=TIMING).sort_values("level", ignore_index=True))


def test_merge_of_split_compare_runs_keeps_the_paired_columns(tmp_path):
    base = ["compare", "-l", "3", "-p", "greedy", "-p", "random", "-s", "2", "--no-progress",
            "--json"]
    invoke(base + ["-n", "100", "--out", str(tmp_path / "one")])
    invoke(base + ["-n", "40", "--out", str(tmp_path / "a")])
    invoke(base + ["-n", "60", "--first", "40", "--out", str(tmp_path / "b")])
    invoke(["merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "m")])
    assert_same_tables(tmp_path / "one", tmp_path / "m")
