"""``numberup simulate``: the log it writes (``--log``) replays game by game under the
independent checker (tests/oracles/replay.py), with the seeds of the game numbers, and the
summary it prints is that of the logged games."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from numberup.game.rng import game_seed
from oracles.cli_checks import invoke
from oracles.reference import LEVELS as REF_LEVELS
from oracles.replay import replay_log

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]
POLICIES = ["random", "greedy"]

CLI_GAMES = 30
CLI_SEED = 7


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_simulate_log_replays(level, policy, tmp_path):
    log = tmp_path / "games.jsonl"
    summary = json.loads(invoke([
        "simulate", "--level", str(level), "--policy", policy, "--games", str(CLI_GAMES),
        "--seed", str(CLI_SEED), "--log", str(log), "--json", "--no-progress",
    ]))
    assert isinstance(summary, list) and len(summary) == 1, summary
    summary = summary[0]

    records = replay_log(log, level)  # every rule, every game
    assert [r["game"] for r in records] == list(range(CLI_GAMES))
    assert {r["policy"] for r in records} == {policy}
    for r in records:
        assert r["seed"] == game_seed(CLI_SEED, r["game"]), f"game {r['game']}: seed {r['seed']}"

    scores = np.array([r["score"] for r in records], dtype=float)
    assert summary["level"] == level
    assert summary["policy"] == policy
    assert summary["games"] == CLI_GAMES
    assert summary["seed"] == CLI_SEED
    assert math.isclose(summary["mean"], scores.mean(), rel_tol=1e-12, abs_tol=1e-9), (
        f"summary mean {summary['mean']} != mean of the logged scores {scores.mean()}"
    )
    if not np.isnan(summary["sd"]):
        assert math.isclose(summary["sd"], scores.std(ddof=1), rel_tol=1e-9, abs_tol=1e-9)
    medals = REF_LEVELS[level].medals
    assert math.isclose(summary["p_lost"], float(np.mean(scores <= 0)))
    assert math.isclose(summary["p_bronze"], float(np.mean(scores >= medals[0])))
    assert math.isclose(summary["p_gold"], float(np.mean(scores >= medals[2])))
