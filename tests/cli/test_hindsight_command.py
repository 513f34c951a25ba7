"""``numberup hindsight``: the foresight optimum per level in JSON and as text, its found games
logged (each replayed by tests/oracles/replay.py), and the tables under --out."""

from __future__ import annotations

import json

import numpy as np
import pytest

from oracles.cli_checks import invoke
from oracles.replay import replay


def test_command_json_log_and_out(tmp_path):
    log = tmp_path / "found.jsonl"
    out = invoke(["hindsight", "--level", "5,19", "--games", "2", "--seed", "4", "--width", "6",
                  "--jobs", "1", "--json", "--log", str(log), "--out", str(tmp_path / "o")])
    rows = json.loads(out)
    assert [r["level"] for r in rows] == [5, 19]
    records = [json.loads(x) for x in open(log)]
    assert [(r["level"], r["game"]) for r in records] == [(5, 0), (5, 1), (19, 0), (19, 1)]
    for r in records:
        replay(r)
    for row in rows:
        mine = [r["score"] for r in records if r["level"] == row["level"]]
        assert row["mean"] == pytest.approx(np.mean(mine))
        assert row["bound_proven"] and row["bound_mean"] >= row["mean"]
    assert (tmp_path / "o" / "summary.csv").exists() and (tmp_path / "o" / "deals.csv").exists()
    text = invoke(["hindsight", "--level", "7", "--games", "2", "--width", "4", "--jobs", "1"])
    assert "reachable on at least" in text
