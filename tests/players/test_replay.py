"""Searchers play legal games on every level: their logs replay under the independent checker
(tests/oracles/replay.py), with the logged scores equal to the reference scorer's."""

import json

import pytest

from oracles.replay import replay

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.sinks import GameLog
from numberup.runs.simulate import run

SEARCHERS = ["expectimax", "expectimax:depth=2,sample=3,k=8", "rollout:n=20",
             "expectimax:endgame=3", "rollout:n=20,endgame=3"]


@pytest.mark.parametrize("spec", SEARCHERS)
@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_searcher_games_replay(level, spec, tmp_path):
    path = tmp_path / "games.jsonl"
    log = GameLog(path)
    result = run(get_level(level), parse_player(spec), 2, seed=11, jobs=1, sinks=[log])
    log.close()
    records = [json.loads(line) for line in open(path)]
    assert [r["game"] for r in records] == [0, 1]
    for r in records:
        replay(r)
    assert [r["score"] for r in records] == result.all_scores.tolist()
