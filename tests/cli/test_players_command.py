"""``numberup players``: the registry's specs and parameters, and the measured figures of a
summary table."""

from __future__ import annotations

import csv
import json
import statistics

import pytest

from oracles.cli_checks import invoke
from numberup.analysis.catalog import NEEDED, SUMMARY
from numberup.players.registry import PLAYERS


def _write_summary(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(NEEDED) + ["seed"])
        w.writeheader()
        for r in rows:
            w.writerow({**r, "seed": 1})


ROWS = [
    {"level": 3, "policy": "greedy", "games": 100, "mean": 50.0, "p_bronze": 0.9, "p_silver": 0.5,
     "p_gold": 0.2, "seconds_per_game": 1e-5},
    {"level": 8, "policy": "greedy", "games": 80, "mean": 20.0, "p_bronze": 0.3, "p_silver": 0.1,
     "p_gold": 0.0, "seconds_per_game": 3e-5},
    {"level": 9, "policy": "greedy", "games": 90, "mean": 70.0, "p_bronze": 0.6, "p_silver": 0.3,
     "p_gold": 0.1, "seconds_per_game": 2e-5},
    {"level": 3, "policy": "rollout:n=50", "games": 10, "mean": 60.0, "p_bronze": 1.0,
     "p_silver": 0.9, "p_gold": 0.5, "seconds_per_game": 0.01},
]


def test_json_lists_every_registered_player_and_parameter():
    info = json.loads(invoke(["players", "--json"]))
    assert [p["name"] for p in info] == list(PLAYERS)
    for p in info:
        kind = PLAYERS[p["name"]]
        assert p["help"] == kind.help
        assert [q["name"] for q in p["params"]] == list(kind.params)
        for q in p["params"]:
            par = kind.params[q["name"]]
            assert (q["default"], q["minimum"], q["maximum"]) == (par.default, par.minimum,
                                                                   par.maximum)
            assert (q["choices"] or []) == list(par.choices)


def test_text_names_every_player_parameter_and_default():
    out = invoke(["players"])
    for name, kind in PLAYERS.items():
        assert name in out
        for key, par in kind.params.items():
            assert key in out and str(par.default) in out


def test_measured_figures_come_from_the_summary(tmp_path):
    _write_summary(tmp_path / "summary.csv", ROWS)
    info = json.loads(invoke(["players", "greedy", "--summary", str(tmp_path / "summary.csv"),
                              "--json"]))
    assert [p["name"] for p in info] == ["greedy"]
    (m,) = info[0]["measured"]
    greedy = [r for r in ROWS if r["policy"] == "greedy"]
    assert m["spec"] == "greedy" and m["levels"] == [3, 8, 9]
    assert m["games"] == min(r["games"] for r in greedy)
    assert m["seconds_per_game"] == pytest.approx(statistics.median(r["seconds_per_game"]
                                                                    for r in greedy))
    assert m["p_gold"] == pytest.approx(statistics.fmean(r["p_gold"] for r in greedy))
    assert m["mean"] is None  # means of different levels are not averaged

    info = json.loads(invoke(["players", "rollout", "--level", "3", "--summary",
                              str(tmp_path / "summary.csv"), "--json"]))
    (m,) = info[0]["measured"]
    assert (m["spec"], m["levels"], m["mean"], m["p_gold"]) == ("rollout:n=50", [3], 60.0, 0.5)
    info = json.loads(invoke(["players", "rollout", "--level", "8", "--summary",
                              str(tmp_path / "summary.csv"), "--json"]))
    assert info[0]["measured"] == []


def test_committed_results_measure_every_player():
    with open(SUMMARY) as f:
        specs = {r["policy"] for r in csv.DictReader(f)}
    info = json.loads(invoke(["players", "--json"]))
    for p in info:
        expected = sorted(s for s in specs if s.partition(":")[0] == p["name"])
        assert sorted(m["spec"] for m in p["measured"]) == expected


def test_simulate_help_points_to_players():
    assert "numberup players" in " ".join(invoke(["simulate", "--help"]).split())
    assert "players" in invoke(["--help"])
