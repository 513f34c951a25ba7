"""The implementation's scoring against the plain-Python reference (tests/oracles/reference.py).

For every one of the 20 levels: random full grids, structured grids that stress the rules
(one-colour rows, one-value rows, ascending / descending / scrambled streets, the 2-3-2
pattern, ...) and partial grids (random cells emptied, sometimes whole lines).  The game
total, the medal and every line's (points, markers, value) must agree.  A fixed seed per
level makes every failure reproducible; a failure prints the level, the grid and the
first disagreeing lines.

Hand-picked cases for the rulings of RULES.md and a few hypothesis properties follow.
"""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracles.reference import (
    LEVELS,
    deck,
    grid_ids,
    grid_text,
    line_text,
    parse_grid,
    parse_line,
    ref_game,
    ref_game_lines,
    ref_grid_lines,
    ref_line,
    ref_medal,
    ref_value,
)

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]
# Line rules that ignore the order of the cards in the line.
ORDER_FREE_LEVELS = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17]

N_RANDOM = 120      # random full grids per level
N_STRUCTURED = 120  # structured grids per level
N_PARTIAL = 120     # partial grids per level


@pytest.fixture(scope="module")
def scorecard():
    return pytest.importorskip("numberup.game.scorecard")


# ---------------------------------------------------------------------------
# grid generators (grids are lists of rows of (value, colour) | None)
# ---------------------------------------------------------------------------

def _to_grid(cells, n):
    return [list(cells[r * n:(r + 1) * n]) for r in range(n)]


def random_full_grid(level, rng):
    cards = deck(level)
    n = LEVELS[level].size
    pick = rng.choice(len(cards), size=n * n, replace=False)
    return _to_grid([cards[i] for i in pick], n)


class _Pool:
    """The unused cards of the deck; ``take`` hands out a wanted card if it is still
    unused, otherwise a random unused card (so every grid stays a legal set of cards)."""

    def __init__(self, level, rng):
        self.rng = rng
        self.free = list(deck(level))

    def take(self, card=None):
        if card is not None and card in self.free:
            self.free.remove(card)
            return card
        return self.free.pop(int(self.rng.integers(len(self.free))))


def _motif(level, rng, n):
    """A wanted line of n cards (some may be None = "anything")."""
    lv = LEVELS[level]
    V, C = lv.values, lv.colours
    c = int(rng.integers(C))
    c2 = int((c + 1 + rng.integers(C - 1)) % C)  # another colour
    kind = int(rng.integers(9))
    if kind == 0:  # one colour, values in random order
        vals = rng.permutation(np.arange(1, V + 1))
        want = [(int(v), c) for v in vals][:n]
    elif kind in (1, 2):  # a street ascending / descending, somewhere in the line
        length = int(rng.integers(2, min(V, n) + 1))
        lo = int(rng.integers(1, V - length + 2))
        vals = list(range(lo, lo + length))
        if kind == 2:
            vals.reverse()
        start = int(rng.integers(0, n - length + 1))
        want = [None] * n
        for i, v in enumerate(vals):
            want[start + i] = (v, c)
    elif kind == 3:  # the 2-3-2 pattern (v, v+1 in one colour, then v again in another)
        v = int(rng.integers(1, V))
        want = [(v, c), (v + 1, c), (v, c2)] + [None] * (n - 3)
        if rng.random() < 0.5:
            want = [(v + 1, c), (v, c), (v + 1, c2)] + [None] * (n - 3)
        shift = int(rng.integers(0, n - 2))
        want = want[-shift:] + want[:-shift] if shift else want
    elif kind == 4:  # one value, many colours (triplets, value runs)
        v = int(rng.integers(1, V + 1))
        k = int(rng.integers(2, min(C, n) + 1))
        cols = rng.permutation(C)[:k]
        want = [(v, int(col)) for col in cols] + [None] * (n - k)
        if rng.random() < 0.5:
            want = [want[i] for i in rng.permutation(n)]
    elif kind == 5:  # street with a gap / scrambled street (anywhere but not in order)
        vals = [1, 3, 2, 4, 5, 6][: min(V, n)]
        want = [(v, c) for v in vals]
        want += [None] * (n - len(want))
    elif kind == 6:  # two small streets of two colours
        v1 = int(rng.integers(1, V))
        v2 = int(rng.integers(1, V))
        want = [(v1, c), (v1 + 1, c), (v2 + 1, c2), (v2, c2)] + [None] * (n - 4)
    elif kind == 7:  # pairs of values (numbers chapter)
        v1, v2 = rng.choice(np.arange(1, V + 1), size=2, replace=False)
        cols = rng.permutation(C)
        want = [(int(v1), int(cols[0])), (int(v1), int(cols[1])),
                (int(v2), int(cols[2])), (int(v2), int(cols[3]))] + [None] * (n - 4)
        want = [want[i] for i in rng.permutation(n)]
    else:  # ones (level 7-9 triplets) and a single high card
        cols = rng.permutation(C)
        k = int(rng.integers(2, 5))
        want = [(1, int(col)) for col in cols[:k]] + [(V, int(cols[k]))] + [None] * (n - k - 1)
        want = [want[i] for i in rng.permutation(n)]
    return (want + [None] * n)[:n]


