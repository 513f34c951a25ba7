"""The warm start: a player's own game on a deal, replayed legally through the engine."""

import numpy as np
import pytest

from numberup.analysis.hindsight import Foresight
from numberup.analysis.warm import player_game
from numberup.game.cards import deal
from numberup.game.rng import game_seed
from oracles.replay import replay


@pytest.mark.parametrize("level", [4, 19])
def test_warm_game_is_the_players_game_on_the_same_deck_and_replays_legally(level):
    for game in range(2):
        score, deck, moves = player_game(level, 2026, game)
        assert np.array_equal(deck, deal(level, 2026, game))
        found = Foresight(level, game, game_seed(2026, game), score, None, False, deck, moves)
        replay(found.record(), level)  # legal, and its score is the one recorded


def test_found_is_the_better_of_search_and_warm_on_every_deal():
    """A narrow beam alone (no nested search) on level 19 (a hand of five) ends below the
    learned player's game on some deals: found is the warm game there, the search's own result is kept apart, and without a
    warm start found is the search's (which the warm start does not change)."""
    from numberup.analysis.hindsight import run_level

    warm = run_level(19, 2026, 8, jobs=1, width=1, warm="learned", keep=True, pilot=None)
    alone = run_level(19, 2026, 8, jobs=1, width=1, warm=None, pilot=None)
    assert np.array_equal(warm.search, alone.search) and np.array_equal(alone.found, alone.search)
    assert np.isnan(alone.warm).all() and alone.summary()["warm_games"] == 0
    assert np.all(warm.found >= warm.warm) and np.array_equal(
        warm.found, np.maximum(warm.search, warm.warm.astype(np.int64)))
    assert np.any(warm.warm > warm.search), "the test needs a deal the warm game wins"
    deals = warm.deals()
    assert (deals["found_by"] == np.where(warm.warm > warm.search, "warm", "search")).all()
    assert warm.summary()["warm"] == "learned" and warm.summary()["found_by_warm"] > 0
    for f in warm.solved:  # every found game, warm or searched, is a legal game of its score
        replay(f.record(), 19)


def test_warm_games_are_the_same_whatever_jobs():
    from numberup.analysis.hindsight import run_level

    a = run_level(19, 5, 6, jobs=1, width=1, warm="learned")
    b = run_level(19, 5, 6, jobs=2, width=1, warm="learned")
    for name in ("found", "search", "warm", "bound"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


def _log(tmp_path, level=19, seed=2026, games=3, policy="learned"):
    """A simulate --log of ``games`` games in ``tmp_path``: (path, records)."""
    import json

    from numberup.players.registry import parse_player
    from numberup.runs.loop import play_batch
    from numberup.runs.sinks import game_records
    from numberup.game.levels import get_level

    batch = play_batch(get_level(level), parse_player(policy), seed, 0, games, 1)
    records = list(game_records(batch))
    path = tmp_path / f"{policy}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path, records


def test_a_log_warm_starts_its_deals(tmp_path):
    """read_log keeps each deal's game of the log (the best one where a compare log has
    several), checked against the deal; run_level starts the search from them."""
    import json

    from numberup.analysis.hindsight import run_level
    from numberup.analysis.warm import read_log

    path, records = _log(tmp_path)
    (tmp_path / "r").mkdir()
    other, randoms = _log(tmp_path / "r", policy="random")  # the same deals, played worse
    with open(path, "a") as fh:
        fh.write(other.read_text())
    assert all(a["score"] > b["score"] for a, b in zip(records, randoms))
    got = read_log(path, [19, 4], 2026)
    assert sorted(got) == [(19, 0), (19, 1), (19, 2)]
    assert [got[(19, g)][0] for g in range(3)] == [r["score"] for r in records]
    r = run_level(19, 2026, 3, jobs=1, width=1, warm=got)
    assert r.warm.tolist() == [r_["score"] for r_ in records]
    assert np.all(r.found >= r.warm) and r.summary()["warm"] == "--warm log"


@pytest.mark.parametrize("change, named", [
    (lambda r: r.update(seed=r["seed"] + 1), "not a game of seed 2026"),
    (lambda r: r.update(deck=r["deck"][::-1]), "the deck is not"),
    (lambda r: r.update(score=r["score"] + 1), "not a whole legal game"),
    (lambda r: r.update(moves=r["moves"][:-1]), "not a whole legal game"),
    (lambda r: r["moves"][0].update(cell=[9, 9]), "move 1"),
    (lambda r: r.pop("deck"), "not a game record"),
])
def test_a_log_of_another_deal_or_an_illegal_game_is_refused(tmp_path, change, named):
    import json

    from numberup.analysis.warm import read_log
    from numberup.errors import InputError

    path, records = _log(tmp_path, games=2)
    bad = json.loads(json.dumps(records[1]))
    change(bad)
    path.write_text(json.dumps(records[0]) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(InputError, match="line 2") as err:
        read_log(path, [19], 2026)
    assert named in str(err.value)


def test_the_command_refuses_a_log_of_another_seed_before_writing(tmp_path, capsys):
    from oracles.cli_checks import assert_one_line_error, run_main

    path, _ = _log(tmp_path, games=1)
    out = tmp_path / "out"
    code, so, se = run_main(["hindsight", "--level", "19", "--games", "1", "--seed", "7",
                             "--warm", str(path), "--out", str(out)], capsys)
    assert_one_line_error(code, so, se, ["--warm", "line 1", "seed 7"])
    assert not out.exists()
