"""``numberup compare``: players paired on the same decks (the difference to the first, wins,
ties and losses), and with --hindsight the foresight optimum of the same deals."""

from __future__ import annotations

import json

import pytest

from numberup.analysis import hindsight
from numberup.game.levels import get_level
from oracles.cli_checks import invoke


def test_compare_json():
    rows = json.loads(invoke(["compare", "--level", "1", "--policy", "random", "--policy",
                               "greedy", "--games", "200", "--json", "--no-progress"]))
    assert [r["policy"] for r in rows] == ["random", "greedy"]
    paired_keys = ("diff_mean", "diff_lo", "diff_hi", "wins", "ties", "losses")
    for r in rows:
        for key in ("level", "policy", "games", "seed", "mean", "sd", "p_gold", "p_gold_lo",
                    "p_gold_hi", "seconds", "vs") + paired_keys:
            assert key in r, key
        assert r["vs"] == "random" and r["games"] == 200
    assert all(rows[0][k] is None for k in paired_keys)
    g = rows[1]
    assert 0 < g["diff_lo"] <= g["diff_mean"] <= g["diff_hi"]
    assert g["diff_mean"] == pytest.approx(g["mean"] - rows[0]["mean"])
    assert g["wins"] + g["ties"] + g["losses"] == 200


def test_compare_with_hindsight_on_the_same_deals():
    rows = json.loads(invoke(["compare", "--level", "2", "-p", "greedy", "--games", "3", "--seed",
                              "8", "--jobs", "1", "--hindsight", "--json", "--no-progress"]))
    (row,) = rows
    found = hindsight.run_level(2, 8, 3).found
    assert row["hindsight_mean"] == pytest.approx(found.mean())
    assert row["share_of_hindsight"] == pytest.approx(row["mean"] / found.mean())
    assert row["gold_reachable"] == int((found >= get_level(2).medals[2]).sum())
