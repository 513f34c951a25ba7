"""Scoring: numba kernels for the points, markers and value of a line, and the game result.

Kernels (underscore names) take arrays and scalars only:

- ``p``: one row of :data:`numberup.game.levels.PARAMS` (``int64``), the level;
- ``grid``: ``int8`` card ids, row-major, ``-1`` empty (see :mod:`numberup.game.cards`);
- ``lines``: the ``int64`` line table of :func:`numberup.game.grid.geometry`.

A line's cards are first summed into three packed ``uint64`` words, one byte per colour or
value, so no kernel allocates: ``colour_sum`` (byte c: sum of the values of colour c),
``colour_count``, ``value_count`` (byte v-1: how many cards of value v), and, for streets,
``street_mask`` (byte c: bit v set when colour c has value v). A table of what each card adds
to each word (:data:`_CARD_INC`) makes that one load and one addition per cell, and the rules
then work on all bytes of a word at once where they can, without branches: which colour or
value wins in a line is data, and hard to predict.

Unfinished lines are scored on the cards present; an empty cell breaks a run. A line's points
are :data:`NULL_POINTS` where there is none (no street, no triplet on level 15); markers are the
number of checkmarkers, 0 for a number chip, -1 for a minus marker.

The plain-Python API that validates, converts and calls these kernels (``score``,
``score_line``, ``score_grids``) is :mod:`numberup.game.scorecard`.

The small helpers are plain kernels, not inlined by numba: LLVM inlines them into the line
scorer all the same (the machine code of :func:`_line_score` is as long, with the same calls
left), while numba's own inlining of their many call sites made :func:`_line_score` the
longest compile of the first run (28 s against 15 s without it, on a busy 2-core machine).
"""

from __future__ import annotations

import numpy as np

from . import levels as L
from ..jit import kernel

NULL_POINTS = -1000
MINUS = -1


@kernel
def _byte(word, k):
    """``_byte(0x0302, 1) -> 3``."""
    return (word >> np.uint64(8 * k)) & np.uint64(0xFF)


@kernel
def _max_byte(word, nbytes):
    best = np.uint64(0)
    for k in range(nbytes):
        b = _byte(word, k)
        if b > best:
            best = b
    return np.int64(best)


_PACK_COLOUR_SUM, _PACK_COLOUR_COUNT, _PACK_VALUE_COUNT, _PACK_STREET = 0, 1, 2, 3


def _card_increments() -> np.ndarray:
    """What each card adds to each packed word: ``[what, card as uint8]`` -> ``uint64``.

    Row ``what`` is one of the ``_PACK_*`` words. Card ids run 0..47; the empty cell ``-1``
    reads as 255, whose entries are 0, so empty cells need no test. The street mask is
    OR-ed (:func:`_pack`), so a card that a searcher's completion draws twice sets its bit once.
    """
    table = np.zeros((4, 256), dtype=np.uint64)
    for card in range(48):
        v, c = card // 8 + 1, card % 8
        table[_PACK_COLOUR_SUM, card] = v << (8 * c)
        table[_PACK_COLOUR_COUNT, card] = 1 << (8 * c)
        table[_PACK_VALUE_COUNT, card] = 1 << (8 * (v - 1))
        table[_PACK_STREET, card] = 1 << (8 * c + v)
    return table


_CARD_INC = _card_increments()  # a global array: numba compiles it in as a constant


@kernel
def _card_inc(inc, grid, cell):
    """``inc[card]`` for the card on ``cell`` (``inc``: a row of :data:`_CARD_INC`).

    Both indexes are unsigned, so numba adds no negative-index wraparound to the loads.
    """
    return inc[np.uint8(grid[np.uint64(cell)])]


@kernel
def _pack(grid, lines, li, n, what):
    """One packed word of line ``li``: a byte per colour (or value) -- see the module doc.

    ``n`` is 5 or 6. The cells are written out: LLVM turns a loop of unknown length into
    gathers, which cost more than the five or six plain loads of a line.
    """
    inc = _CARD_INC[what]
    w0, w1 = _card_inc(inc, grid, lines[li, 0]), _card_inc(inc, grid, lines[li, 1])
    w2, w3 = _card_inc(inc, grid, lines[li, 2]), _card_inc(inc, grid, lines[li, 3])
    w4 = _card_inc(inc, grid, lines[li, 4])
    w5 = _card_inc(inc, grid, lines[li, 5]) if n > 5 else np.uint64(0)
    if what == _PACK_STREET:  # a set of bits: a card twice (a searcher's completion) sets one
        return w0 | w1 | w2 | w3 | w4 | w5
    return w0 + w1 + w2 + w3 + w4 + w5


