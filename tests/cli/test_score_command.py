"""``numberup score``: grids read from files or stdin, scored as the plain-Python reference
scores them (tests/oracles/reference.py), in JSON and as text.

Commands run in-process through click's CliRunner; bad input goes through
``numberup_cli.main.main`` (what the ``numberup`` script calls), which must end with exit
status 2 and one line on stderr, ``numberup: error: ...``, naming the place of the error.
"""

from __future__ import annotations

import json
import random
import textwrap

import pytest

from oracles.reference import (
    LEVELS as REF_LEVELS,
    deck as ref_deck,
    grid_text,
    ref_game,
    ref_game_lines,
    ref_medal,
)

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
