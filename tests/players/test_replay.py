"""Every registered player plays legal games on every level: the games it plays, logged as
``numberup simulate --log`` logs them, replay under the independent checker
(tests/oracles/replay.py), each with the logged score the reference scorer gives its final
grid, and the run's own scores. And the checker itself catches violations (so a green run
means something)."""

import json

import pytest

from oracles.replay import replay

from numberup.game.levels import get_level
from numberup.players.registry import PLAYERS, parse_player
from numberup.players.rollout import BASES
from numberup.runs.loop import play_batch
from numberup.runs.sinks import GameLog, game_records
from numberup.runs.simulate import run

LEVELS = range(1, 21)
# Each registered player's specs whose games are replayed, as (spec, games, seed): the
# searchers with the parameters that reach more of their code (depth 2 with a sample, the
# exact endgame's hook), rollouts of every base player (a few rollouts each; a searching base
# with few completions) and of the learned player's best actions only (top), and the learned
# player with each level's shipped model. A player added to the registry without specs here
# fails the test.
SPECS = {
    "random": [("random", 2, 11)],
    "greedy": [("greedy", 2, 11)],
    "expectimax": [("expectimax", 2, 11), ("expectimax:depth=2,sample=3,k=8", 2, 11),
                   ("expectimax:endgame=3", 2, 11)],
    "rollout": [("rollout:n=20", 2, 11), ("rollout:n=20,endgame=3", 2, 11),
                ("rollout:n=6,base=random", 1, 13), ("rollout:n=6,objective=gold", 1, 13),
                ("rollout:n=3,base=expectimax,bk=2", 1, 13),
                ("rollout:n=3,base=learned,bk=2,objective=gold", 1, 13),
                ("rollout:n=8,top=3", 1, 13)],
    "learned": [("learned", 2, 11), ("learned:depth=2,sample=4,objective=gold", 1, 13)],
    "best": [("best", 2, 11)],  # the level's setting at the default budget
}


# every registered player with each of its specs; a player without specs gets a case that fails
CASES = [(player, *case) for player in PLAYERS for case in SPECS.get(player, [(None, 0, 0)])]


@pytest.mark.parametrize("player, spec, games, seed", CASES,
                         ids=[spec or f"{player}-no-specs" for player, spec, _, _ in CASES])
@pytest.mark.parametrize("level", LEVELS, ids=[f"level-{n}" for n in LEVELS])
def test_games_replay(level, player, spec, games, seed, tmp_path):
    assert spec is not None, f"the registered player {player!r} has no games to replay in SPECS"
    if player == "rollout":  # rollouts of every base player
        assert {parse_player(s).param("base") for s, _, _ in SPECS[player]} >= set(BASES)
    path = tmp_path / "games.jsonl"
    log = GameLog(path)
    result = run(get_level(level), parse_player(spec), games, seed=seed, jobs=1, sinks=[log])
    log.close()
    records = [json.loads(line) for line in open(path)]
    assert [r["game"] for r in records] == list(range(games))
    for r in records:
        replay(r, level)  # every rule, and the logged score is the reference scorer's
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
