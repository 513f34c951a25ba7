"""The 20 levels of the Challenge Booklet, as data.

Every other module reads this table: the deck, the grid, the lines that are scored, the line
rule, the targets, the aggregation into a game result, the specials (discards, a hand), the
medal thresholds and the rulings that apply. A level is one row here plus, at most, one rule
kernel in :mod:`numberup.game.scoring`.

The jitted kernels cannot take these dataclasses, so :data:`PARAMS` packs every level into one
row of a small ``int64`` array; the ``P_*`` constants name its columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# ---------------------------------------------------------------------------------------------
# Line rules. Each id is one branch of numberup.game.scoring._line_score.
RULE_COLOUR_SUM = 0  # largest same-colour sum (levels 1, 3, 5)
RULE_COLOUR_RUN_SUM = 1  # largest sum of a run of neighbouring same-colour cards (2)
RULE_COLOUR_SECOND = 2  # second-largest colour sum (4)
RULE_PAIRS = 3  # triplet 9, pair its value, single 0 (6)
RULE_ONES_TRIPLET = 4  # only 1s make triplets; pairs their value (7)
RULE_ONES_TRIPLET_MINUS = 5  # as 7, singles subtracted (8, 9)
RULE_SINGLES = 6  # sum of the values present exactly once (10)
RULE_COUNT_X_COUNT = 7  # largest colour count x largest value count (11, 12)
RULE_RUN_X_RUN = 8  # longest colour run x longest value run (13)
RULE_SUM_X_COUNT = 9  # largest colour sum x largest value count (14)
RULE_TRIPLET_COLOUR_SUM = 10  # largest colour sum if some value is a triplet, else minus (15)
RULE_STREET_ANY = 11  # most valuable street, cards anywhere in the line (16, 17)
RULE_STREET_RUN = 12  # most valuable street of neighbouring cells in order (18, 19, 20)

RULE_NAMES = {
    RULE_COLOUR_SUM: "colour-sum",
    RULE_COLOUR_RUN_SUM: "colour-run-sum",
    RULE_COLOUR_SECOND: "second-colour-sum",
    RULE_PAIRS: "pairs-and-triplets",
    RULE_ONES_TRIPLET: "ones-triplet",
    RULE_ONES_TRIPLET_MINUS: "ones-triplet-singles-minus",
    RULE_SINGLES: "singles-sum",
    RULE_COUNT_X_COUNT: "colour-count-x-value-count",
    RULE_RUN_X_RUN: "colour-run-x-value-run",
    RULE_SUM_X_COUNT: "colour-sum-x-value-count",
    RULE_TRIPLET_COLOUR_SUM: "triplet-then-colour-sum",
    RULE_STREET_ANY: "street-anywhere",
    RULE_STREET_RUN: "street-in-order",
}

# How the line values make the game result.
AGG_SUM = 0  # sum of all line values
AGG_MIN_X10 = 1  # 10 x the lowest line value (levels 3, 20)
AGG_MARKERS_X10 = 2  # 10 x the number of checkmarkers (levels 12, 14)

AGG_NAMES = {
    AGG_SUM: "sum of line values",
    AGG_MIN_X10: "10 x lowest line value",
    AGG_MARKERS_X10: "10 x checkmarkers",
}

MAX_TARGETS = 4
MEDALS = ("bronze", "silver", "gold")

# Rulings, in the project's words. Levels name the ones that apply to them.
RULINGS = {
    "final-grid": (
        "Scoring uses the final grid only. Chapters 1-2 place checkmarkers 'as soon as' a "
        "target is reached, but every rule there is monotone in the cards added, so the final "
        "grid gives the same result."
    ),
    "lone-run": "A lone card is a run of one.",
    "min-checkmarked": (
        "For '10 x lowest line value', a checkmarked line counts 10 per checkmarker."
    ),
    "second-colour": (
        "The second-strongest colour is the second entry of the colour sums sorted high to "
        "low: ties count (7 and 7 gives 7); a line with one colour scores 0."
    ),
    "street-six": "On a 6x6 line with values 1-6 a 6-street earns four checkmarkers.",
    "street-best": (
        "A line's street is the one worth most (checkmarkers over chips); between equals, the "
        "one with the larger sum is reported as the line's points."
    ),
    "hand-setup": "Setup cards come from the deck, as in every level; the hand is drawn after.",
    "discard-turns": (
        "Discards apply to cards drawn in turns; the setup card(s) on the centre cannot be "
        "discarded."
    ),
    "partial": (
        "An unfinished line is scored on the cards present (empty cells break runs); this is "
        "only used by players judging a grid mid-game."
    ),
}


@dataclass(frozen=True)
class Chapter:
    number: int
    name: str
    medals: tuple[int, int, int]  # bronze, silver, gold
    levels: tuple[int, ...]


@dataclass(frozen=True)
class Level:
    """One level of the Challenge Booklet.

    Attributes
    ----------
    number : int
        1..20.
    chapter : int
        1..4.
    values : int
        Card values are 1..values (5 or 6).
    colours : int
        Number of colours, 6, 7 or 8; the first ``colours`` letters of ``rgyobnpm``.
    size : int
        Grid side, 5 or 6.
    diagonals : bool
        Whether both main diagonals are scored (level 3).
    rule : int
        A ``RULE_*`` id.
    targets : tuple of int
        Points needed for 1, 2, ... checkmarkers (ascending). For streets: the sum a 2-street
        needs for one checkmarker (level 20: 5-6 = 11).
    aggregation : int
        An ``AGG_*`` id.
    medals : tuple of int
        Bronze, silver, gold thresholds.
    discards : int
        Cards the player may refuse per game (levels 3, 13).
    hand : int
        Hand size, 0 for draw-and-place (levels 18-20: 5).
    minus : str
        When a line takes a minus marker, in words ('' for never).
    summary : str
        The line rule in one line.
    text : str
        The full rule.
    rulings : tuple of str
        Keys of :data:`RULINGS` that apply.
    """

    number: int
    chapter: int
    values: int
    colours: int
    size: int
    rule: int
    targets: tuple[int, ...]
    aggregation: int
    medals: tuple[int, int, int]
    summary: str
    text: str
    diagonals: bool = False
    discards: int = 0
    hand: int = 0
    minus: str = ""
    rulings: tuple[str, ...] = ("partial",)

    @property
    def deck_size(self) -> int:
        return self.values * self.colours

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def deck_text(self) -> str:
        return f"{self.deck_size} cards 1-{self.values} x{self.colours}"

    def medal(self, total: int) -> str:
        """``'gold'``, ``'silver'``, ``'bronze'``, ``'none'`` or ``'lost'`` (total <= 0)."""
        if total <= 0:
            return "lost"
        for name, threshold in zip(reversed(MEDALS), reversed(self.medals)):
            if total >= threshold:
                return name
        return "none"


_R = ("partial",)
_EARLY = ("final-grid", "partial")  # chapters 1-2 before level 8 place markers "as soon as"
_STREETS = (
    "A street is 2+ cards of one colour with consecutive values. 2 cards: a chip worth their "
    "sum; 3 cards: one checkmarker, 4: two, 5: three (6: four). No street: minus marker (-10)."
)

LEVELS: tuple[Level, ...] = (
    Level(1, 1, 5, 6, 5, RULE_COLOUR_SUM, (9,), AGG_SUM, (60, 70, 80),
          "largest same-colour sum",
          "Per line: the largest sum of the card values of one colour; the cards need not lie "
          "next to each other. Result: the sum of all line values.",
          rulings=_EARLY),
    Level(2, 1, 5, 6, 5, RULE_COLOUR_RUN_SUM, (8,), AGG_SUM, (60, 70, 80),
          "largest sum of neighbouring same-colour cards",
          "Per line: as level 1, but only cards of one colour lying next to each other without "
          "gaps count: the largest sum over the runs of neighbouring same-colour cards. "
          "Result: the sum of all line values.",
          rulings=_EARLY + ("lone-run",)),
    Level(3, 1, 5, 6, 5, RULE_COLOUR_SUM, (8,), AGG_MIN_X10, (40, 50, 60),
          "largest same-colour sum; rows, columns, diagonals; 10 x lowest",
          "Per line (rows, columns and both main diagonals): the largest same-colour sum. "
          "Up to two drawn cards may be discarded. Result: 10 x the lowest line value.",
          diagonals=True, discards=2, rulings=_EARLY + ("min-checkmarked", "discard-turns")),
    Level(4, 1, 5, 6, 5, RULE_COLOUR_SECOND, (6,), AGG_SUM, (40, 50, 60),
          "second-largest colour sum",
          "Per line: only the second-strongest colour counts (its sum of values). "
          "Result: the sum of all line values.",
          rulings=_EARLY + ("second-colour",)),
    Level(5, 1, 5, 8, 6, RULE_COLOUR_SUM, (9,), AGG_SUM, (80, 90, 100),
          "largest same-colour sum (6x6)",
          "As level 1 on the 6x6 grid with 40 cards in 8 colours. Result: the sum of all line "
          "values.",
          rulings=_EARLY),
    Level(6, 2, 5, 6, 5, RULE_PAIRS, (9,), AGG_SUM, (70, 80, 90),
          "triplet 9, pair its value",
          "Per line: each value present 3+ times gives 9; each value present exactly twice "
          "gives that value; singles give 0; add up. Colours play no role.",
          rulings=_EARLY),
    Level(7, 2, 5, 6, 5, RULE_ONES_TRIPLET, (7,), AGG_SUM, (60, 70, 80),
          "only 1s make triplets; pairs their value",
          "Per line: 1 present 3+ times gives 9; any value present 2+ times (1s when only "
          "twice) gives that value once; singles give 0; add up.",
          rulings=_EARLY),
    Level(8, 2, 5, 6, 5, RULE_ONES_TRIPLET_MINUS, (5, 10), AGG_SUM, (50, 60, 70),
          "as 7, singles subtract",
          "Per line: as level 7, and each value present exactly once is subtracted. "
          "5 points: one checkmarker, 10: two; below 0: minus marker.",
          minus="points below 0"),
    Level(9, 2, 6, 7, 6, RULE_ONES_TRIPLET_MINUS, (5, 10), AGG_SUM, (80, 90, 100),
          "as 8 (6x6)",
          "As level 8 on the 6x6 grid with 42 cards 1-6 in 7 colours.",
          minus="points below 0"),
    Level(10, 2, 5, 6, 5, RULE_SINGLES, (9,), AGG_SUM, (80, 90, 100),
          "sum of values present once",
          "Per line: the sum of the card values that occur exactly once in the line."),
    Level(11, 3, 5, 6, 5, RULE_COUNT_X_COUNT, (8,), AGG_SUM, (50, 60, 70),
          "colour count x value count",
          "Per line: (largest number of cards of one colour) x (largest number of cards of one "
          "value)."),
    Level(12, 3, 6, 7, 6, RULE_COUNT_X_COUNT, (8, 12), AGG_MARKERS_X10, (80, 100, 120),
          "colour count x value count (6x6); 10 x checkmarkers",
          "As level 11 on the 6x6 grid with 42 cards 1-6 in 7 colours. 8 points: one "
          "checkmarker, 12: two. Result: 10 x the number of checkmarkers."),
    Level(13, 3, 5, 6, 5, RULE_RUN_X_RUN, (6,), AGG_SUM, (50, 60, 70),
          "colour run x value run",
          "Per line: (longest run of neighbouring cards of one colour) x (longest run of "
          "neighbouring cards of one value). Up to two drawn cards may be discarded.",
          discards=2, rulings=_R + ("lone-run", "discard-turns")),
    Level(14, 3, 5, 6, 5, RULE_SUM_X_COUNT, (9, 18, 27, 36), AGG_MARKERS_X10, (160, 180, 200),
          "colour sum x value count; 10 x checkmarkers",
          "Per line: (largest same-colour sum) x (largest number of cards of one value). "
          "9/18/27/36 points: 1/2/3/4 checkmarkers. Result: 10 x the number of checkmarkers."),
    Level(15, 3, 6, 7, 6, RULE_TRIPLET_COLOUR_SUM, (9, 13), AGG_SUM, (80, 90, 100),
          "triplet needed, then colour sum (6x6)",
          "Per line: if some value is present 3+ times, the largest same-colour sum (9: one "
          "checkmarker, 13: two); else a minus marker.",
          minus="no triplet"),
    Level(16, 4, 5, 6, 5, RULE_STREET_ANY, (), AGG_SUM, (40, 60, 80),
          "best street, cards anywhere",
          _STREETS + " Street cards may lie anywhere in the line.",
          minus="no street", rulings=_R + ("street-best",)),
    Level(17, 4, 5, 8, 6, RULE_STREET_ANY, (), AGG_SUM, (70, 90, 110),
          "best street, cards anywhere (6x6)",
          _STREETS + " Street cards may lie anywhere in the line. 6x6, 40 cards, 8 colours.",
          minus="no street", rulings=_R + ("street-best",)),
    Level(18, 4, 5, 6, 5, RULE_STREET_RUN, (), AGG_SUM, (40, 60, 80),
          "best street of neighbouring cards in order; hand of five",
          _STREETS + " Street cards must be neighbouring cells in ascending or descending "
          "order (2-3-2 is not a 3-street). Play from a hand of five.",
          hand=5, minus="no street", rulings=_R + ("street-best", "hand-setup")),
    Level(19, 4, 5, 8, 6, RULE_STREET_RUN, (), AGG_SUM, (90, 110, 130),
          "as 18 (6x6); hand of five",
          _STREETS + " Street cards must be neighbouring cells in order. 6x6, 40 cards, "
          "8 colours. Play from a hand of five.",
          hand=5, minus="no street", rulings=_R + ("street-best", "hand-setup")),
    Level(20, 4, 6, 7, 6, RULE_STREET_RUN, (11,), AGG_MIN_X10, (30, 50, 70),
          "as 18 (6x6, 1-6), 5-6 earns a checkmarker; 10 x lowest",
          _STREETS + " Street cards must be neighbouring cells in order. 6x6, 42 cards 1-6, "
          "7 colours; the small street 5-6 (11) earns one checkmarker. Play from a hand of "
          "five. Result: 10 x the lowest line value (a minus marker loses the game).",
          hand=5, minus="no street",
          rulings=_R + ("street-best", "street-six", "min-checkmarked", "hand-setup")),
)

CHAPTERS: tuple[Chapter, ...] = (
    Chapter(1, "COLOR-UP", (250, 300, 350), (1, 2, 3, 4, 5)),
    Chapter(2, "NUMBER-UP", (300, 350, 400), (6, 7, 8, 9, 10)),
    Chapter(3, "MIX-UP", (380, 450, 520), (11, 12, 13, 14, 15)),
    Chapter(4, "STREET-UP", (200, 300, 400), (16, 17, 18, 19, 20)),
)


def get_level(number: int | Level) -> Level:
    """The level with this number (1..20); a Level is returned as it is."""
    if isinstance(number, Level):
        return number
    if not isinstance(number, (int, np.integer)) or not 1 <= number <= len(LEVELS):
        raise ValueError(f"level must be a whole number from 1 to {len(LEVELS)}, not {number!r}")
    return LEVELS[int(number) - 1]


# ---------------------------------------------------------------------------------------------
# The packed table the kernels read: PARAMS[level] is one int64 row (row 0 unused).
P_SIZE = 0
P_VALUES = 1
P_COLOURS = 2
P_RULE = 3
P_NTARGETS = 4
P_TARGET0 = 5  # ..P_TARGET0 + MAX_TARGETS - 1
P_AGG = P_TARGET0 + MAX_TARGETS
P_DIAGONALS = P_AGG + 1
P_DISCARDS = P_AGG + 2
P_HAND = P_AGG + 3
P_NLINES = P_AGG + 4
P_BRONZE = P_AGG + 5
P_SILVER = P_AGG + 6
P_GOLD = P_AGG + 7
P_LEVEL = P_AGG + 8  # the level's own number
N_PARAMS = P_AGG + 9


def _pack(level: Level) -> np.ndarray:
    row = np.zeros(N_PARAMS, dtype=np.int64)
    row[P_SIZE] = level.size
    row[P_VALUES] = level.values
    row[P_COLOURS] = level.colours
    row[P_RULE] = level.rule
    row[P_NTARGETS] = len(level.targets)
    row[P_TARGET0 : P_TARGET0 + len(level.targets)] = level.targets
    row[P_AGG] = level.aggregation
    row[P_DIAGONALS] = level.diagonals
    row[P_DISCARDS] = level.discards
    row[P_HAND] = level.hand
    row[P_NLINES] = 2 * level.size + 2 * level.diagonals
    row[P_BRONZE], row[P_SILVER], row[P_GOLD] = level.medals
    row[P_LEVEL] = level.number
    return row


PARAMS = np.stack([np.zeros(N_PARAMS, dtype=np.int64)] + [_pack(lv) for lv in LEVELS])
PARAMS.setflags(write=False)
