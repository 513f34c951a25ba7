"""``numberup advise``: the ranking in JSON and as text, read from stdin or a file, the player
whose continuations it estimates (--for), a searching base of rollouts, and the defaults it
spells out being the library's."""

from __future__ import annotations

import json
import random

import pytest

from oracles.advise_checks import GOLD_GRID, RISKY, SAFE, TOL, action_of
from oracles.cli_checks import invoke
from oracles.expectiminimax import Position, action_values, position_texts, random_position
from oracles.reference import deck as ref_deck, parse_grid


def test_advise_command_names_the_player_of_its_estimates():
    state, gone = random_position(14, 14, random.Random(2), greedy=True)
    grid, hand, _ = position_texts(state, gone)
    args = ["advise", "-l", "14", "--card", hand, "-p", "expectimax", "--for", "greedy",
            "-m", "40", "-e", "2", "-j", "1", "-"]
    data = json.loads(invoke(args + ["--json"], input=grid))
    assert list(data) == ["level", "ranked_by", "ranker_why", "estimates_for", "continuations",
                          "seed", "actions"]
    assert (data["ranked_by"], data["ranker_why"], data["estimates_for"],
            data["continuations"]) == ("expectimax", "", "greedy", 40)
    first = data["actions"][0]["estimate"]
    assert list(first) == ["mean", "p_bronze", "p_silver", "p_gold", "n", "mean_moe",
                           "p_gold_lo", "p_gold_hi"]
    assert first["n"] == 40 and data["actions"][2]["estimate"] is None
    text = invoke(args, input=grid)
    assert "ranked by expectimax" in text and "what greedy reaches" in text
    rows = [ln for ln in text.splitlines() if ln.startswith("│")]
    assert len(rows) == 2 and all("±" in r for r in rows)
    rest = len(data["actions"]) - 2
    assert f"{rest} more action{'s' if rest > 1 else ''} ranked lower, not estimated" in text


def test_advise_command_defaults_are_the_library_defaults():
    """The CLI spells its defaults out (so --help loads no numba); they must be advise's."""
    from numberup.analysis import advise as A
    import numberup_cli.main  # noqa: F401  (every command on the group)
    from numberup_cli.group import cli

    opts = {p.name: p.default for p in cli.commands["advise"].params}
    assert (opts["policy"], opts["for_player"], int(opts["estimate"]), opts["continuations"]) == (
        A.DEFAULT_ADVISOR, A.DEFAULT_FOR, A.DEFAULT_ESTIMATE, A.DEFAULT_CONTINUATIONS)


def test_advise_json_and_text_from_stdin():
    """The ranking is the searcher's (exact here), the estimates the named player's
    continuations (within Monte Carlo error of the exact values; tests/analysis/test_estimate.py checks
    them closely)."""
    spec = "expectimax:depth=2"
    args = ["advise", "--level", "1", "--card", "4b", "--policy", spec, "--for", spec,
            "--estimate", "all", "--continuations", "400", "--jobs", "1", "-"]
    data = json.loads(invoke(args + ["--json"], input=GOLD_GRID))
    assert (data["ranked_by"], data["estimates_for"], data["continuations"]) == (spec, spec, 400)
    assert all(list(a) == ["card", "cell", "estimate", "search"] for a in data["actions"])
    grid = parse_grid(GOLD_GRID)
    seen = [c for row in grid for c in row] + [(4, 4)]
    state = Position(1, tuple(map(tuple, grid)), ((4, 4),),
                     tuple(c for c in ref_deck(1) if c not in seen))
    ref = action_values(state)
    assert {action_of(a): a["search"]["mean"] for a in data["actions"]} == pytest.approx(ref, abs=TOL)
    for a in data["actions"]:
        e = a["estimate"]
        assert abs(e["mean"] - ref[action_of(a)]) <= e["mean_moe"] * 4 / 1.96 + TOL
    assert [tuple(a["cell"]) for a in data["actions"]] == [RISKY, SAFE]
    text = invoke(args, input=GOLD_GRID)
    rows = [ln for ln in text.splitlines() if ln.startswith("│")]
    assert len(rows) == 2 and "3, 0" in rows[0] and "1, 2" in rows[1]


def test_advise_with_a_searching_base(tmp_path):
    """advise ranks every action by rollouts of the base (here expectimax)."""
    grid = tmp_path / "grid.txt"
    grid.write_text(". . . . .\n. . . . .\n. . 2b . .\n. . 4r . .\n. . . . .\n")
    rows = json.loads(invoke(["advise", "--level", "1", "--card", "3g", "--json", "--policy",
                              "rollout:n=60,base=expectimax,bk=2", "--continuations", "20",
                              str(grid)]))["actions"]
    assert len(rows) == 6  # the cells touching the two cards
    assert all(0.0 <= r["search"]["p_gold"] <= 1.0 and 0 < r["search"]["mean"] <= 100
               for r in rows)
    assert [r["estimate"] is not None for r in rows] == [True] * 3 + [False] * 3