_LOW_BITS = np.uint64(0x0101010101010101)


@kernel
def _count_bits(value_count):
    """Bits 0, 1, 2 of every count byte of ``value_count``, each as a word of 0/1 bytes.

    A line has at most 6 cards, so these three words say everything about a count:
    ``count == 1`` is ``ones & ~(twos | fours)``, ``count >= 2`` is ``twos | fours``, and so on.
    """
    return (value_count & _LOW_BITS, (value_count >> np.uint64(1)) & _LOW_BITS,
            (value_count >> np.uint64(2)) & _LOW_BITS)


@kernel
def _value_sum(flags):
    """Sum of the values v whose byte v - 1 of ``flags`` is 1: ``0x0101 -> 1 + 2 = 3``.

    A multiplication adds up the weighted flags in its byte 2, for values 1-3 and 4-6 apart
    (one product of all six would overflow 64 bits: harmless compiled, but not in Python).
    """
    low = (flags & np.uint64(0xFFFFFF)) * np.uint64(0x010203)  # byte 2: 1 f1 + 2 f2 + 3 f3
    high = (flags >> np.uint64(24)) * np.uint64(0x040506)  # byte 2: 4 f4 + 5 f5 + 6 f6
    return np.int64(((low >> np.uint64(16)) & np.uint64(0xFF))
                    + ((high >> np.uint64(16)) & np.uint64(0xFF)))


@kernel
def _byte_sum(flags):
    """How many bytes of ``flags`` are 1: ``0x0101 -> 2`` (256 = 1 modulo 255)."""
    return np.int64(flags % np.uint64(255))


@kernel
def _target_markers(p, points):
    """Checkmarkers for ``points``: how many of the level's targets it reaches; -1 below 0.

    Without branches (:data:`NULL_POINTS` is below 0 too): whether a line reaches a target
    is data, and hard to predict.
    """
    m = 0
    for t in range(p[L.P_NTARGETS]):
        m += np.int64(points >= p[L.P_TARGET0 + t])
    return MINUS if points < 0 else m


@kernel(inline="always")
def _line_value(points, markers):
    """10 per checkmarker, -10 for a minus marker, else the chip (the points)."""
    chip = -10 if markers == MINUS else points
    return 10 * markers if markers > 0 else chip


@kernel
def _street_value(p, length, total):
    """(value, markers) of one street of ``length`` cards whose values add up to ``total``."""
    if length >= 3:
        return 10 * (length - 2), length - 2
    m = _target_markers(p, total)
    return (10 * m, m) if m > 0 else (total, 0)


@kernel
def _better(value, total, best_value, best_total):
    """Street order: more value first, then the larger sum."""
    return value > best_value or (value == best_value and total > best_total)


_TOP_BIT = np.array([max(b.bit_length() - 1, 0) for b in range(256)], dtype=np.int64)


@kernel
def _top_start(starts):
    """The highest value v whose bit is set in any byte of ``starts`` (0 if none)."""
    folded = starts | (starts >> np.uint64(32))  # OR of the 8 bytes, in 3 steps
    folded |= folded >> np.uint64(16)
    folded |= folded >> np.uint64(8)
    return _TOP_BIT[folded & np.uint64(0xFF)]


