"""The running score of a game: each line's points, markers and value as the state keeps them,
and the game result of the grid as it stands.

Each line's score is kept up to date in the state (:class:`numberup.game.state.State`), so a
placement rescores only the lines through its cell (:func:`_rescore_cell`, called by
:func:`numberup.game.engine._place` when ``ints[I_TRACK]`` is set), and a player or a search can
ask for the result if a card went on a cell without placing it (:func:`_result_if`). The lines
are scored by the kernels of :mod:`numberup.game.scoring`.
"""

from __future__ import annotations

from . import levels as L
from ..jit import kernel
from .scoring import _aggregate, _line_score, _line_value


@kernel(inline="always")
def _rescore_line(p, geo, S, li, n):
    """Score line ``li`` afresh into the state."""
    points, markers = _line_score(p, S.grid, geo.lines, li, n)
    S.line_points[li] = points
    S.line_markers[li] = markers
    S.line_values[li] = _line_value(points, markers)


@kernel
def _rescore_all(p, geo, S):
    """Score every line afresh (at the start, and at the end of an untracked game)."""
    for li in range(p[L.P_NLINES]):
        _rescore_line(p, geo, S, li, p[L.P_SIZE])


@kernel(inline="always")
def _rescore_cell(p, geo, S, cell):
    """Rescore the lines through ``cell``."""
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li >= 0 and li < p[L.P_NLINES]:
            _rescore_line(p, geo, S, li, p[L.P_SIZE])


@kernel(inline="always")
def _aggregate_lines(agg, values, markers, n_lines):
    acc_sum, acc_min, acc_markers = 0, 1 << 30, 0
    for li in range(n_lines):
        acc_sum += values[li]
        acc_min = min(acc_min, values[li])
        acc_markers += max(markers[li], 0)
    return _aggregate(agg, acc_sum, acc_min, acc_markers)


@kernel(inline="always")
def _result(p, S):
    """The game result of the grid as it stands."""
    return _aggregate_lines(p[L.P_AGG], S.line_values, S.line_markers, p[L.P_NLINES])


@kernel(inline="always")
def _line_sums(p, S):
    """(sum of line values, sum of checkmarkers) of the grid as it stands."""
    acc_sum, acc_markers = 0, 0
    for li in range(p[L.P_NLINES]):
        acc_sum += S.line_values[li]
        acc_markers += max(S.line_markers[li], 0)
    return acc_sum, acc_markers


@kernel(inline="always")
def _result_if(p, geo, S, card, cell, base_sum, base_markers):
    """(game result, sum of line values) if ``card`` went on ``cell``; the state is left as
    it was. ``base_sum``, ``base_markers``: :func:`_line_sums` of the state, so that only the
    lines through ``cell`` are rescored. The sum tells apart grids of equal result on levels
    scored by the lowest line or by checkmarkers alone."""
    n = p[L.P_SIZE]
    nl = p[L.P_NLINES]
    agg = p[L.P_AGG]
    S.grid[cell] = card
    acc_sum, acc_markers = base_sum, base_markers
    for k in range(4):
        li = geo.cell_lines[cell, k]
        if li < 0 or li >= nl:
            continue
        points, markers = _line_score(p, S.grid, geo.lines, li, n)
        value = _line_value(points, markers)
        acc_sum += value - S.line_values[li]
        acc_markers += max(markers, 0) - max(S.line_markers[li], 0)
        S.touched[k] = value
    acc_min = 1 << 30
    if agg == L.AGG_MIN_X10:
        for li in range(nl):
            value = S.line_values[li]
            for k in range(4):
                if geo.cell_lines[cell, k] == li:
                    value = S.touched[k]
            acc_min = min(acc_min, value)
    S.grid[cell] = -1
    return _aggregate(agg, acc_sum, acc_min, acc_markers), acc_sum
