"""``numberup campaign``: it plays the games ``numberup simulate`` plays on the same seed, or
reads them (--from), and reports their odds level by level, chapter by chapter and for the
booklet (the arithmetic: tests/analysis/test_campaign.py)."""

from __future__ import annotations

import json
import math

import pytest

from numberup.analysis.campaign import chapter_odds
from oracles.cli_checks import invoke


@pytest.fixture(scope="module")
def greedy_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("greedy")
    invoke(["simulate", "--level", "all", "--policy", "greedy", "--games", "40", "--seed", "3",
            "--out", str(out), "--no-progress", "--json"])
    return out


def test_campaign_plays_the_same_games_as_simulate(greedy_dir, tmp_path):
    played = json.loads(invoke(["campaign", "--policy", "greedy", "--games", "40", "--seed", "3",
                                "--attempts", "2", "--json", "--no-progress",
                                "--out", str(tmp_path / "c")]))
    read = json.loads(invoke(["campaign", "--from", str(greedy_dir), "--attempts", "2",
                              "--json"]))
    assert played == read
    assert (tmp_path / "c" / "games.parquet").exists()
    assert played["policy"] == "greedy" and played["seed"] == 3 and played["games"] == 40
    assert set(played) >= {"policy", "games", "attempts", "levels", "chapters", "booklet"}
    import pandas as pd

    summary = pd.read_csv(greedy_dir / "summary.csv").set_index("level")
    for lv in played["levels"]:
        for m in ("bronze", "silver", "gold"):
            assert lv[f"p_{m}"] == pytest.approx(summary.loc[lv["level"], f"p_{m}"])
        p = lv["p_gold"]
        assert lv["expected_attempts_gold"] == (None if p == 0 else pytest.approx(1 / p))
    games = pd.read_parquet(greedy_dir / "games.parquet")
    for ch in played["chapters"]:
        samples = [games.loc[games["level"] == n, "score"].to_numpy() for n in ch["levels"]]
        want = chapter_odds(samples, tuple(ch["thresholds"].values()), 2)
        assert ch["p_gold"] == pytest.approx(want["p_gold"])
    for m in ("bronze", "silver", "gold"):
        assert played["booklet"][f"p_{m}"] == pytest.approx(
            math.prod(c[f"p_{m}"] for c in played["chapters"]))


def test_campaign_text(greedy_dir):
    out = invoke(["campaign", "--from", str(greedy_dir)])
    assert "COLOR-UP" in out and "STREET-UP" in out and "Booklet" in out
    assert "best of 3 attempts" in out