def structured_grid(level, rng):
    n = LEVELS[level].size
    pool = _Pool(level, rng)
    wanted = [_motif(level, rng, n) for _ in range(n)]
    # Fill the rows in random order so that no row always gets first pick of the cards.
    grid = [[None] * n for _ in range(n)]
    for r in rng.permutation(n):
        for i in range(n):
            grid[r][i] = pool.take(wanted[r][i])
    if rng.random() < 0.5:  # structure in the columns instead
        grid = [list(col) for col in zip(*grid)]
    return grid


def partial_grid(grid, rng):
    n = len(grid)
    out = [row[:] for row in grid]
    p = rng.choice([0.1, 0.3, 0.5, 0.8, 0.95])
    for r in range(n):
        for c in range(n):
            if rng.random() < p:
                out[r][c] = None
    if rng.random() < 0.3:  # empty a whole row or column
        k = int(rng.integers(n))
        if rng.random() < 0.5:
            out[k] = [None] * n
        else:
            for r in range(n):
                out[r][k] = None
    return out


def grids_for(level):
    rng = np.random.default_rng(1000 + level)
    grids = []
    for i in range(N_RANDOM):
        grids.append((f"random-{i}", random_full_grid(level, rng)))
    for i in range(N_STRUCTURED):
        grids.append((f"structured-{i}", structured_grid(level, rng)))
    for i in range(N_PARTIAL):
        base = random_full_grid(level, rng) if i % 2 else structured_grid(level, rng)
        grids.append((f"partial-{i}", partial_grid(base, rng)))
    return grids


def to_array(grid):
    return np.array(grid_ids(grid), dtype=np.int8)


# ---------------------------------------------------------------------------
# comparison helpers
# ---------------------------------------------------------------------------

def _medal_name(medal):
    """numberup's medal as a lower-case word (str, enum or object with a name)."""
    if isinstance(medal, str):
        return medal.lower()
    for attr in ("name", "value"):
        v = getattr(medal, attr, None)
        if isinstance(v, str):
            return v.lower()
    return str(medal).lower().rsplit(".", 1)[-1]


def _kind_letter(kind):
    name = kind if isinstance(kind, str) else getattr(kind, "name", str(kind))
    return str(name).lower()[:1]


def compare_game(nu, level, grid):
    """A list of human-readable disagreements (empty when all agree)."""
    problems = []
    expected_lines = ref_game_lines(level, grid)
    expected_total = ref_game(level, grid)
    got = nu.score(level, to_array(grid))
    if got.total != expected_total:
        problems.append(f"total: expected {expected_total}, got {got.total}")
    if _medal_name(got.medal) != ref_medal(level, expected_total):
        problems.append(f"medal: expected {ref_medal(level, expected_total)}, got {got.medal!r}")
    got_lines = list(got.lines)
    if len(got_lines) != len(expected_lines):
        problems.append(f"{len(got_lines)} lines, expected {len(expected_lines)}")
        return problems
    cells_of = {(k, i): cells for k, i, cells in ref_grid_lines(level, grid)}
    for exp, line in zip(expected_lines, got_lines):
        kind, index, points, markers, value = exp
        if (_kind_letter(line.kind), line.index) != (kind[0], index):
            problems.append(f"line order: expected {kind} {index}, got {line.kind} {line.index}")
            continue
        if (line.points, line.markers, line.value) != (points, markers, value):
            problems.append(
                f"{kind} {index} [{line_text(cells_of[(kind, index)])}]: expected "
                f"(points, markers, value) = {(points, markers, value)}, "
                f"got {(line.points, line.markers, line.value)}"
            )
    return problems


