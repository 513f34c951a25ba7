"""The command line: levels, score, bad input, help texts, start-up imports.

Commands run in-process through click's CliRunner; bad input goes through
``numberup_cli.main.main`` (what the ``numberup`` script calls), which must end with exit
status 2 and one line on stderr, ``numberup: error: ...``, naming the place of the error.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

import click
import pytest
from click.testing import CliRunner

from oracles.reference import (
    LEVELS as REF_LEVELS,
    deck as ref_deck,
    grid_text,
    ref_game,
    ref_game_lines,
    ref_medal,
)

import numberup_cli.campaign  # noqa: F401  (registers campaign)
import numberup_cli.commands  # noqa: F401  (registers the commands on the group)
import numberup_cli.reports  # noqa: F401  (registers plot)
from numberup_cli.group import cli
from numberup_cli.main import main
from oracles.cli_checks import assert_one_line_error, invoke, run_main

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]


def random_grid(level: int, rng: random.Random) -> list:
    """A full grid of distinct cards of the level's deck."""
    n = REF_LEVELS[level].size
    cards = ref_deck(level)
    rng.shuffle(cards)
    return [cards[r * n:(r + 1) * n] for r in range(n)]


# -------------------------------------------------------------------------------------------
# levels


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


# -------------------------------------------------------------------------------------------
# score


def _two_grid_file(level: int, seed: int) -> tuple[str, list]:
    rng = random.Random(seed)
    grids = [random_grid(level, rng), random_grid(level, rng)]
    text = "# two grids\n" + grid_text(grids[0]) + "\n\n" + grid_text(grids[1]) + "\n"
    return text, grids


def _expected_json(level: int, grid) -> dict:
    total = ref_game(level, grid)
    return {
        "level": level,
        "total": total,
        "medal": ref_medal(level, total),
        "lines": [
            {"kind": kind, "index": index, "points": points, "markers": markers, "value": value}
            for kind, index, points, markers, value in ref_game_lines(level, grid)
        ],
    }


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_score_json(level, tmp_path):
    text, grids = _two_grid_file(level, seed=level)
    path = tmp_path / "grids.txt"
    path.write_text(text)
    data = json.loads(invoke(["score", "--level", str(level), "--json", str(path)]))
    # the shape, exactly
    assert isinstance(data, list) and len(data) == 2
    for game in data:
        assert list(game) == ["level", "total", "medal", "lines"]
        for line in game["lines"]:
            assert list(line) == ["kind", "index", "points", "markers", "value"]
            assert line["kind"] in ("row", "col", "diag")
            assert all(isinstance(line[k], int) for k in ("index", "markers", "value"))
            assert line["points"] is None or isinstance(line["points"], int)
    # the values, by the reference scorer
    assert data == [_expected_json(level, g) for g in grids]


def test_score_text_two_grids(tmp_path):
    text, grids = _two_grid_file(14, seed=1)
    path = tmp_path / "grids.txt"
    path.write_text(text)
    out = invoke(["score", "--level", "14", str(path)])
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 2, out
    # the first grid starts on text line 2 (after the comment), the second on line 8
    assert blocks[0].splitlines()[0].endswith("line 2: level 14"), blocks[0]
    assert blocks[1].splitlines()[0].endswith("line 8: level 14"), blocks[1]
    for block, grid in zip(blocks, grids):
        total = ref_game(14, grid)
        assert block.splitlines()[-1].split() == ["total", str(total), "medal", ref_medal(14, total)]
        assert len(block.splitlines()) == 1 + 10 + 1


def test_score_stdin():
    text, grids = _two_grid_file(16, seed=3)
    data = json.loads(invoke(["score", "--level", "16", "--json", "-"], input=text))
    assert data == [_expected_json(16, g) for g in grids]
    out = invoke(["score", "--level", "16", "-"], input=text)
    assert out.startswith("<stdin>, line 2: level 16")


def test_score_partial_grid_and_files_in_order(tmp_path):
    """Empty cells are allowed; several files keep their order."""
    rng = random.Random(5)
    grid = random_grid(1, rng)
    grid[0][0] = grid[4][4] = None
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(grid_text(grid) + "\n")
    full = random_grid(1, rng)
    b.write_text(grid_text(full) + "\n")
    data = json.loads(invoke(["score", "--level", "1", "--json", str(b), str(a)]))
    assert data == [_expected_json(1, full), _expected_json(1, grid)]


# -------------------------------------------------------------------------------------------
# bad input: exit status 2, one line on stderr, naming the place

GOOD_5 = textwrap.dedent("""\
    1r 2r 3r 4r 5r
    1o 2o 3o 4o 5o
    1y 2y 3y 4y 5y
    1g 2g 3g 4g 5g
    1b 2b 3b 4b 5b
""")


def _with(text: str, row: int, col: int, token: str) -> str:
    lines = text.splitlines()
    cells = lines[row].split()
    cells[col] = token
    lines[row] = " ".join(cells)
    return "\n".join(lines) + "\n"


BAD_GRIDS = {
    # name: (grid text, level, things the message must name)
    "unknown-token": (_with(GOOD_5, 2, 3, "4x"), 1, ["line 3", "row 2", "col 3", "'4x'"]),
    "unknown-token-word": (_with(GOOD_5, 0, 0, "red"), 1, ["row 0", "col 0", "'red'"]),
    "value-not-in-deck": (_with(GOOD_5, 1, 4, "6o"), 1, ["row 1", "col 4", "'6o'", "deck"]),
    "colour-not-in-deck": (_with(GOOD_5, 4, 1, "2m"), 1, ["row 4", "col 1", "'2m'", "deck"]),
    "duplicate-card": (_with(GOOD_5, 3, 2, "1r"), 1, ["row 3", "col 2", "'1r'", "row 0, col 0"]),
    "short-row": (GOOD_5.replace("1o 2o 3o 4o 5o", "1o 2o 3o 4o"), 1, ["row 1", "4"]),
    "long-row": (GOOD_5.replace("1g 2g 3g 4g 5g", "1g 2g 3g 4g 5g ."), 1, ["row 3", "6"]),
    "too-few-rows": ("\n".join(GOOD_5.splitlines()[:4]) + "\n", 1, ["5 rows", "4"]),
    "6x6-level-5x5-grid": (GOOD_5, 5, ["6 rows", "5"]),
}


