"""A deliberately naive, plain-Python reference scorer for "For One: Number Up".

Written only from the project's RULES.md (and the Challenge Booklet it cites), and
independent of the ``numberup`` package: it must never import it.  Speed does not
matter here; every rule is spelled out as directly as possible so that a reader can
check it against the rules page line by line.

Cards are ``(value, colour)`` tuples (value 1..6, colour 0..7); ``None`` is an empty
cell.  A line is a list of cells in order (left to right, or top to bottom).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

Card = tuple  # (value, colour)
Cell = Optional[Card]

COLOUR_LETTERS = "roygbnpm"


@dataclass(frozen=True)
class Level:
    number: int
    values: int          # card values 1..values
    colours: int         # colours 0..colours-1
    size: int            # grid is size x size
    diagonals: bool      # level 3 also scores both main diagonals
    targets: tuple       # points >= t earns one checkmarker per target t
    aggregation: str     # "sum" | "min" (10 x lowest line value) | "checks" (10 x checkmarkers)
    medals: tuple        # (bronze, silver, gold)


# The 20 levels, straight from RULES.md ("Line rules by level").
# Street levels (16-20) have no point targets: checkmarkers come from the street length
# (k-2 for k >= 3); level 20's target 11 applies to 2-streets only (the 5-6 street).
LEVELS = {
    1: Level(1, 5, 6, 5, False, (9,), "sum", (60, 70, 80)),
    2: Level(2, 5, 6, 5, False, (8,), "sum", (60, 70, 80)),
    3: Level(3, 5, 6, 5, True, (8,), "min", (40, 50, 60)),
    4: Level(4, 5, 6, 5, False, (6,), "sum", (40, 50, 60)),
    5: Level(5, 5, 8, 6, False, (9,), "sum", (80, 90, 100)),
    6: Level(6, 5, 6, 5, False, (9,), "sum", (70, 80, 90)),
    7: Level(7, 5, 6, 5, False, (7,), "sum", (60, 70, 80)),
    8: Level(8, 5, 6, 5, False, (5, 10), "sum", (50, 60, 70)),
    9: Level(9, 6, 7, 6, False, (5, 10), "sum", (80, 90, 100)),
    10: Level(10, 5, 6, 5, False, (9,), "sum", (80, 90, 100)),
    11: Level(11, 5, 6, 5, False, (8,), "sum", (50, 60, 70)),
    12: Level(12, 6, 7, 6, False, (8, 12), "checks", (80, 100, 120)),
    13: Level(13, 5, 6, 5, False, (6,), "sum", (50, 60, 70)),
    14: Level(14, 5, 6, 5, False, (9, 18, 27, 36), "checks", (160, 180, 200)),
    15: Level(15, 6, 7, 6, False, (9, 13), "sum", (80, 90, 100)),
    16: Level(16, 5, 6, 5, False, (), "sum", (40, 60, 80)),
    17: Level(17, 5, 8, 6, False, (), "sum", (70, 90, 110)),
    18: Level(18, 5, 6, 5, False, (), "sum", (40, 60, 80)),
    19: Level(19, 5, 8, 6, False, (), "sum", (90, 110, 130)),
    20: Level(20, 6, 7, 6, False, (11,), "min", (30, 50, 70)),
}

STREET_LEVELS = (16, 17, 18, 19, 20)
ANYWHERE_STREET_LEVELS = (16, 17)     # street cards may lie anywhere in the line
NEIGHBOUR_STREET_LEVELS = (18, 19, 20)  # street cards must be neighbouring cells, in order


def deck(level: int) -> list:
    """Every (value, colour) pair of the level's deck."""
    lv = LEVELS[level]
    return [(v, c) for v in range(1, lv.values + 1) for c in range(lv.colours)]


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------

def _cards(line: Sequence[Cell]) -> list:
    """The cards present in the line (empty cells dropped)."""
    return [c for c in line if c is not None]


def _colour_sums(cards: list) -> dict:
    sums = {}
    for value, colour in cards:
        sums[colour] = sums.get(colour, 0) + value
    return sums


def _largest_colour_sum(cards: list) -> int:
    sums = _colour_sums(cards)
    return max(sums.values()) if sums else 0


def _largest_colour_count(cards: list) -> int:
    counts = Counter(colour for _, colour in cards)
    return max(counts.values()) if counts else 0


def _largest_value_count(cards: list) -> int:
    counts = Counter(value for value, _ in cards)
    return max(counts.values()) if counts else 0


