"""``numberup advise``: the ranking in JSON and as text, read from stdin or a file, one player
that ranks and estimates (best by default: the level's setting), a searching base of rollouts,
and the defaults it spells out being the library's."""

from __future__ import annotations

import json
import random

import pytest

from oracles.advise_checks import GOLD_GRID, RISKY, SAFE, TOL, action_of
from oracles.cli_checks import invoke
from oracles.expectiminimax import Position, action_values, position_texts, random_position
from oracles.reference import deck as ref_deck, parse_grid


def test_advise_command_ranks_and_estimates_with_one_player():
    state, gone = random_position(14, 14, random.Random(2), greedy=True)
    grid, hand, _ = position_texts(state, gone)
    args = ["advise", "-l", "14", "--card", hand, "-p", "expectimax", "-m", "40", "-k", "2",
            "-j", "1", "-"]
    data = json.loads(invoke(args + ["--json"], input=grid))
    assert list(data) == ["level", "player", "plays", "objective", "continuations", "seed",
                          "candidates", "asked", "actions"]
    assert (data["player"], data["plays"], data["objective"], data["continuations"],
            data["candidates"], data["asked"]) == ("expectimax", "expectimax", "mean", 40, 2, 2)
    first, second = (a["estimate"] for a in data["actions"][:2])
    assert list(first) == ["mean", "p_bronze", "p_silver", "p_gold", "n", "mean_moe",
                           "p_gold_lo", "p_gold_hi"]
    assert first["n"] == second["n"] == 40 and data["actions"][2]["estimate"] is None
    assert first["mean"] >= second["mean"]  # ranked by the estimates, on the same games
    vs = data["actions"][1]["vs_first"]
    assert vs["diff"] == pytest.approx(first["mean"] - second["mean"]) and vs["n"] == 40
    assert vs["close"] == (vs["lo"] <= 0) and data["actions"][0]["vs_first"] is None
    assert sum(a["chosen"] for a in data["actions"]) == 1
    text = invoke(args, input=grid)
    assert "ranked and estimated by expectimax" in text and "What expectimax reaches" in text
    rows = [ln for ln in text.splitlines() if ln.startswith("│")]
    assert len(rows) == 2 and all("±" in r for r in rows)
    rest = len(data["actions"]) - 2
    assert f"{rest} more action{'s' if rest > 1 else ''} not estimated" in text


def test_advise_command_defaults_are_the_library_defaults():
    """The CLI spells its defaults out (so --help loads no numba); they must be advice's."""
    import inspect

    from numberup.analysis import advise as A
    import numberup_cli.main  # noqa: F401  (every command on the group)
    from numberup_cli.group import cli

    opts = {p.name: p.default for p in cli.commands["advise"].params}
    lib = inspect.signature(A.advice).parameters
    assert (opts["policy"], int(opts["candidates"]), opts["continuations"]) == (
        lib["player"].default, lib["candidates"].default, lib["continuations"].default)
    assert opts["policy"] == A.DEFAULT_PLAYER == "best:budget=0.032"


def test_advise_best_plays_the_levels_setting():
    """best (at advise's default budget) ranks and estimates with the setting the best table
    names for the level."""
    from numberup.players.registry import at_level, parse_player

    state, gone = random_position(14, 5, random.Random(4), greedy=True)
    grid, hand, _ = position_texts(state, gone)
    data = json.loads(invoke(["advise", "-l", "14", "--card", hand, "-m", "8", "-j", "1",
                              "--json", "-"], input=grid))
    assert data["player"] == "best:budget=0.032"
    assert data["plays"] == at_level(parse_player("best:budget=0.032"), 14).spec


def test_advise_json_and_text_from_stdin():
    """The estimates are the player's continuations (within Monte Carlo error of the exact
    values; tests/analysis/test_estimate.py checks them closely), and rank the actions."""
    spec = "expectimax:depth=2"
    args = ["advise", "--level", "1", "--card", "4b", "--policy", spec,
            "--candidates", "all", "--continuations", "400", "--jobs", "1", "-"]
    data = json.loads(invoke(args + ["--json"], input=GOLD_GRID))
    assert (data["player"], data["plays"], data["continuations"]) == (spec, spec, 400)
    assert all(list(a) == ["card", "cell", "chosen", "estimate", "vs_first"]
               for a in data["actions"])
    grid = parse_grid(GOLD_GRID)
    seen = [c for row in grid for c in row] + [(4, 4)]
    state = Position(1, tuple(map(tuple, grid)), ((4, 4),),
                     tuple(c for c in ref_deck(1) if c not in seen))
    ref = action_values(state)
    for a in data["actions"]:
        e = a["estimate"]
        assert abs(e["mean"] - ref[action_of(a)]) <= e["mean_moe"] * 4 / 1.96 + TOL
    means = [a["estimate"]["mean"] for a in data["actions"]]
    assert means == sorted(means, reverse=True)
    text = invoke(args, input=GOLD_GRID)
    rows = [ln for ln in text.splitlines() if ln.startswith("│")]
    assert len(rows) == 2
    assert {tuple(a["cell"]) for a in data["actions"]} == {RISKY, SAFE}


def test_advise_with_a_searching_base(tmp_path):
    """advise ranks the candidates by continuations of rollouts of the base (here
    expectimax), the others by the rollouts' own values."""
    grid = tmp_path / "grid.txt"
    grid.write_text(". . . . .\n. . . . .\n. . 2b . .\n. . 4r . .\n. . . . .\n")
    rows = json.loads(invoke(["advise", "--level", "1", "--card", "3g", "--json", "--policy",
                              "rollout:n=60,base=expectimax,bk=2", "--continuations", "3",
                              "--candidates", "3", str(grid)]))["actions"]
    assert len(rows) == 6  # the cells touching the two cards
    assert all(0.0 <= r["estimate"]["p_gold"] <= 1.0 and 0 < r["estimate"]["mean"] <= 100
               for r in rows[:3])
    assert [r["estimate"] is not None for r in rows] == [True] * 3 + [False] * 3