# ---------------------------------------------------------------------------
# the big comparison
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_grids_match_reference(scorecard, level):
    failures = []
    for name, grid in grids_for(level):
        problems = compare_game(scorecard, level, grid)
        if problems:
            failures.append(f"--- level {level} {name}\n{grid_text(grid)}\n  " + "\n  ".join(problems[:6]))
    assert not failures, f"{len(failures)} grids disagree; first ones:\n" + "\n".join(failures[:4])


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_grid_text_equals_grid_array(scorecard, level):
    rng = np.random.default_rng(7 + level)
    for _ in range(5):
        grid = partial_grid(random_full_grid(level, rng), rng)
        a = scorecard.score(level, to_array(grid))
        b = scorecard.score(level, grid_text(grid))
        assert a.total == b.total
        assert [(x.points, x.markers, x.value) for x in a.lines] == [
            (x.points, x.markers, x.value) for x in b.lines
        ]


# ---------------------------------------------------------------------------
# the reference's own sanity checks (run without numberup)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_reference_generators_make_legal_grids(level):
    lv = LEVELS[level]
    full_deck = set(deck(level))
    assert len(full_deck) == lv.values * lv.colours
    for name, grid in grids_for(level)[:: 7]:
        cards = [c for row in grid for c in row if c is not None]
        assert len(cards) == len(set(cards)), name
        assert set(cards) <= full_deck, name
        assert len(grid) == lv.size and all(len(row) == lv.size for row in grid)


def test_reference_deck_sizes():
    sizes = {n: len(deck(n)) for n in ALL_LEVELS}
    for n in (1, 2, 3, 4, 6, 7, 8, 10, 11, 13, 14, 16, 18):
        assert sizes[n] == 30 and LEVELS[n].size == 5
    for n in (5, 17, 19):
        assert sizes[n] == 40 and LEVELS[n].size == 6
    for n in (9, 12, 15, 20):
        assert sizes[n] == 42 and LEVELS[n].size == 6


# ---------------------------------------------------------------------------
# hand-picked cases for the rulings and edge cases of RULES.md
# ---------------------------------------------------------------------------

