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


def test_the_lp_bound_tightens_the_proven_bound(tmp_path):
    """--lp-passes bounds each deal by the rows-and-columns LP too: never below the game found,
    never above the cheap bounds, on level 16 much below them; a pass limit, so the same
    bound whatever --jobs."""
    import pandas as pd

    args = ["hindsight", "--level", "16", "--games", "2", "--seed", "2026", "--no-warm",
            "--width", "4"]
    invoke(args + ["--out", str(tmp_path / "cheap")])
    invoke(args + ["--lp-passes", "40", "--jobs", "1", "--out", str(tmp_path / "lp1")])
    invoke(args + ["--lp-passes", "40", "--jobs", "2", "--out", str(tmp_path / "lp2")])
    cheap, lp1, lp2 = (pd.read_csv(tmp_path / d / "deals.csv") for d in ("cheap", "lp1", "lp2"))
    assert lp1.bound.tolist() == lp2.bound.tolist()
    assert (lp1.bound >= lp1.found).all() and (lp1.bound <= cheap.bound).all()
    assert (lp1.bound < 0.6 * cheap.bound).all()


def test_the_layout_plays_better_games(tmp_path):
    """--layout (levels 6-10): the deal's best layout played in its order; its games replay,
    the report and the tables say so, and a level without layouts ignores it."""
    import pandas as pd

    log = tmp_path / "found.jsonl"
    args = ["hindsight", "--level", "8,11", "--games", "2", "--seed", "2026", "--no-warm",
            "--no-pilot", "--width", "4", "--jobs", "1", "--layout", "1"]
    rows = json.loads(invoke(args + ["--json", "--log", str(log), "--out", str(tmp_path / "o")]))
    for r in (json.loads(x) for x in open(log)):
        replay(r)
    eight, eleven = rows
    assert eight["layout_deals"] == 2 and eight["found_by_layout"] > 0
    for d in eight["deals"]:  # per deal, as deals.csv
        assert {"game", "found", "found_by", "bound", "bound_proven", "optimal"} <= set(d)
        assert d["optimal"] == (d["found"] >= d["bound"]) and d["bound_proven"]
    assert eleven["deals"][0]["layout"] is None and len(eleven["deals"]) == 2
    assert eight["mean"] > eight["search_mean"] and "layout_deals" not in eleven
    deals = pd.read_csv(tmp_path / "o" / "deals.csv")
    assert "layout" in set(deals.found_by) and deals.layout.notna().sum() >= 1
    assert "layout on 2 deals" in invoke(args)