@pytest.mark.parametrize("case", list(BAD_GRIDS))
def test_score_bad_grid(case, tmp_path, capsys):
    text, level, must_name = BAD_GRIDS[case]
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, out, err = run_main(["score", "--level", str(level), str(path)], capsys)
    assert_one_line_error(code, out, err, [str(path), *must_name])


def test_score_bad_second_grid_prints_nothing(tmp_path, capsys):
    """All input is checked before anything is printed; the error names the second grid's line."""
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(GOOD_5)
    bad.write_text(GOOD_5 + "\n" + _with(GOOD_5, 4, 4, "5q"))
    code, out, err = run_main(["score", "--level", "1", str(good), str(bad)], capsys)
    assert_one_line_error(code, out, err, [str(bad), "line 11", "row 4", "col 4", "'5q'"])


BAD_ARGS = {
    "unknown-player": (["simulate", "--level", "1", "--games", "1", "--policy", "wizard"],
                       ["'wizard'"]),
    "unknown-player-parameter": (["simulate", "--level", "1", "--games", "1", "--policy",
                                  "greedy:depth=3"], ["'depth'"]),
    "player-parameter-of-random": (["simulate", "--level", "1", "--games", "1", "--policy",
                                    "random:n=5"], ["'n'"]),
    "levels-level-21": (["levels", "--level", "21"], ["--level", "21"]),
    "levels-level-word": (["levels", "--level", "two"], ["--level", "two"]),
    "score-level-0": (["score", "--level", "0", "-"], ["--level", "0"]),
    "simulate-level-0": (["simulate", "--level", "0", "--games", "1"], ["--level", "0"]),
    "simulate-level-range": (["simulate", "--level", "19-21", "--games", "1"], ["--level", "19-21"]),
    "simulate-level-junk": (["simulate", "--level", "x", "--games", "1"], ["--level", "x"]),
    "score-missing-level": (["score", "-"], ["--level"]),
    "unknown-command": (["frobnicate"], ["frobnicate"]),
    "too-many-jobs": (["simulate", "--level", "1", "--games", "5", "--jobs", "999",
                       "--no-progress"], ["999"]),
    "missing-file": (["score", "--level", "1", "/nonexistent/grids.txt"], ["/nonexistent/grids.txt"]),
}


@pytest.mark.parametrize("case", list(BAD_ARGS))
def test_bad_arguments(case, tmp_path, capsys, monkeypatch):
    argv, must_name = BAD_ARGS[case]
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(argv, capsys)
    assert_one_line_error(code, out, err, must_name)
    assert list(tmp_path.iterdir()) == [], "a failed command left files behind"


def test_bad_player_before_any_output_file(tmp_path, capsys):
    out_dir, log = tmp_path / "out", tmp_path / "log.jsonl"
    code, out, err = run_main(["simulate", "--level", "1", "--games", "5", "--policy", "nobody",
                                "--out", str(out_dir), "--log", str(log)], capsys)
    assert_one_line_error(code, out, err, ["'nobody'"])
    assert not out_dir.exists() and not log.exists()


def test_score_no_grid(tmp_path, capsys):
    path = tmp_path / "empty.txt"
    path.write_text("\n# nothing here\n\n")
    code, out, err = run_main(["score", "--level", "1", str(path)], capsys)
    assert_one_line_error(code, out, err, [str(path), "no grid"])


# -------------------------------------------------------------------------------------------
# help and start-up


def _walk(command, path=()):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _walk(sub, path + (name,))


COMMANDS = list(_walk(cli))


@pytest.mark.parametrize("path, command", COMMANDS,
                         ids=[" ".join(p) or "numberup" for p, _ in COMMANDS])
def test_help(path, command):
    assert (command.help or "").strip(), f"'numberup {' '.join(path)}' has no help text"
    for param in command.params:
        if isinstance(param, click.Option) and param.name not in ("help", "version"):
            assert (param.help or "").strip(), (
                f"'numberup {' '.join(path)}' option {param.opts[0]} has no help text"
            )
    for flag in ("--help", "-h"):
        result = CliRunner().invoke(cli, [*path, flag])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Usage: "), result.output
        first_help_line = command.help.strip().splitlines()[0].strip()
        assert first_help_line.split()[0] in result.output


def test_commands_exist():
    assert {"levels", "score", "simulate"} <= set(cli.commands)


def test_main_help_succeeds(capsys):
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    out, err = capsys.readouterr()
    assert out.startswith("Usage: ") and err == ""


def test_import_is_light():
    code = (
        "import sys, numberup_cli.main\n"
        "heavy = [m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"importing numberup_cli.main loads {proc.stdout.strip()}"


def test_help_is_light():
    """``numberup --help`` (which registers every command) loads none of the heavy modules,
    numpy included: it answers in well under 0.3 s (measured in benchmarks/README.md)."""
    code = (
        "import sys, contextlib, io\n"
        "from numberup_cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('numpy', 'numba', 'pandas', 'matplotlib', 'pyarrow', 'rich')\n"
        "         if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"'numberup --help' loads {proc.stdout.strip()}"