# (id, level, line, points, markers)
RULING_CASES = [
    ("L2-lone-cards-are-runs", 2, "5g 1r 4g 2r 3g", 5, 0),
    ("L2-empty-cell-breaks-run", 2, "4g . 5g 1r 2b", 5, 0),
    ("L2-empty-line", 2, ". . . . .", 0, 0),
    ("L1-empty-line", 1, ". . . . .", 0, 0),
    ("L3-partial-line", 3, "4g . 5g . .", 9, 1),
    ("L4-tie-7-and-7-gives-7", 4, "3g 4g 5b 2b 1r", 7, 1),
    ("L4-one-colour-gives-0", 4, "1g 2g . 5g .", 0, 0),
    ("L4-three-colours-second", 4, "5g 4g 3b 2b 1r", 5, 0),
    ("L5-6x6-colour-sum", 5, "1m 2m 3m 4m 5m 5r", 15, 1),
    ("L6-four-of-a-kind-9", 6, "3r 3g 3b 3y 5o", 9, 1),
    ("L6-empty-line", 6, ". . . . .", 0, 0),
    ("L7-four-1s-9", 7, "1r 1g 1b 1y 2o", 9, 1),
    ("L7-two-1s-give-1", 7, "1r 1g 2b 3y 4o", 1, 0),
    ("L8-three-2s-minus-singles", 8, "2r 2g 2b 4y 5o", -7, -1),
    ("L8-zero-is-a-chip", 8, "2r 2g 1b 1y 3o", 0, 0),
    ("L8-empty-line-chip-0", 8, ". . . . .", 0, 0),
    ("L8-exactly-5-one-checkmarker", 8, "3r 3g 2b 2y .", 5, 1),
    ("L9-6x6-three-1s-pair-6-15", 9, "1r 1g 1b 6y 6o 6r", 15, 2),
    ("L10-all-different-15", 10, "1r 2g 3b 4y 5o", 15, 1),
    ("L10-no-singles-0", 10, "1r 1g 2b 2y .", 0, 0),
    ("L11-empty-line-0", 11, ". . . . .", 0, 0),
    ("L12-6x6-three-colour-four-value-12", 12, "2r 2g 2b 2y 3r 4r", 12, 2),
    ("L13-lone-cards-1x1", 13, "1r 2g 3b 4y 5o", 1, 0),
    ("L13-empty-cell-breaks-colour-run", 13, "1g 2g . 3g 4g", 2, 0),
    ("L13-empty-cell-breaks-value-run", 13, "1g 1r . 1b 1y", 2, 0),
    ("L13-two-same-colour-two-same-value", 13, "1g 2g . 3g 3r", 4, 0),
    ("L13-empty-line-0", 13, ". . . . .", 0, 0),
    ("L14-five-green-15x1-one-checkmarker", 14, "1g 2g 3g 4g 5g", 15, 1),
    ("L14-green-12x3-36-four-checkmarkers", 14, "3g 3r 3b 4g 5g", 36, 4),
    ("L14-empty-line-0", 14, ". . . . .", 0, 0),
    ("L14-four-2s", 14, "2g 2r 2b 2y 5g", 28, 3),
    ("L15-triplet-best-colour-not-triplet-colour", 15, "2r 2g 2b 6y 5y 1o", 11, 1),
    ("L15-empty-line-minus", 15, ". . . . . .", None, -1),
    ("L16-5-street-three-checkmarkers", 16, "5g 3g 1g 4g 2g", 15, 3),
    ("L16-4-street-beats-2-street", 16, "1b 2b 3b 4b 5r", 10, 2),
    ("L16-3-street-beats-4-5-chip", 16, "1g 2g 3g 4r 5r", 6, 1),
    ("L16-partial-3-street", 16, "1g . 3g 2g .", 6, 1),
    ("L17-two-3-streets-tie-higher-points", 17, "1g 2g 3g 3r 4r 5r", 12, 1),
    ("L16-empty-line-minus", 16, ". . . . .", None, -1),
    ("L17-6x6-5-street", 17, "1m 2m 3m 4m 5m 1r", 15, 3),
    ("L18-2-3-2-is-only-a-2-street", 18, "2g 3g 2r 1b 5o", 5, 0),
    ("L18-scrambled-3-not-a-street-in-order", 18, "3g 4g 2g 1r 5b", 7, 0),
    ("L18-descending-3-street", 18, "5g 4g 3g 1r 2b", 12, 1),
    ("L18-empty-cell-breaks-street", 18, "2g . 3g 4g .", 7, 0),
    ("L19-6x6-5-street-in-order", 19, "1r 1m 2m 3m 4m 5m", 15, 3),
    ("L20-5-6-small-street-checkmarker", 20, "5g 6g 1r 3b 2o 4y", 11, 1),
    ("L20-6-5-descending-checkmarker", 20, "1r 6g 5g 3b 2o 4y", 11, 1),
    ("L20-4-5-chip-9", 20, "4g 5g 1r 3b 2o 6y", 9, 0),
    ("L20-3-street-vs-5-6-tie-higher-points", 20, "1g 2g 3g 5r 6r 4y", 11, 1),
    ("L20-6-street-four-checkmarkers", 20, "1g 2g 3g 4g 5g 6g", 21, 4),
]
RULING_IDS = [c[0] for c in RULING_CASES]


@pytest.mark.parametrize("name, level, text, points, markers", RULING_CASES, ids=RULING_IDS)
def test_rulings_reference(name, level, text, points, markers):
    assert ref_line(level, parse_line(text)) == (points, markers)


@pytest.mark.parametrize("name, level, text, points, markers", RULING_CASES, ids=RULING_IDS)
def test_rulings_implementation(scorecard, name, level, text, points, markers):
    got = scorecard.score_line(level, text)
    assert (got.points, got.markers, got.value) == (points, markers, ref_value(points, markers))