@kernel
def _street_any(p, mask):
    """Most valuable street with cards anywhere in the line; ``mask`` is ``street_mask``.

    All colours at once: bit v of byte c is set when colour c has value v (1..6), and bits 0
    and 7 of every byte are clear, so ``runs & (mask >> k)`` never joins two colours: it
    marks the first value of every street of k + 1 cards. Every length is tried, without
    branches (the lengths are hard to predict), and the longest one found is kept.
    """
    pairs = mask & (mask >> np.uint64(1))
    runs, k = pairs, np.int64(pairs != 0) + 1
    longer = pairs
    for j in range(2, 6):
        longer &= mask >> np.uint64(j)
        found = longer != 0
        runs = longer if found else runs
        k += np.int64(found)
    v = _top_start(runs)  # the longest street with the largest values
    total = k * (2 * v + k - 1) // 2
    value, markers = _street_value(p, k, total)
    # a 2-street may tie a 3-street's one checkmarker and win on its sum (a 5-6, target 11)
    total2 = 2 * _top_start(pairs) + 1
    value2, markers2 = _street_value(p, 2, total2)
    if k == 3 and _better(value2, total2, value, total):
        total, markers = total2, markers2
    return (total, markers) if k >= 2 else (NULL_POINTS, MINUS)


@kernel
def _street_run(p, grid, lines, li, n):
    """Most valuable street of neighbouring cells, values ascending or descending by one.

    One pass keeps the ascending and the descending run ending at each cell; the best street
    of a line is always a whole maximal run, and every run is scored as it grows.
    """
    best_value, best_points, best_markers = -1, NULL_POINTS, MINUS
    up_k = up_sum = down_k = down_sum = 0
    prev = -1
    for i in range(n):
        card = grid[lines[li, i]]
        if card < 0:
            up_k = down_k = 0
            prev = card
            continue
        v = card // 8 + 1
        same = prev >= 0 and card % 8 == prev % 8
        if same and card // 8 == prev // 8 + 1:
            up_k, up_sum = up_k + 1, up_sum + v
        else:
            up_k, up_sum = 1, v
        if same and card // 8 == prev // 8 - 1:
            down_k, down_sum = down_k + 1, down_sum + v
        else:
            down_k, down_sum = 1, v
        prev = card
        for k, total in ((up_k, up_sum), (down_k, down_sum)):
            if k >= 2:
                value, markers = _street_value(p, k, total)
                if _better(value, total, best_value, best_points):
                    best_value, best_points, best_markers = value, total, markers
    return best_points, best_markers


@kernel
def _colour_run_sum(grid, lines, li, n):
    """Largest sum over maximal runs of neighbouring same-colour cards."""
    best, run, colour = 0, 0, -1
    for i in range(n):
        card = grid[lines[li, i]]
        if card < 0:
            run, colour = 0, -1
            continue
        if card % 8 == colour:
            run += card // 8 + 1
        else:
            run, colour = card // 8 + 1, card % 8
        best = max(best, run)
    return best


@kernel
def _longest_runs(grid, lines, li, n):
    """(longest same-colour run, longest same-value run) of neighbouring cells."""
    best_c = best_v = run_c = run_v = 0
    prev = -1
    for i in range(n):
        card = grid[lines[li, i]]
        if card < 0:
            run_c = run_v = 0
        elif prev < 0:
            run_c = run_v = 1
        else:
            run_c = run_c + 1 if card % 8 == prev % 8 else 1
            run_v = run_v + 1 if card // 8 == prev // 8 else 1
        prev = card
        best_c = max(best_c, run_c)
        best_v = max(best_v, run_v)
    return best_c, best_v


@kernel
def _line_score(p, grid, lines, li, n):
    """(points, markers) of line ``li`` (its first ``n`` cells) under the level's rule.

    Parameters
    ----------
    p : ndarray of int64, shape (N_PARAMS,)
    grid : ndarray of int8, shape (cells,)
    lines : ndarray of int64, shape (n_lines, size)
    li : int
    n : int
        Cells in the line: the grid's side, 5 or 6.
    """
    return _line_score_inlined(p, grid, lines, li, n)


