"""Run directories (``--out DIR``): chunks kept as parts and ``merge`` of a split run (``--resume``
after an interruption or a hard kill: tests/runs/test_interruption.py). "Equal" means: the same
games.parquet rows in game order, and summary.csv the same in every column but the three that
time the invocation."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from numberup.runs.rundir import RunDir, gaps

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
