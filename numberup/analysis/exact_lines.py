"""The lines of the exact model (:mod:`numberup.analysis.exact`): a line's value written with
CP-SAT variables, per rule family.

A line's value is the best of a few *options*, exactly one of which the model picks: a
checkmarker option holds only where its condition does (a colour's sum reaches the target, a
street's cards lie in the line, ...); a chip option is worth at most what it counts (a
colour's sum, below the first target); the minus marker, on the levels that have one, holds
always. So whatever the choice the modelled value is at most the line's real value, and the
choice of the real scoring case reaches it. The value of every points figure and every street
comes from the scorer itself (:mod:`numberup.game.scoring`).

The families: colour sum (1, 3, 5), sum of a run of neighbouring same-colour cells (2),
second colour sum (4), the value counts of chapter 2 (6-10: a one-hot of each value's count),
colour count x value count (11, 12), colour run x value run (13), colour sum x value count
(14), triplet then colour sum (15), streets anywhere in the line (16, 17) and streets of
neighbouring cells in order (18-20). On levels 12 and 14 a line's value is its number of
checkmarkers (the result is 10 x their sum).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from ..game import levels as L
from ..game.levels import Level

CHAPTER_2 = (L.RULE_PAIRS, L.RULE_ONES_TRIPLET, L.RULE_ONES_TRIPLET_MINUS, L.RULE_SINGLES)


@cache
def points_value(number: int, points: int) -> tuple[int, int]:
    """(line value, checkmarkers) of a line with ``points`` on level ``number``, as scored."""
    from ..game.scoring import _line_value, _target_markers

    markers = int(_target_markers(L.PARAMS[number], np.int64(points)))
    return int(_line_value(np.int64(points), np.int64(markers))), max(markers, 0)


@cache
def street_value(number: int, values: tuple[int, ...]) -> tuple[int, int]:
    """(line value, checkmarkers) of a line whose best street is ``values``, as scored."""
    from ..game.scoring import _street_value

    v, m = _street_value(L.PARAMS[number], np.int64(len(values)), np.int64(sum(values)))
    return int(v), int(m)


@cache
def count_points(number: int, value: int, count: int) -> int:
    """Chapter 2: the points of ``count`` cards of ``value`` in a line (the rules add up over
    values), scored on a line holding just them."""
    from ..game.grid import geometry
    from ..game.scoring import _line_score

    lv = L.LEVELS[number - 1]
    grid = np.full(lv.size * lv.size, -1, np.int8)
    grid[:count] = [(value - 1) * 8 + k for k in range(count)]  # distinct colours
    points, _ = _line_score(L.PARAMS[number], grid, geometry(lv.size).lines, np.int64(0),
                            lv.size)
    return int(points)


class Board:
    """The model's assignment (``x[t][c]``: card ``t``, id ``cards[t]``, on cell ``c``) and the
    literals every line shares, made once: a cell holds a card of a colour / a value."""

    def __init__(self, m, x, cards):
        self.m, self.x, self.cards = m, x, cards
        self._holds = {}

    def holds(self, cell, colour=None, value=None):
        """The literal "``cell`` holds a card of ``colour`` / ``value``"."""
        key = (cell, colour, value)
        if key not in self._holds:
            b = self.m.NewBoolVar("")
            self.m.Add(b == sum(self.x[t][cell] for t, card in enumerate(self.cards)
                                if _fits(card, colour, value)))
            self._holds[key] = b
        return self._holds[key]


def _fits(card, colour, value):
    return (colour is None or card % 8 == colour) and (value is None or card // 8 + 1 == value)


class _Line:
    """One line's options (see the module); :meth:`value` adds the choice to the model."""

    def __init__(self, board: Board, lv: Level, cells):
        self.board, self.lv, self.cells = board, lv, cells
        self.m, self.x, self.cards = board.m, board.x, board.cards
        self.markers_only = lv.aggregation == L.AGG_MARKERS_X10
        self.options = []  # (constant value, literal conditions, (expr, lo) conditions, chip caps)
        self.chip_cap = 0
        self._inside = {}

    # what lies in the line, as linear expressions of the assignment
    def inside(self, t):
        return sum(self.x[t][c] for c in self.cells)

    def inside_lit(self, t):
        """The literal "card ``t`` lies in the line"."""
        if t not in self._inside:
            b = self.m.NewBoolVar("")
            self.m.Add(b == self.inside(t))
            self._inside[t] = b
        return self._inside[t]

    def colour_sum(self, k):
        return sum((card // 8 + 1) * self.inside(t) for t, card in enumerate(self.cards)
                   if card % 8 == k)

    def count(self, colour=None, value=None):
        return sum(self.inside(t) for t, card in enumerate(self.cards)
                   if _fits(card, colour, value))

    def holds(self, cell, colour=None, value=None):
        return self.board.holds(cell, colour, value)

    # options
    def scored(self, value_markers, lits=(), atleast=()):
        value, markers = value_markers
        self.options.append((markers if self.markers_only else value, list(lits), list(atleast), []))

    def chip(self, caps, lits=(), atleast=()):
        if self.markers_only:
            return
        self.options.append((0, list(lits), list(atleast), list(caps)))
        self.chip_cap = max(self.chip_cap, int(self.lv.targets[0]) - 1 if self.lv.targets else 40)

    def minus(self):
        self.scored((-10, 0))

    def nothing(self):
        self.options.append((0, [], [], []))

    def at_least(self, expr, lo):
        """A literal that implies ``expr >= lo``."""
        b = self.m.NewBoolVar("")
        self.m.Add(expr >= lo).OnlyEnforceIf(b)
        return b

    def any_of(self, lits):
        """A literal that implies one of ``lits``."""
        b = self.m.NewBoolVar("")
        self.m.AddBoolOr(list(lits)).OnlyEnforceIf(b)
        return b

    def all_of(self, lits):
        """A literal that implies all of ``lits``."""
        b = self.m.NewBoolVar("")
        for lit in lits:
            self.m.AddImplication(b, lit)
        return b

    def value(self):
        m = self.m
        picks = [m.NewBoolVar("") for _ in self.options]
        m.AddExactlyOne(picks)
        chip = m.NewIntVar(0, self.chip_cap, "") if self.chip_cap else 0
        chips = []
        for pick, (_, lits, atleast, caps) in zip(picks, self.options):
            for lit in lits:
                m.AddImplication(pick, lit)
            for expr, lo in atleast:
                m.Add(expr >= lo).OnlyEnforceIf(pick)
            for cap in caps:
                m.Add(chip <= cap).OnlyEnforceIf(pick)
            if caps:
                chips.append(pick)
        if self.chip_cap:
            m.Add(chip <= self.chip_cap * sum(chips))
        return sum(v * p for (v, *_), p in zip(self.options, picks) if v) + chip


def line_values(board: Board, lv: Level) -> list:
    """The modelled value of every line of ``lv``'s grid (rows, columns, and the diagonals
    where the level scores them), in the geometry's line order."""
    from ..game.grid import geometry

    lines = geometry(lv.size).lines
    n_lines = 2 * lv.size + (2 if lv.diagonals else 0)
    return [line_value(board, lv, [int(c) for c in lines[li, : lv.size]])
            for li in range(n_lines)]


def line_value(board: Board, lv: Level, cells: list[int]):
    """The modelled value of the line on ``cells`` (an expression; checkmarkers on levels 12 and
    14)."""
    ln = _Line(board, lv, cells)
    n, rule, number = lv.size, lv.rule, lv.number
    targets = [int(t) for t in lv.targets]
    if rule in (L.RULE_COLOUR_SUM, L.RULE_TRIPLET_COLOUR_SUM):
        gate = []
        if rule == L.RULE_TRIPLET_COLOUR_SUM:
            ln.minus()
            gate = [ln.any_of([ln.at_least(ln.count(value=v), 3) for v in range(1, lv.values + 1)])]
        for k in range(lv.colours):
            s = ln.colour_sum(k)
            for t in targets:
                ln.scored(points_value(number, t), gate, [(s, t)])
            ln.chip([s], gate)
    elif rule == L.RULE_COLOUR_SECOND:
        sums = [ln.colour_sum(k) for k in range(lv.colours)]
        for a in range(lv.colours):
            for b in range(a + 1, lv.colours):
                for t in targets:
                    ln.scored(points_value(number, t), (), [(sums[a], t), (sums[b], t)])
                ln.chip([sums[a], sums[b]])
    elif rule in CHAPTER_2:
        terms = []
        for v in range(1, lv.values + 1):
            z = [ln.m.NewBoolVar("") for _ in range(n + 1)]
            ln.m.AddExactlyOne(z)
            ln.m.Add(ln.count(value=v) == sum(j * z[j] for j in range(n + 1)))
            terms += [count_points(number, v, j) * z[j] for j in range(n + 1)
                      if count_points(number, v, j)]
        points = sum(terms)
        if lv.minus:
            ln.minus()
        for t in targets:
            ln.scored(points_value(number, t), (), [(points, t)])
        ln.chip([points])
    elif rule in (L.RULE_COUNT_X_COUNT, L.RULE_SUM_X_COUNT, L.RULE_RUN_X_RUN):
        _products(ln, lv)
    elif rule == L.RULE_COLOUR_RUN_SUM:
        for i in range(n):
            for j in range(i, n):
                run = cells[i:j + 1]
                for k in range(lv.colours):
                    mono = [ln.holds(c, colour=k) for c in run]
                    s = sum((card // 8 + 1) * ln.x[t][c] for c in run
                            for t, card in enumerate(ln.cards) if card % 8 == k)
                    for t in targets:
                        ln.scored(points_value(number, t), mono, [(s, t)])
                    ln.chip([s], mono)
    elif rule == L.RULE_STREET_ANY:
        _streets_anywhere(ln, lv)
    elif rule == L.RULE_STREET_RUN:
        _streets_in_order(ln, lv)
    else:  # pragma: no cover - every rule of the level table is above
        raise ValueError(f"level {number}: no exact model of rule {rule}")
    return ln.value()


def _products(ln: _Line, lv: Level) -> None:
    """(best of one side) x (best of the other): colour count or sum or run x value count or
    run. A literal per threshold says that some colour / value reaches it; an option per pair
    of thresholds gives the value of their product."""
    n, number, rule = lv.size, lv.number, lv.rule
    values = range(1, lv.values + 1)
    colours = range(lv.colours)
    if rule == L.RULE_RUN_X_RUN:
        def reach(a, key):  # some run of ``a`` neighbouring cells of one colour / value
            keys = colours if key == "colour" else values
            return ln.any_of([ln.all_of([ln.holds(c, **{key: k}) for c in ln.cells[i:i + a]])
                              for i in range(n - a + 1) for k in keys])
        side_a = {a: reach(a, "colour") for a in range(2, n + 1)}
        side_b = {b: reach(b, "value") for b in range(2, n + 1)}
    else:
        def of_colour(k):
            return ln.colour_sum(k) if rule == L.RULE_SUM_X_COUNT else ln.count(colour=k)
        if rule == L.RULE_SUM_X_COUNT:  # only the sums that reach a target with some count
            thresholds = {math.ceil(t / b) for t in lv.targets for b in range(1, n + 1)}
        else:
            thresholds = set(range(2, n + 1))
        side_a = {a: ln.any_of([ln.at_least(of_colour(k), a) for k in colours])
                  for a in sorted(thresholds) if a > 1}
        side_b = {b: ln.any_of([ln.at_least(ln.count(value=v), b) for v in values])
                  for b in range(2, n + 1)}
    if rule == L.RULE_SUM_X_COUNT:  # checkmarkers only: the least sum for each target and count
        ln.nothing()
        for t in lv.targets:
            for b in range(1, n + 1):
                a = math.ceil(t / b)
                lits = ([side_a[a]] if a > 1 else []) + ([side_b[b]] if b > 1 else [])
                ln.scored(points_value(number, int(t)), lits)
        return
    for a in range(1, n + 1):  # a lone card is a run / a count of one
        for b in range(1, n + 1):
            lits = ([side_a[a]] if a > 1 else []) + ([side_b[b]] if b > 1 else [])
            ln.scored(points_value(number, a * b), lits)


def _streets_anywhere(ln: _Line, lv: Level) -> None:
    """A street's cards are single cards of the deck: it holds when each lies in the line."""
    index = {card: t for t, card in enumerate(ln.cards)}
    ln.minus()
    for k in range(lv.colours):
        for length in range(2, lv.size + 1):
            for low in range(1, lv.values - length + 2):
                values = tuple(range(low, low + length))
                ts = [index.get((v - 1) * 8 + k) for v in values]
                if None not in ts:
                    ln.scored(street_value(lv.number, values), [ln.inside_lit(t) for t in ts])


def _streets_in_order(ln: _Line, lv: Level) -> None:
    """Streets of neighbouring cells, by links: ``up[i]`` says that cell ``i + 1`` of the line
    holds the card of cell ``i``'s colour one value higher (``down[i]``: one lower). A street
    of three or more cards is a chain of links one way (its value does not depend on its
    values); a street of two is one link and the lower card's value."""
    n, number = lv.size, lv.number
    m, x, cards, cells = ln.m, ln.x, ln.cards, ln.cells
    index = {card: t for t, card in enumerate(cards)}
    links = {}
    for step in (1, -1):
        for i in range(n - 1):
            link = m.NewBoolVar("")
            for t, card in enumerate(cards):
                nxt = index.get(card + 8 * step) if 1 <= card // 8 + 1 + step <= lv.values else None
                if nxt is None:
                    m.AddBoolOr([link.Not(), x[t][cells[i]].Not()])
                else:
                    m.AddBoolOr([link.Not(), x[t][cells[i]].Not(), x[nxt][cells[i + 1]]])
            links[step, i] = link
    ln.minus()
    for step in (1, -1):
        for length in range(3, n + 1):
            for i in range(n - length + 1):
                ln.scored(street_value(number, tuple(range(1, length + 1))),
                          [links[step, j] for j in range(i, i + length - 1)])
        for i in range(n - 1):
            low_cell = cells[i] if step == 1 else cells[i + 1]
            for low in range(1, lv.values):
                ln.scored(street_value(number, (low, low + 1)),
                          [links[step, i], ln.holds(low_cell, value=low)])
