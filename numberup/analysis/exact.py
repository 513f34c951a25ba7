"""The exact model of one deal with the order known: a constraint programme (OR-Tools CP-SAT).

Every level is modelled, with every rule of the game:

- ``x[t, c]`` true: card ``t`` of the deck (draw order) lies on cell ``c`` at the end. The
  cards that can reach the grid: the first ``cells`` (draw and place), the first ``cells +
  discards`` (discards: exactly ``cells`` of them placed, the others discarded or never
  drawn), or the whole deck (hand of five: the cards still in the hand at the end are not
  placed). Every cell holds one card, every card lies on at most one cell.
- ``turn[c]``: the turn at which cell ``c`` is filled. Without a hand card ``t`` is placed at
  turn ``t`` (``turn[c] = sum t x[t, c]``). With a hand the turns are a permutation of the
  cells and a card is placed no earlier than it is drawn: card ``t`` is in the hand from turn
  ``t - 4`` on (the five of the first hand from the first turn after the setup).
- setup: on 5x5 card 0 on the centre; on 6x6 cards 0-3 on the four centre cells, card ``t``
  at turn ``t`` (any centre cell).
- adjacency: every other cell has a neighbour filled at an earlier turn (a card touches a
  card placed before it).
- each line's value by the level's rule (:mod:`numberup.analysis.exact_lines`), and the
  result: the sum of the line values, 10 x the number of checkmarkers (levels 12, 14) or 10 x
  the lowest line value (levels 3, 20).

Every rule is written so that whatever the auxiliary choices a line's modelled value is at most
its real value, and one choice reaches it: the model's optimum is the deal's best game and the
solver's bound a proven bound of every game on it.

The solver runs on one thread with a deterministic time limit (CP-SAT's own measure of work,
about a second of a typical core each), so the same deal gives the same answer whatever
``--jobs`` and the machine's speed (with the same OR-Tools). A game it returns is replayed through the engine, which must give the
model's result. It starts from a given game (the best the searches found) and is told a known
upper bound, so it stops as soon as it proves either.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..game import levels as L
from ..game.levels import Level, get_level
from .exact_lines import Board, line_values

LEVELS = tuple(range(1, 21))


def supported(level: int | Level) -> bool:
    """Whether :func:`exact` models ``level`` (every level)."""
    return get_level(level).number in LEVELS


def _cp_model():
    try:
        from ortools.sat.python import cp_model
    except ImportError:  # pragma: no cover - depends on the install
        raise InputError("the exact model needs OR-Tools: pip install 'numberup[exact]'") from None
    return cp_model


@dataclass
class Exact:
    """One deal's exact model, solved within a deterministic time limit.

    ``found``: the result of the best game the solver found (``moves``: its decisions, int8
    rows (card, cell or -1), replayed legally through the engine), or ``None`` when it found
    none in the time. ``optimal``: that game is proven optimal. ``bound``: a proven upper bound
    of every game's result on the deal (the optimum when proven). ``hit_limit``: the time limit
    stopped the solver before it proved the optimum. ``work``: the deterministic time used."""
    level: int
    optimal: bool
    found: int | None
    moves: np.ndarray | None
    bound: float
    seconds: float
    hit_limit: bool
    work: float = 0.0


class DealModel:
    """The model of one deal (see the module): ``model``, ``x[t][c]``, ``turn[c]``, ``cards``
    (the deck's first ``len(x)`` cards), ``result`` (the objective's variable or expression,
    in the level's result units divided by ``scale``)."""

    def __init__(self, level: Level, deck: np.ndarray):
        from ..game.grid import geometry

        cp_model = _cp_model()
        lv = self.level = level
        geo = self.geo = geometry(lv.size)
        m = self.model = cp_model.CpModel()
        n_cells = lv.cells
        setup = self.setup = len(geo.centre)
        centre = [int(c) for c in geo.centre]
        n_cards = len(deck) if lv.hand else min(len(deck), n_cells + lv.discards)
        self.cards = [int(c) for c in deck[:n_cards]]
        far = _distance_from_start(geo)
        x = self.x = [[m.NewBoolVar(f"x{t}_{c}") for c in range(n_cells)] for t in range(n_cards)]
        for t in range(n_cards):
            for c in range(n_cells):
                if (t < setup) != (c in centre) or (
                        t >= setup and not lv.hand and far[c] > t - setup + 1):
                    m.Add(x[t][c] == 0)  # the setup on the centre; a card near its turn
            m.AddAtMostOne(x[t])
        for c in range(n_cells):
            m.AddExactlyOne([x[t][c] for t in range(n_cards)])
        for t in range(setup):
            m.AddExactlyOne([x[t][c] for c in centre])
        turn = self.turn = [m.NewIntVar(0, n_cards - 1, f"turn{c}") for c in range(n_cells)]
        if lv.hand:
            for c in range(n_cells):
                m.Add(turn[c] <= n_cells - 1)
                m.Add(turn[c] >= sum(drawn_by(lv, setup, t) * x[t][c] for t in range(n_cards)))
            m.AddAllDifferent(turn)
            for t in range(setup):
                for c in centre:
                    m.Add(turn[c] == t).OnlyEnforceIf(x[t][c])
        else:
            for c in range(n_cells):
                m.Add(turn[c] == sum(t * x[t][c] for t in range(n_cards)))
        for c in range(n_cells):
            if c in centre:
                continue
            earlier = []
            for d in geo.neighbours[c]:
                if d >= 0:
                    e = m.NewBoolVar("")
                    m.Add(turn[int(d)] < turn[c]).OnlyEnforceIf(e)
                    earlier.append(e)
            m.AddBoolOr(earlier)
        values = line_values(Board(m, x, self.cards), lv)
        if lv.aggregation == L.AGG_MIN_X10:
            low = m.NewIntVar(-10, 40, "lowest")
            for v in values:
                m.Add(low <= v)
            self.result, self.scale = low, 10
        elif lv.aggregation == L.AGG_MARKERS_X10:
            self.result, self.scale = sum(values), 10  # the lines' values are markers here
        else:
            self.result, self.scale = sum(values), 1
        m.Maximize(self.result)

    def decisions(self, moves) -> list[tuple[int, int, int]]:
        """(card index, cell or -1, turn) of each decision of ``moves`` (rows (card, cell or
        -1) in the order played); :class:`ValueError` where they are not a game of the deck."""
        lv, out = self.level, []
        index = {card: t for t, card in enumerate(self.cards)}
        rows = [(int(a), int(b)) for a, b in np.asarray(moves).reshape(-1, 2) if a >= 0]
        placed = 0
        for k, (card, cell) in enumerate(rows):
            t = index.get(card)
            if (t is None or not -1 <= cell < lv.cells or (not lv.hand and t != k)
                    or (cell < 0 and not lv.discards)):
                raise ValueError("the decisions given are not a game of this deck")
            out.append((t, cell, placed))
            placed += cell >= 0
        return out

    def fix(self, moves) -> None:
        """Fix the decisions ``moves`` (a game's first decisions)."""
        for t, cell, turn in self.decisions(moves):
            if cell < 0:
                self.model.Add(sum(self.x[t]) == 0)
            else:
                self.model.Add(self.x[t][cell] == 1)
                if self.level.hand:
                    self.model.Add(self.turn[cell] == turn)

    def hint(self, moves, cp_model, seconds: float) -> float:
        """Start the solver from the whole game ``moves``: the game is first completed into a
        value of every variable of the model (a short solve with its cells assumed), which
        becomes the hint, so that the solver's first solution is that game. Returns the
        deterministic time the completion took."""
        m = self.model
        at = [(t, cell, turn) for t, cell, turn in self.decisions(moves) if cell >= 0]
        if self.level.hand:
            for t, cell, turn in at:
                m.AddHint(self.turn[cell], turn)
        m.AddAssumptions([self.x[t][cell] for t, cell, _ in at])
        solver = _solver(cp_model, seconds)
        status = solver.Solve(m)
        m.ClearAssumptions()
        m.ClearHints()
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            values = list(solver.ResponseProto().solution)
            m.Proto().solution_hint.vars.extend(range(len(values)))
            m.Proto().solution_hint.values.extend(values)
        return solver.deterministic_time

    def moves(self, solver) -> np.ndarray:
        """The solver's game as decisions (rows (card, cell or -1), padded with -1)."""
        from ..runs.loop import max_moves

        lv = self.level
        cell_of = {t: c for t, row in enumerate(self.x) for c, v in enumerate(row)
                   if solver.BooleanValue(v)}
        if lv.hand:
            turns = {c: solver.Value(self.turn[c]) for c in range(lv.cells)}
            rows = [(self.cards[t], c) for t, c in sorted(cell_of.items(),
                                                          key=lambda tc: turns[tc[1]])]
        else:
            rows, placed = [], 0
            for t, card in enumerate(self.cards):
                if placed == lv.cells:
                    break  # the rest are never drawn
                rows.append((card, cell_of.get(t, -1)))
                placed += t in cell_of
        out = np.full((max_moves(lv), 2), -1, np.int8)
        out[: len(rows)] = rows
        return out


def drawn_by(level: Level, setup: int, t: int) -> int:
    """The first turn at which card ``t`` (draw order) can be placed: the setup cards at
    their own turn; with a hand of ``h`` the first hand's ``h`` cards at the first turn after
    the setup, every later card one turn after the card ``h`` before it."""
    if t < setup or not level.hand:
        return t
    return max(setup, t - (level.hand - 1))


def _distance_from_start(geo) -> list[int]:
    """Steps from each cell to the nearest setup cell (a card ``k`` turns after the setup lies
    at most ``k`` steps out)."""
    n = geo.size
    return [min(abs(c // n - s // n) + abs(c % n - s % n) for s in geo.centre)
            for c in range(n * n)]


def _solver(cp_model, seconds: float):
    """CP-SAT on one thread, its whole portfolio in turns, stopped by deterministic time: the
    same answer on any machine."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.interleave_search = True
    solver.parameters.max_deterministic_time = float(seconds)
    return solver


def _replayed_score(lv: Level, deck, value: int, moves, optimal: bool,
                    whose: str = "exact model's") -> int:
    """The real result of the solver's game, replayed through the engine: at least the model's
    ``value`` (the model never values a line above its score), and equal to it when proven
    optimal; :class:`RuntimeError` otherwise (a fault of the model)."""
    from .warm import replayed

    what = f"level {lv.number}: the {whose} game"
    try:
        got, played = replayed(lv, np.asarray(deck), moves)
    except ValueError:
        raise RuntimeError(f"{what} is not a legal game of its deck") from None
    if got < value or (optimal and got != value) or not np.array_equal(played, moves):
        raise RuntimeError(f"{what} replays to {got}, not {value}")
    return int(got)


def build(level: int | Level, deck: np.ndarray, prefix=None) -> DealModel:
    """The model of the deal ``deck`` (draw order) after the decisions ``prefix``."""
    dm = DealModel(get_level(level), np.asarray(deck))
    if prefix is not None:
        dm.fix(prefix)
    return dm


def exact(level: int | Level, deck: np.ndarray, seconds: float = 10.0, prefix=None,
          start=None, at_least: int | None = None, at_most: float | None = None) -> Exact:
    """Solve the deal's exact model within ``seconds`` of deterministic time (see the
    module). ``prefix``: decisions fixed; ``start``: a whole game to start from (its moves);
    ``at_least``/``at_most``: a result the best game reaches / a proven bound already known,
    which the solver may use to stop early (neither changes the optimum)."""
    cp_model = _cp_model()
    lv = get_level(level)
    t0 = time.perf_counter()
    dm = build(lv, deck, prefix)
    work = 0.0
    if start is not None:
        work = dm.hint(start, cp_model, min(1.0, seconds))
    if at_least is not None:
        dm.model.Add(dm.result * dm.scale >= int(at_least))
    if at_most is not None and math.isfinite(at_most):
        dm.model.Add(dm.result * dm.scale <= int(math.floor(at_most)))
    solver = _solver(cp_model, seconds)
    status = solver.Solve(dm.model)
    seconds_used = time.perf_counter() - t0
    if status == cp_model.INFEASIBLE:
        if at_least is not None or at_most is not None:
            raise ValueError("the given result or bound does not hold for this deal")
        raise ValueError("the decisions given are not a game of this deck")
    optimal = status == cp_model.OPTIMAL
    step = dm.scale
    known = float(math.floor(at_most)) if at_most is not None and math.isfinite(at_most) else math.inf
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # stopped before a first game:
        return Exact(lv.number, False, None, None, known, seconds_used, True,  # no bound yet
                     work + solver.deterministic_time)
    bound = min(known, math.floor(solver.BestObjectiveBound() + 1e-6) * step)
    value = int(round(solver.ObjectiveValue())) * step
    moves = dm.moves(solver)
    value = _replayed_score(lv, deck, value, moves, optimal)
    return Exact(lv.number, optimal, value, moves, float(value if optimal else bound),
                 seconds_used, not optimal, work + solver.deterministic_time)
