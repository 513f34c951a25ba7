"""Searchers play legal games on every level: their logs replay under the independent checker
(tests/oracles/replay.py), with the logged scores equal to the reference scorer's. And the
checker itself catches violations (so a green run means something)."""

import json

import pytest

from oracles.replay import replay

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.runs.sinks import GameLog, game_records
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


@pytest.fixture(scope="module")
def logged_games():
    """One real logged game per special level (random player: it discards sometimes)."""
    out = {}
    for level in (1, 3, 9, 18, 20):
        batch = play_batch(get_level(level), parse_player("random"), 5, 0, 40, 4)
        out[level] = list(game_records(batch))
    return out


def _copy(record):
    return json.loads(json.dumps(record))


def _first_with_discard(records):
    for r in records:
        if any(m.get("discard") for m in r["moves"]):
            return r
    pytest.fail("no game with a discard among the random player's games")


@pytest.mark.parametrize(
    "level, mutate, message",
    [
        (1, lambda r: r["deck"].pop(), "deck has"),
        (1, lambda r: r["deck"].__setitem__(1, r["deck"][0]), "repeats"),
        (1, lambda r: r["deck"].__setitem__(0, "6r"), "not in level 1's deck"),
        (1, lambda r: r.__setitem__("score", r["score"] + 1), "logged score"),
        (1, lambda r: r["moves"].pop(), "cells filled"),
        (1, lambda r: r["moves"].__setitem__(0, {"card": r["moves"][0]["card"], "cell": [0, 0]}),
         "not on a centre cell"),
        (1, lambda r: r["moves"].__setitem__(1, dict(r["moves"][2])), "next card of the deck"),
        (1, lambda r: r["moves"].append({"card": r["deck"][-1], "cell": [0, 0]}), "already full"),
        (9, lambda r: r["moves"].__setitem__(1, {"card": r["moves"][1]["card"], "cell": [1, 2]}),
         "centre cell"),
        (18, lambda r: r["moves"].__setitem__(1, {"card": r["deck"][-1], "cell": r["moves"][1]["cell"]}),
         "not in the hand"),
        (20, lambda r: r["moves"].__setitem__(4, {"card": r["moves"][4]["card"], "discard": True}),
         "has no discards"),
    ],
    ids=["short-deck", "duplicate-deck-card", "foreign-card", "wrong-score", "unfinished",
         "setup-off-centre", "out-of-order", "move-after-full", "6x6-setup-off-centre",
         "hand-card-not-held", "discard-not-allowed"],
)
def test_replay_catches(logged_games, level, mutate, message):
    record = _copy(logged_games[level][0])
    replay(record, level)  # the real game passes
    mutate(record)
    with pytest.raises(AssertionError, match=message):
        replay(record, level)


def test_replay_catches_move_without_neighbour(logged_games):
    record = _copy(logged_games[1][0])
    # move 1 is the first placement after setup: put it in a corner, far from the centre
    record["moves"][1]["cell"] = [0, 0]
    with pytest.raises(AssertionError, match="no orthogonal neighbour"):
        replay(record, 1)


def test_replay_catches_bad_discards(logged_games):
    record = _copy(_first_with_discard(logged_games[3]))
    replay(record, 3)
    # a discard during setup
    bad = _copy(record)
    bad["moves"][0] = {"card": bad["moves"][0]["card"], "discard": True}
    with pytest.raises(AssertionError, match="during setup"):
        replay(bad, 3)
    # three discards right after setup
    bad = _copy(record)
    bad["moves"] = bad["moves"][:1] + [
        {"card": m["card"], "discard": True} for m in bad["moves"][1:4]
    ]
    with pytest.raises(AssertionError, match="allows 2"):
        replay(bad, 3)
