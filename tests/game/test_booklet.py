"""Every worked example of the Challenge Booklet (and the rulebook / RULES.md examples).

Each example describes a line only partly ("3+4+2 = 9 in green"); the line below is a
concrete line consistent with the text, the other cards chosen so that the example holds
(no other colour / value / street beats the one the booklet names).  The booklet's
purple is written yellow (`y`): colour names are free, and the 6-colour levels use the
colours r o y g b n only.

Every example is checked twice: against the plain-Python reference (tests/oracles/reference.py,
``test_booklet_reference``) and against the implementation (``numberup.game.scorecard.score_line``,
``test_booklet_implementation``).  ``pytest tests/game/test_booklet.py -k reference`` runs the
reference half alone.
"""

from __future__ import annotations


import pytest

from oracles.reference import parse_grid, parse_line, ref_game, ref_game_lines, ref_line, ref_medal, ref_value

# (id, level, line, expected points, expected markers)
#   markers: n >= 1 checkmarkers, 0 number chip, -1 minus marker
EXAMPLES = [
    # Rulebook, "Checkmarkers and Number Chips" (level 1 rules): the dark blue 4 placed in
    # the middle row joins the dark blue 5 (9 -> checkmarker, even in an unfinished row);
    # the column it completes is worth (3 + 4 =) 7 in green.
    ("rulebook-L1-middle-row-navy-4+5-9-checkmarker", 1, "2r 4n 5n 1g .", 9, 1),
    ("rulebook-L1-column-green-3+4-7-chip", 1, "3g 4n 4g 5b 1r", 7, 0),
    # Level 1: any same-colour cards in the line count.
    ("L1-row1-green-3+4+2-9-checkmarker", 1, "3g 4g 2g 1r 5b", 9, 1),
    ("L1-row2-blue-4+3+1-8-chip", 1, "4b 3b 1b 2r 5g", 8, 0),
    # Level 2: only neighbouring same-colour cards count (the green 2 is cut off).
    ("L2-row1-green-3+4-adjacent-7-chip", 2, "3g 4g 1r 2g 5b", 7, 0),
    ("L2-row2-blue-4+3+1-adjacent-8-checkmarker", 2, "2r 4b 3b 1b 5g", 8, 1),
    # Level 3: the diagonal's best colour is 1+3 = 4 (line level; the game result 40 is
    # tested below with a full grid).
    ("L3-diagonal-orange-1+3-4-chip", 3, "3n 3o 2b 1o 2g", 4, 0),
    # Level 4: the second-strongest colour counts.
    ("L4-row1-green9-blue-5+2-7-checkmarker", 4, "3g 4g 2g 5b 2b", 7, 1),
    ("L4-row2-blue7-yellow-4-chip", 4, "4b 3b 4y 1r 2o", 4, 0),
    # Level 6: triplet = 9, pair = its value, singles 0.
    ("L6-row1-pairs-4-and-5-9-checkmarker", 6, "4r 4g 5b 5y 1o", 9, 1),
    ("L6-row2-triplet-2s-9-checkmarker", 6, "2r 2g 2b 1y 3o", 9, 1),
    # Level 7: only 1s make triplets; three 2s give 2 points.
    ("L7-row1-pairs-4-and-5-9-checkmarker", 7, "4r 4g 5b 5y 1o", 9, 1),
    ("L7-row2-three-2s-only-2-chip", 7, "2r 2g 2b 1y 3o", 2, 0),
    # Level 8: singles are subtracted; below 0 = minus marker; 10 = two checkmarkers.
    ("L8-row1-3+1-5-minus1-minus-marker", 8, "3r 3g 1b 1y 5o", -1, -1),
    ("L8-row2-three-1s-and-pair-4-13-two-checkmarkers", 8, "1r 1g 1b 4y 4o", 13, 2),
    # Level 10: the sum of the values present exactly once.
    ("L10-row1-singles-3+4+5-12-checkmarker", 10, "3r 4g 5b 2y 2o", 12, 1),
    ("L10-row2-singles-1+4+3-8-chip", 10, "1r 4g 3b 5y 5o", 8, 0),
    # Level 11: (cards of one colour) x (cards of one value).
    ("L11-row1-three-green-three-2s-9-checkmarker", 11, "2g 2r 2b 3g 4g", 9, 1),
    ("L11-row2-three-purple-two-3s-6-chip", 11, "3y 3r 1y 5y 4b", 6, 0),
    # Level 13: both counts are runs of neighbouring cells.
    ("L13-row1-two-adjacent-green-two-adjacent-1s-4-chip", 13, "3g 4g 1r 1b 5o", 4, 0),
    ("L13-row2-three-adjacent-purple-two-adjacent-3s-6-checkmarker", 13, "1y 2y 3y 3r 5b", 6, 1),
    # Level 14: (colour sum) x (cards of one value); 9/18/27/36.
    ("L14-row1-27-three-checkmarkers", 14, "3g 4g 2g 2r 2b", 27, 3),
    ("L14-row2-purple-6-x-two-3s-12-one-checkmarker", 14, "3y 2y 1y 3r 5b", 12, 1),
    # Level 15 (6x6): no triplet = minus marker, else the best colour sum; 9/13.
    ("L15-row1-orange-13-no-triplet-minus-marker", 15, "5o 3o 1o 4o 2r 6b", None, -1),
    ("L15-row2-three-2s-yellow-14-two-checkmarkers", 15, "3y 5y 2y 4y 2r 2b", 14, 2),
    # Level 16: the most valuable street, cards anywhere in the line.
    ("L16-row1-purple-2-3-red-3-4-7-chip", 16, "2y 3r 1b 3y 4r", 7, 0),
    ("L16-row2-green-1-2-3-scattered-checkmarker", 16, "3g 5r 1g 1b 2g", 6, 1),
    # Level 18: street cards must be neighbours, in ascending or descending order.
    ("L18-row1-no-street-minus-marker", 18, "1g 3g 5g 2r 4r", None, -1),
    ("L18-row2-green-3-2-descending-5-chip", 18, "3g 2g 5r 1b 4o", 5, 0),
    ("L18-row3-only-yellow-3-4-7-chip", 18, "2b 3y 4y 3b 5r", 7, 0),
    # RULES.md's own examples.
    ("RULES-L8-3-3-1-1-5-minus1-minus-marker", 8, "3g 3r 1y 1b 5o", -1, -1),
    ("RULES-L14-green-3+4+2-three-2s-27-three-checkmarkers", 14, "3g 2r 4g 2b 2g", 27, 3),
]

