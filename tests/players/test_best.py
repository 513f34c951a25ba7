"""``best``: the strongest measured setting of a level within a budget, from the best table
(numberup.players.best), and games of ``best`` being those of the setting it names."""

from __future__ import annotations

import numpy as np
import pytest

from numberup.errors import InputError
from numberup.game.levels import LEVELS, get_level
from numberup.players import best as B
from numberup.players.registry import at_level, parse_player
from numberup.runs.loop import play_batch

HEADER = ",".join(B.COLUMNS)


def _row(level, spec, p_gold, mean, seconds):
    return f"{level},{spec},100,{mean},1,1,{p_gold},{p_gold},{p_gold},{seconds},made up"


TABLE = "\n".join([HEADER, _row(7, "greedy", 0.1, 70, 0.0001), _row(7, "learned", 0.8, 86, 0.002),
                   _row(7, "expectimax", 0.7, 84, 0.002), _row(7, "rollout:n=800", 0.9, 88, 0.4),
                   _row(7, "rollout:n=200", 0.9, 87, 0.1), _row(7, "random", 0.0, 40, 0.00001),
                   _row(9, "greedy", 0.2, 100, 0.0001)])


def test_choose_the_strongest_within_the_budget():
    rows = B.read_table(TABLE, "t.csv")
    assert B.choose(rows, 7, 0.05)["spec"] == "learned"
    assert B.choose(rows, 7, 0.1)["spec"] == "rollout:n=200"
    assert B.choose(rows, 7, 1.0)["spec"] == "rollout:n=800"  # the same P(gold), a higher mean
    assert B.choose(rows, 7, 0.0)["spec"] == "random"  # nothing within: the cheapest
    assert B.choose(rows, 9, 10)["spec"] == "greedy"
    with pytest.raises(InputError, match="no measured setting of level 8"):
        B.choose(rows, 8, 1.0)


def test_frontier_is_what_some_budget_plays():
    rows = B.read_table(TABLE, "t.csv")
    front = B.frontier(rows, 7)
    assert [r["spec"] for r in front] == ["random", "greedy", "learned", "rollout:n=200",
                                          "rollout:n=800"]
    for r in rows:
        if r["level"] == 7:
            want = B.choose(rows, 7, r["seconds_per_game"])
            assert want in front and want["seconds_per_game"] <= r["seconds_per_game"]


def test_a_damaged_table_is_named_with_its_line():
    with pytest.raises(InputError, match="t.csv: not a best table .no column source"):
        B.read_table(HEADER.replace(",source", "") + "\n", "t.csv")
    with pytest.raises(InputError, match="t.csv, line 3: a number is missing"):
        B.read_table("\n".join([HEADER, _row(7, "greedy", 0.1, 70, 0.0001),
                                 _row(7, "learned", 0.8, 86, "fast")]), "t.csv")


def test_best_spec_parses_and_resolves_per_level(monkeypatch):
    monkeypatch.setattr(B, "table", lambda: tuple(B.read_table(TABLE, "t.csv")))
    assert parse_player("best").spec == "best"
    assert parse_player("best:budget=0.5").spec == "best:budget=0.5"
    assert at_level(parse_player("best"), 7).spec == "learned"
    assert at_level(parse_player("best:budget=0.2"), 7).spec == "rollout:n=200"
    assert at_level(parse_player("greedy"), 7).spec == "greedy"
    with pytest.raises(InputError, match="budget=-1 is below its minimum"):
        parse_player("best:budget=-1")


def test_the_package_table_covers_every_level_with_specs_that_parse():
    rows = B.table()
    assert {r["level"] for r in rows} == {lv.number for lv in LEVELS}
    for r in rows:
        assert parse_player(r["spec"]).spec == r["spec"]
        assert 0 <= r["p_gold_lo"] <= r["p_gold"] <= r["p_gold_hi"] <= 1 and r["seconds_per_game"] > 0
    for lv in LEVELS:  # the default budget's choice is the strongest of its cost
        chosen = B.choose(rows, lv.number, B.DEFAULT_BUDGET)
        assert chosen["seconds_per_game"] <= B.DEFAULT_BUDGET
        assert all(not B.stronger(r, chosen) for r in rows
                   if r["level"] == lv.number and r["seconds_per_game"] <= B.DEFAULT_BUDGET)


@pytest.mark.parametrize("level", [3, 14, 20])
def test_games_of_best_are_the_games_of_its_setting(level):
    lv = get_level(level)
    got = play_batch(lv, parse_player("best"), 11, 5, 6, 1)
    want = play_batch(lv, at_level(parse_player("best"), level), 11, 5, 6, 1)
    assert got.player.spec == "best"
    assert np.array_equal(got.scores, want.scores) and np.array_equal(got.moves, want.moves)


def test_the_quick_budget_is_the_default_of_the_work_that_plays_best_many_times():
    """advise, the hints of play and assist, calibrate and hindsight's pilot and warm start play
    best at QUICK_BUDGET (an answer in about 2 s, a hint in 1 s); simulate, compare and campaign
    at the default budget. Each default names the same spec, and QUICK's choice on every level
    is the strongest setting within its budget."""
    import numberup_cli.main  # noqa: F401  (every command on the group)
    from numberup_cli.group import cli

    from numberup.analysis import advise, pilot, warm

    assert B.QUICK == f"best:budget={B.QUICK_BUDGET:g}" and B.QUICK_BUDGET < B.DEFAULT_BUDGET
    assert advise.DEFAULT_PLAYER == pilot.PILOT == warm.WARM_PLAYER == B.QUICK

    def default(command, name):
        return next(p.default for p in cli.commands[command].params if p.name == name)

    for command, name in (("advise", "policy"), ("calibrate", "for_player"),
                          ("hindsight", "pilot"), ("hindsight", "warm_player"),
                          ("play", "hints"), ("assist", "policy")):
        assert default(command, name) == B.QUICK, (command, name)
    assert default("simulate", "policy") == "best"  # compare and campaign: best when none is named
    rows = B.table()
    for lv in LEVELS:
        quick = at_level(parse_player(B.QUICK), lv.number).spec
        assert quick == B.choose(rows, lv.number, B.QUICK_BUDGET)["spec"]
