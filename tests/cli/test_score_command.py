"""``numberup score``: grids read from files or stdin, scored as the plain-Python reference
scores them (tests/oracles/reference.py), in JSON and as text. Commands run in-process
through click's CliRunner (bad grids and files: tests/cli/test_bad_input.py)."""

from __future__ import annotations

import json
import random

import pytest

from oracles.reference import (
    LEVELS as REF_LEVELS,
    deck as ref_deck,
    grid_text,
    ref_game,
    ref_game_lines,
    ref_medal,
)

from oracles.cli_checks import invoke

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
