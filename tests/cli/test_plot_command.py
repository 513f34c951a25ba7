"""``numberup plot dist|medals|budget``: valid PNG and SVG files, drawn from the tables of run
directories (--from) or from games the command plays itself (and keeps under --out), their
data in JSON equal to the tables (what is drawn: tests/reports/test_plots.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from oracles.cli_checks import invoke
from oracles.tables import fake_budget

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MEDALS = ("bronze", "silver", "gold")


def assert_png(path):
    data = path.read_bytes()
    assert len(data) > 1000 and data.startswith(PNG_MAGIC), path


def assert_svg(path):
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), root.tag
    assert path.stat().st_size > 1000


def test_plot_budget_from_a_summary_table(tmp_path):
    path = tmp_path / "summary.csv"
    fake_budget().drop(columns=["se"]).assign(sd=9.0, p_bronze=1.0, p_silver=0.9).to_csv(
        path, index=False)
    data = json.loads(invoke(["plot", "budget", "--summary", str(path), "--json",
                              "-p", "rollout:n=50", "-p", "greedy"]))
    assert data["file"] == str(tmp_path / "budget-level14.png")
    assert_png(tmp_path / "budget-level14.png")
    assert [r["policy"] for r in data["data"]] == ["greedy", "rollout:n=50"]


def test_plot_dist_from_tables(runs, tmp_path):
    out = tmp_path / "d.png"
    data = json.loads(invoke(["plot", "dist", "--from", str(runs["greedy"]), "--from",
                              str(runs["random"]), "--level", "14", "--output", str(out),
                              "--json"]))
    assert_png(out)
    assert data["file"] == str(out) and data["format"] == "png" and data["level"] == 14
    games = pd.concat(pd.read_parquet(runs[p] / "games.parquet") for p in runs)
    for policy in ("greedy", "random"):
        scores = games.query(f"level == 14 and policy == '{policy}'")["score"].to_numpy()
        rows = [r for r in data["data"] if r["policy"] == policy]
        edges = [r["left"] for r in rows] + [rows[-1]["right"]]
        assert [r["count"] for r in rows] == np.histogram(scores, edges)[0].tolist()


def test_plot_svg_and_default_name(runs, tmp_path):
    out = tmp_path / "ecdf.svg"
    invoke(["plot", "dist", "--from", str(runs["greedy"]), "-l", "1", "--style", "ecdf",
            "--output", str(out)])
    assert_svg(out)
    stem = tmp_path / "medals"
    invoke(["plot", "medals", "--from", str(runs["greedy"]), "--format", "svg",
            "--output", str(stem)])
    assert_svg(tmp_path / "medals.svg")


def test_plot_medals_json_equals_summary(runs, tmp_path):
    data = json.loads(invoke(["plot", "medals", "--from", str(runs["greedy"]), "--from",
                              str(runs["random"]), "--style", "stacked", "--json",
                              "--output", str(tmp_path / "m.png")]))
    assert_png(tmp_path / "m.png")
    summary = pd.concat(pd.read_csv(runs[p] / "summary.csv") for p in runs)
    summary = summary.set_index(["level", "policy"])
    assert len(data["data"]) == len(summary)
    for r in data["data"]:
        for m in MEDALS:
            assert r[f"p_{m}"] == pytest.approx(summary.loc[(r["level"], r["policy"]), f"p_{m}"])


def test_plot_plays_the_games_and_writes_the_tables(tmp_path):
    out = tmp_path / "run"
    data = json.loads(invoke(["plot", "dist", "--level", "1", "-p", "greedy", "-p", "random",
                              "--games", "50", "--seed", "7", "--out", str(out), "--json",
                              "--no-progress"]))
    assert sorted(p.name for p in out.iterdir()) == [".lock", "dist-level1.png", "games.parquet",
                                                     "manifest.json", "parts", "summary.csv"]
    assert_png(out / "dist-level1.png")
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 100
    for policy in ("greedy", "random"):
        scores = games.loc[games["policy"] == policy, "score"].to_numpy()
        rows = [r for r in data["data"] if r["policy"] == policy]
        edges = [r["left"] for r in rows] + [rows[-1]["right"]]
        assert [r["count"] for r in rows] == np.histogram(scores, edges)[0].tolist()
    # the same seed read back gives the same plot data
    again = json.loads(invoke(["plot", "dist", "--from", str(out), "--json",
                               "--output", str(tmp_path / "again.png")]))
    assert again["data"] == data["data"]


def test_plot_medals_and_budget_play(tmp_path):
    invoke(["plot", "medals", "--level", "1-2", "-p", "greedy", "--games", "30",
            "--no-progress", "--output", str(tmp_path / "m.png")])
    assert_png(tmp_path / "m.png")
    data = json.loads(invoke(["plot", "budget", "--level", "2", "-p", "greedy", "-p", "random",
                              "--games", "30", "--no-progress", "--json",
                              "--output", str(tmp_path / "b.svg")]))
    assert_svg(tmp_path / "b.svg")
    assert sorted(r["policy"] for r in data["data"]) == ["greedy", "random"]
    assert all(r["seconds_per_game"] > 0 for r in data["data"])


def test_plot_help():
    for args in (["plot", "--help"], ["plot", "dist", "--help"], ["plot", "medals", "--help"],
                 ["plot", "budget", "--help"], ["campaign", "--help"]):
        assert invoke(args).startswith("Usage: ")