# Game-level aggregation cases.
L20_GRID_MINUS = """\
1g 2g 3g 4g 5g 6g
1r 2r 3r 4r 5r 6r
1b 2b 3b 4b 5b 6b
1y 2y 3y 4y 5y 6y
1o 2o 3o 4o 5o 6o
1n 2n 3n 4n 5n 6n
"""  # every row a 6-street, every column one value -> no street -> -100


def test_reference_level_20_minus_marker_loses():
    grid = parse_grid(L20_GRID_MINUS)
    assert ref_game(20, grid) == -100
    assert ref_medal(20, -100) == "lost"


def test_reference_level_14_checkmarkers_only():
    # rows: 1g..5g = 15 x 1 -> 1 checkmarker each colour row; columns: one value x5, colour sum = v
    rows = ["1g 2g 3g 4g 5g", "1r 2r 3r 4r 5r", "1b 2b 3b 4b 5b", "1y 2y 3y 4y 5y", "1o 2o 3o 4o 5o"]
    grid = parse_grid("\n".join(rows))
    lines = ref_game_lines(14, grid)
    assert [m for _, _, _, m, _ in lines[:5]] == [1] * 5
    # column of value v: largest colour sum v, five of a kind -> 5v: 5, 10, 15, 20, 25
    assert [p for _, _, p, _, _ in lines[5:]] == [5, 10, 15, 20, 25]
    assert [m for _, _, _, m, _ in lines[5:]] == [0, 1, 1, 2, 2]
    assert ref_game(14, grid) == 10 * (5 + 6)


@pytest.mark.parametrize("level, text", [(20, L20_GRID_MINUS), (14, None), (3, None)])
def test_aggregation_implementation(scorecard, level, text):
    if text is None:
        rng = np.random.default_rng(level)
        grid = random_full_grid(level, rng)
    else:
        grid = parse_grid(text)
    assert scorecard.score(level, grid_text(grid)).total == ref_game(level, grid)


# ---------------------------------------------------------------------------
# hypothesis properties
# ---------------------------------------------------------------------------

@st.composite
def level_and_line(draw, levels=ALL_LEVELS, allow_empty=True):
    level = draw(st.sampled_from(levels))
    lv = LEVELS[level]
    cards = draw(st.permutations(deck(level)))[: lv.size]
    if allow_empty:
        mask = draw(st.lists(st.booleans(), min_size=lv.size, max_size=lv.size))
        cards = [None if m else c for c, m in zip(cards, mask)]
    return level, list(cards)


_HYP = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_HYP
@given(level_and_line(levels=ORDER_FREE_LEVELS, allow_empty=False), st.randoms(use_true_random=False))
def test_property_order_free_levels_ignore_order(level_line, rnd):
    level, line = level_line
    shuffled = line[:]
    rnd.shuffle(shuffled)
    assert ref_line(level, line) == ref_line(level, shuffled)
    nu = pytest.importorskip("numberup.game.scorecard")
    a = nu.score_line(level, line_text(line))
    b = nu.score_line(level, line_text(shuffled))
    assert (a.points, a.markers, a.value) == (b.points, b.markers, b.value)
    assert (a.points, a.markers) == ref_line(level, line)


@_HYP
@given(level_and_line())
def test_property_reversing_a_line_changes_nothing(level_line):
    level, line = level_line
    assert ref_line(level, line) == ref_line(level, line[::-1])
    nu = pytest.importorskip("numberup.game.scorecard")
    a = nu.score_line(level, line_text(line))
    b = nu.score_line(level, line_text(line[::-1]))
    assert (a.points, a.markers, a.value) == (b.points, b.markers, b.value)


@_HYP
@given(level_and_line())
def test_property_score_line_matches_reference(level_line):
    level, line = level_line
    nu = pytest.importorskip("numberup.game.scorecard")
    points, markers = ref_line(level, line)
    got = nu.score_line(level, line_text(line))
    assert (got.points, got.markers, got.value) == (points, markers, ref_value(points, markers)), (
        f"level {level} line {line_text(line)!r}"
    )
