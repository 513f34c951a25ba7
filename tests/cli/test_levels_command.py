"""``numberup levels``: the table of the 20 levels, one level's rule, medals and rulings, and
the JSON form, against the plain-Python reference's levels (tests/oracles/reference.py)."""

from __future__ import annotations

import json

import pytest

from oracles.cli_checks import invoke
from oracles.reference import LEVELS as REF_LEVELS

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]


def test_levels_table():
    out = invoke(["levels"])
    rows = [ln for ln in out.splitlines() if ln.startswith("│")]
    assert len(rows) == 20, out
    for number, row in zip(ALL_LEVELS, rows):
        cells = [c.strip() for c in row.strip("│").split("│")]
        lv = REF_LEVELS[number]
        assert cells[0] == str(number), row
        assert f"{lv.values * lv.colours} cards 1-{lv.values} x{lv.colours}" in row, row
        assert f"{lv.size}x{lv.size}" in row, row
        assert "/".join(map(str, lv.medals)) in row, row


# What RULES.md decides where the rulebook is silent, and the levels each ruling concerns;
# ``numberup levels --level N`` must say it (in the project's words: matched loosely).
RULINGS_BY_LEVEL = {
    "run of one": [2, 13],
    "10 per checkmarker": [3, 20],
    "setup card": [3, 13, 18, 19, 20],  # discards never in setup; hand levels: setup from the deck
    "four checkmarkers": [20],
    "final grid": [1, 2, 3, 4, 5, 6, 7],
}


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_levels_one_level_shows_rulings(level):
    from numberup.game.levels import RULINGS, get_level

    out = invoke(["levels", "--level", str(level)])
    flat = " ".join(out.split()).lower()
    assert f"level {level}" in flat
    lv = REF_LEVELS[level]
    assert f"bronze {lv.medals[0]}, silver {lv.medals[1]}, gold {lv.medals[2]}" in flat
    assert "rulings" in flat
    for key in get_level(level).rulings:
        assert " ".join(RULINGS[key].split()).lower() in flat, f"ruling {key!r} not shown"
    for phrase, levels in RULINGS_BY_LEVEL.items():
        if level in levels:
            assert phrase in flat, f"level {level}: the ruling about {phrase!r} is not shown:\n{out}"


def test_levels_json():
    data = json.loads(invoke(["levels", "--json"]))
    assert isinstance(data, list) and [d["level"] for d in data] == ALL_LEVELS
    for d in data:
        lv = REF_LEVELS[d["level"]]
        assert d["deck"] == {"cards": lv.values * lv.colours, "values": lv.values,
                             "colours": lv.colours}
        assert d["grid"] == f"{lv.size}x{lv.size}"
        assert d["medals"] == dict(zip(("bronze", "silver", "gold"), lv.medals))
        assert d["discards"] == (2 if d["level"] in (3, 13) else 0)
        assert d["hand"] == (5 if d["level"] in (18, 19, 20) else 0)
        assert isinstance(d["rulings"], list) and all(isinstance(r, str) and r for r in d["rulings"])
    one = json.loads(invoke(["levels", "--level", "14", "--json"]))
    assert one == data[13]