def _runs(line: Sequence[Cell], same) -> list:
    """Maximal runs of neighbouring non-empty cells where ``same(a, b)`` holds for each
    neighbouring pair.  An empty cell ends a run.  A lone card is a run of one."""
    runs = []
    current = []
    for cell in line:
        if cell is None:
            if current:
                runs.append(current)
            current = []
        elif current and same(current[-1], cell):
            current.append(cell)
        else:
            if current:
                runs.append(current)
            current = [cell]
    if current:
        runs.append(current)
    return runs


# ---------------------------------------------------------------------------
# streets (chapter 4)
# ---------------------------------------------------------------------------

def _is_street(cards: list) -> bool:
    """2+ cards, one colour, values consecutive (in the given order, +1 each step)."""
    if len(cards) < 2:
        return False
    if len({colour for _, colour in cards}) != 1:
        return False
    return all(cards[i + 1][0] == cards[i][0] + 1 for i in range(len(cards) - 1))


def _streets_anywhere(line: Sequence[Cell]) -> list:
    """Levels 16/17: every set of same-colour cards whose values are consecutive, anywhere
    in the line.  Since each (value, colour) card exists once, for every colour we list
    every interval [lo, hi] of values that are all present in that colour."""
    cards = _cards(line)
    streets = []
    for colour in {c for _, c in cards}:
        values = {v for v, c in cards if c == colour}
        for lo in values:
            hi = lo
            while hi + 1 in values:
                hi += 1
                streets.append([(v, colour) for v in range(lo, hi + 1)])
    return streets


def _streets_neighbouring(line: Sequence[Cell]) -> list:
    """Levels 18-20: every segment of neighbouring cells (2+ cells, none empty) whose cards
    share a colour and go strictly up by 1 or strictly down by 1."""
    streets = []
    n = len(line)
    for start in range(n):
        for end in range(start + 2, n + 1):
            segment = list(line[start:end])
            if any(cell is None for cell in segment):
                continue
            if _is_street(segment) or _is_street(segment[::-1]):
                streets.append(segment)
    return streets


def _street_result(level: int, street: list) -> tuple:
    """(points, markers) of one street."""
    k = len(street)
    points = sum(v for v, _ in street)
    if k >= 3:
        return points, k - 2
    # a small street (2 cards) is a number chip ... except level 20's 5-6 (11 points)
    if level == 20 and points >= 11:
        return points, 1
    return points, 0


def _street_line(level: int, line: Sequence[Cell]) -> tuple:
    if level in ANYWHERE_STREET_LEVELS:
        streets = _streets_anywhere(line)
    else:
        streets = _streets_neighbouring(line)
    if not streets:
        return None, -1  # no street: minus marker
    best = None
    for street in streets:
        points, markers = _street_result(level, street)
        key = (ref_value(points, markers), points)  # most valuable; ties -> higher points
        if best is None or key > best[0]:
            best = (key, points, markers)
    return best[1], best[2]


# ---------------------------------------------------------------------------
# points of a line, by level
# ---------------------------------------------------------------------------

def _number_up_points(level: int, cards: list) -> int:
    """Chapter 2 (levels 6-10); colours play no role."""
    counts = Counter(v for v, _ in cards)
    points = 0
    for value, n in counts.items():
        if level == 6:
            if n >= 3:
                points += 9
            elif n == 2:
                points += value
        elif level in (7, 8, 9):
            if value == 1 and n >= 3:
                points += 9          # only 1s make triplets
            elif n >= 2:
                points += value      # a pair (or a non-1 triplet) gives its value once
            elif level in (8, 9):    # n == 1
                points -= value      # singles are subtracted
        elif level == 10:
            if n == 1:
                points += value
    return points


def ref_points(level: int, line: Sequence[Cell]) -> Optional[int]:
    """The line's points by the level's rule (None = no triplet on level 15)."""
    cards = _cards(line)
    if level in (1, 3, 5):
        return _largest_colour_sum(cards)
    if level == 2:
        runs = _runs(line, lambda a, b: a[1] == b[1])
        return max((sum(v for v, _ in run) for run in runs), default=0)
    if level == 4:
        sums = sorted(_colour_sums(cards).values(), reverse=True)
        return sums[1] if len(sums) >= 2 else 0
    if level in (6, 7, 8, 9, 10):
        return _number_up_points(level, cards)
    if level in (11, 12):
        return _largest_colour_count(cards) * _largest_value_count(cards)
    if level == 13:
        colour_runs = _runs(line, lambda a, b: a[1] == b[1])
        value_runs = _runs(line, lambda a, b: a[0] == b[0])
        longest_colour = max((len(r) for r in colour_runs), default=0)
        longest_value = max((len(r) for r in value_runs), default=0)
        return longest_colour * longest_value
    if level == 14:
        return _largest_colour_sum(cards) * _largest_value_count(cards)
    if level == 15:
        if _largest_value_count(cards) >= 3:
            return _largest_colour_sum(cards)
        return None
    raise ValueError(f"level {level} has no points rule here (streets: use ref_line)")