@kernel(inline="always")
def _line_score_inlined(p, grid, lines, li, n):
    """:func:`_line_score`, inlined into the grid scorers below.

    A call per line was a large part of the time of a whole grid (inlining made the grid
    scorers 1.2x to 1.7x faster): the three arrays travel as some twenty arguments, and the
    calls keep the processor from overlapping one line with the next. The engine, the
    searchers and :func:`numberup.game.scorecard.score` call :func:`_line_score`, which keeps their
    compile time down.
    """
    rule = p[L.P_RULE]
    if rule == L.RULE_STREET_RUN:
        return _street_run(p, grid, lines, li, n)
    if rule == L.RULE_COLOUR_RUN_SUM:
        points = _colour_run_sum(grid, lines, li, n)
        return points, _target_markers(p, points)
    if rule == L.RULE_RUN_X_RUN:
        rc, rv = _longest_runs(grid, lines, li, n)
        points = rc * rv
        return points, _target_markers(p, points)

    if rule == L.RULE_STREET_ANY:
        return _street_any(p, _pack(grid, lines, li, n, _PACK_STREET))
    if rule == L.RULE_COLOUR_SUM:
        points = _max_byte(_pack(grid, lines, li, n, _PACK_COLOUR_SUM), 8)
    elif rule == L.RULE_COLOUR_SECOND:
        colour_sum = _pack(grid, lines, li, n, _PACK_COLOUR_SUM)
        top1 = top2 = np.uint64(0)
        for c in range(8):
            s = _byte(colour_sum, c)
            if s > top1:
                top1, top2 = s, top1
            elif s > top2:
                top2 = s
        points = np.int64(top2)
    elif rule == L.RULE_COUNT_X_COUNT:
        points = (_max_byte(_pack(grid, lines, li, n, _PACK_COLOUR_COUNT), 8)
                  * _max_byte(_pack(grid, lines, li, n, _PACK_VALUE_COUNT), 6))
    elif rule == L.RULE_SUM_X_COUNT:
        points = (_max_byte(_pack(grid, lines, li, n, _PACK_COLOUR_SUM), 8)
                  * _max_byte(_pack(grid, lines, li, n, _PACK_VALUE_COUNT), 6))
    elif rule == L.RULE_TRIPLET_COLOUR_SUM:
        if _max_byte(_pack(grid, lines, li, n, _PACK_VALUE_COUNT), 6) >= 3:
            points = _max_byte(_pack(grid, lines, li, n, _PACK_COLOUR_SUM), 8)
        else:
            points = NULL_POINTS
    else:  # value-count rules of chapter 2, on all six value bytes at once (no branches)
        ones, twos, fours = _count_bits(_pack(grid, lines, li, n, _PACK_VALUE_COUNT))
        two_plus = twos | fours
        three_plus = fours | (twos & ones)
        if rule == L.RULE_PAIRS:  # 9 per value present 3+ times, v per value present twice
            points = 9 * _byte_sum(three_plus) + _value_sum(two_plus & ~three_plus)
        elif rule == L.RULE_SINGLES:
            points = _value_sum(ones & ~two_plus)
        else:  # only 1s make triplets (9 = 1 + 8); singles subtract on RULE_ONES_TRIPLET_MINUS
            points = _value_sum(two_plus) + 8 * np.int64(three_plus & np.uint64(1))
            if rule == L.RULE_ONES_TRIPLET_MINUS:
                points -= _value_sum(ones & ~two_plus)
    return points, _target_markers(p, points)


@kernel(inline="always")
def _aggregate(agg, acc_sum, acc_min, acc_markers):
    if agg == L.AGG_MIN_X10:
        return 10 * acc_min
    if agg == L.AGG_MARKERS_X10:
        return 10 * acc_markers
    return acc_sum


@kernel
def _score_grid(p, grid, lines):
    """The game result of ``grid`` (full or partial)."""
    n = p[L.P_SIZE]
    acc_sum, acc_min, acc_markers = 0, 1 << 30, 0
    for li in range(p[L.P_NLINES]):
        points, markers = _line_score_inlined(p, grid, lines, li, n)
        value = _line_value(points, markers)
        acc_sum += value
        acc_min = min(acc_min, value)
        acc_markers += max(markers, 0)
    return _aggregate(p[L.P_AGG], acc_sum, acc_min, acc_markers)


@kernel
def _score_lines(p, grid, lines, out):
    """Fill ``out`` (int64, shape (n_lines, 3)) with each line's points, markers, value."""
    n = p[L.P_SIZE]
    for li in range(p[L.P_NLINES]):
        points, markers = _line_score(p, grid, lines, li, n)
        out[li, 0] = points
        out[li, 1] = markers
        out[li, 2] = _line_value(points, markers)


@kernel
def _score_grids(p, grids, lines, out):
    """Game results of many grids: ``grids`` int8 (N, cells) -> ``out`` int64 (N,)."""
    for g in range(grids.shape[0]):
        out[g] = _score_grid(p, grids[g], lines)