IDS = [e[0] for e in EXAMPLES]

# Level 3's example at game level: the lowest line value is the diagonal (top-left to
# bottom-right) with 1+3 = 4 in orange; every other row, column and diagonal is worth more.
L3_GRID = """\
3n 2o 5b 4o 4g
2n 3o 5n 1g 1y
1r 5g 2b 4r 2r
2y 4y 3y 1o 3r
4n 5y 1b 1n 2g
"""
L3_LINE_VALUES = [6, 7, 7, 10, 5, 10, 10, 10, 5, 6, 4, 5]  # rows, columns, diag 0, diag 1


@pytest.fixture(scope="module")
def scorecard():
    return pytest.importorskip("numberup.game.scorecard")


# ---------------------------------------------------------------------------
# reference
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, level, text, points, markers", EXAMPLES, ids=IDS)
def test_booklet_reference(name, level, text, points, markers):
    assert ref_line(level, parse_line(text)) == (points, markers)


def test_booklet_reference_L3_game_lowest_line_4_gives_40():
    grid = parse_grid(L3_GRID)
    lines = ref_game_lines(3, grid)
    assert [value for *_, value in lines] == L3_LINE_VALUES
    assert lines[10][:2] == ("diag", 0) and lines[10][2:] == (4, 0, 4)
    assert ref_game(3, grid) == 40
    assert ref_medal(3, 40) == "bronze"


def test_reference_value_convention():
    assert ref_value(27, 3) == 30
    assert ref_value(7, 0) == 7
    assert ref_value(-1, -1) == -10
    assert ref_value(None, -1) == -10


# ---------------------------------------------------------------------------
# implementation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, level, text, points, markers", EXAMPLES, ids=IDS)
def test_booklet_implementation(scorecard, name, level, text, points, markers):
    got = scorecard.score_line(level, text)
    assert (got.points, got.markers, got.value) == (points, markers, ref_value(points, markers)), (
        f"level {level} line {text!r}"
    )


def test_booklet_implementation_L3_game_lowest_line_4_gives_40(scorecard):
    result = scorecard.score(3, L3_GRID)
    assert result.total == 40
    assert [line.value for line in result.lines] == L3_LINE_VALUES
    diag0 = result.lines[10]
    assert (diag0.index, diag0.points, diag0.markers, diag0.value) == (0, 4, 0, 4)