def _check_line(level: int, line: Sequence[Cell]) -> None:
    """Refuse lines that cannot occur on the level (catches mistakes in the tests)."""
    if level not in LEVELS:
        raise ValueError(f"no level {level}")
    lv = LEVELS[level]
    if len(line) != lv.size:
        raise ValueError(f"level {level} lines have {lv.size} cells, got {len(line)}")
    cards = _cards(line)
    for value, colour in cards:
        if not (1 <= value <= lv.values and 0 <= colour < lv.colours):
            raise ValueError(f"card {(value, colour)} is not in level {level}'s deck")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice in the line")


def ref_line(level: int, cards: Sequence[Cell]) -> tuple:
    """(points, markers) of one line.  markers: n >= 1 checkmarkers, 0 number chip,
    -1 minus marker."""
    _check_line(level, cards)
    if level in STREET_LEVELS:
        return _street_line(level, cards)
    points = ref_points(level, cards)
    if points is None or points < 0:
        return points, -1
    markers = sum(1 for t in LEVELS[level].targets if points >= t)
    return points, markers


def ref_value(points: Optional[int], markers: int) -> int:
    """A line's value: 10 per checkmarker, -10 for a minus marker, else the chip."""
    if markers > 0:
        return 10 * markers
    if markers == -1:
        return -10
    return points


# ---------------------------------------------------------------------------
# grids and games
# ---------------------------------------------------------------------------

def ref_grid_lines(level: int, grid: Sequence[Sequence[Cell]]) -> list:
    """The scored lines: rows 0..n-1, columns 0..n-1, then on level 3 diagonal 0 (top-left
    to bottom-right) and diagonal 1 (top-right to bottom-left).  Each item is
    (kind, index, cells)."""
    n = LEVELS[level].size
    if len(grid) != n or any(len(row) != n for row in grid):
        raise ValueError(f"level {level} needs a {n}x{n} grid")
    lines = []
    for r in range(n):
        lines.append(("row", r, [grid[r][c] for c in range(n)]))
    for c in range(n):
        lines.append(("col", c, [grid[r][c] for r in range(n)]))
    if LEVELS[level].diagonals:
        lines.append(("diag", 0, [grid[i][i] for i in range(n)]))
        lines.append(("diag", 1, [grid[i][n - 1 - i] for i in range(n)]))
    return lines


def ref_game_lines(level: int, grid) -> list:
    """[(kind, index, points, markers, value)] for every scored line."""
    out = []
    for kind, index, cells in ref_grid_lines(level, grid):
        points, markers = ref_line(level, cells)
        out.append((kind, index, points, markers, ref_value(points, markers)))
    return out


def ref_game(level: int, grid) -> int:
    """The game result."""
    lines = ref_game_lines(level, grid)
    aggregation = LEVELS[level].aggregation
    if aggregation == "min":
        return 10 * min(value for *_, value in lines)
    if aggregation == "checks":
        # chips count nothing and minus markers do not subtract
        return 10 * sum(markers for _, _, _, markers, _ in lines if markers > 0)
    return sum(value for *_, value in lines)


def ref_medal(level: int, total: int) -> str:
    bronze, silver, gold = LEVELS[level].medals
    if total <= 0:
        return "lost"
    if total >= gold:
        return "gold"
    if total >= silver:
        return "silver"
    if total >= bronze:
        return "bronze"
    return "none"


# ---------------------------------------------------------------------------
# text / array conversion (numberup's conventions), for the tests
# ---------------------------------------------------------------------------

def card_text(cell: Cell) -> str:
    if cell is None:
        return "."
    value, colour = cell
    return f"{value}{COLOUR_LETTERS[colour]}"


def parse_card(token: str) -> Cell:
    if token == ".":
        return None
    value = int(token[:-1])
    colour = COLOUR_LETTERS.index(token[-1])
    return (value, colour)


def parse_line(text: str) -> list:
    return [parse_card(tok) for tok in text.split()]


def line_text(line: Sequence[Cell]) -> str:
    return " ".join(card_text(c) for c in line)


def grid_text(grid) -> str:
    return "\n".join(line_text(row) for row in grid)


def parse_grid(text: str) -> list:
    return [parse_line(row) for row in text.strip().splitlines() if row.strip()]


def card_id(cell: Cell) -> int:
    """numberup's card id: (value-1)*8 + colour; -1 for an empty cell."""
    if cell is None:
        return -1
    value, colour = cell
    return (value - 1) * 8 + colour


def grid_ids(grid) -> list:
    """Row-major flat list of card ids (make it an int8 numpy array in the tests)."""
    return [card_id(cell) for row in grid for cell in row]
