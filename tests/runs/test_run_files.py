"""What a run writes: ``--out``'s games.parquet and summary.csv, row by row the logged games
(each replayed by tests/oracles/replay.py and scored by the reference), and ``--log`` files
replaced whole."""

from __future__ import annotations

import csv
import json
import math

import numpy as np

from oracles.cli_checks import invoke, run_isolated
from oracles.reference import ref_game_lines, ref_medal
from oracles.replay import replay


def _read_log(path) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


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


def test_log_to_an_existing_file_is_replaced_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.jsonl").write_text("old\n")
    code, out, err = run_isolated(["simulate", "--level", "14", "--games", "10", "--policy",
                                   "greedy", "--jobs", "1", "--no-progress", "--log",
                                   "games.jsonl", "--json"])
    assert code == 0, err
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 10 and "old" not in lines
