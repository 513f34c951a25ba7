"""The features of a line for the learned evaluation (:mod:`numberup.learned.value`): which entries
of the level's weight array an unfinished line indexes, given its cards, the phase of the game
and the cards still to come. Every table is shared by all lines of the level (rows, columns
and diagonals score alike); :func:`_layout` places the tables in one flat array.

``histogram``   the line's value histogram (how many 1s, 2s, ...), by the phase of the game
                (the quarter of the grid filled): pairs, triplets, streets, singles;
``per value``   for each value: its count in the line, how many of it are still to come
                (clipped at ``LEFT_MAX``), the line's empty cells: can the triplet still come?
``colours``     on rules that read colours: the two strongest colours' sums and counts, and
                how many cards of each are still to come;
``streets``     on street rules (one colour, consecutive values): for each colour in the
                line, which of its values are there and which are still to come;
``hand``        on the levels of ``HAND_TABLE`` (street rules played from a hand): for each
                colour in the line, which of its values are there and which are in the hand
                (sure to come, where the cards still to come are only likely);
``sequence``    on rules that read the order of the cells (runs, streets in order): every
                ``TUPLE`` neighbouring cells (value, and whether the card continues its left
                neighbour's colour);
``base``        the base estimate itself, binned, by phase and empty cells.
"""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from ..evaluation.exact import _histogram
from ..jit import kernel
from ..game.state import I_HAND, I_UNSEEN

PHASES = 4
LEFT_MAX = 8  # cards still to come of a value or colour, clipped
MAX_FEATURES = 32  # features of one line at most: 1 + 6 values + 3 colours + 7 street colours
# + 7 hand colours + 3 sequences
HAND_BIT = 16  # masks_left[colour] holds the values still to come at bit v, those in hand at 16 + v
# the levels whose model reads the hand: on level 19 it gained 5 points of P(gold); levels 18 and
# 20 (also streets from a hand) trained with it played no better, so they do without
# (results/learned.md, "Version 5")
HAND_TABLE = (19,)
TUPLE = 4  # cells of a sequence feature: every 4 neighbouring cells of a line
BASE_LO, BASE_BINS = -10, 61  # the base estimate's bins: whole points from -10 to 50
# an exact base estimate often lies on a bin's edge (7.5), where the last bit of a sum decides:
# the edge goes up whatever that bit
BIN_SLACK = 1e-9


@kernel(inline="always")
def _reads_colours(rule):
    return (rule == L.RULE_COLOUR_SUM or rule == L.RULE_COLOUR_RUN_SUM
            or rule == L.RULE_COLOUR_SECOND or rule == L.RULE_COUNT_X_COUNT
            or rule == L.RULE_RUN_X_RUN or rule == L.RULE_SUM_X_COUNT
            or rule == L.RULE_TRIPLET_COLOUR_SUM)


@kernel(inline="always")
def _reads_hand(p):
    """The level's model has the hand's table (``HAND_TABLE``; street rules from a hand)."""
    if p[L.P_HAND] == 0 or not _reads_streets(p[L.P_RULE]):
        return False
    for lv in HAND_TABLE:
        if p[L.P_LEVEL] == lv:
            return True
    return False


@kernel(inline="always")
def _sequence_base(rule, n_values):
    """Symbols of a cell in the sequence features: empty, a value, or a value that continues
    its left neighbour's colour; 0: the rule does not read the order of the cells."""
    if rule == L.RULE_STREET_RUN or rule == L.RULE_COLOUR_RUN_SUM or rule == L.RULE_RUN_X_RUN:
        return 2 * n_values + 1
    return 0


@kernel(inline="always")
def _reads_streets(rule):
    return rule == L.RULE_STREET_ANY or rule == L.RULE_STREET_RUN


@kernel
def _layout(p):
    """Offsets of the tables in the weight array: (per value, colour top, colour left, street
    colours, sequences, base estimate, hand colours, total size); the histogram starts at 0.
    The hand's table comes last, so the tables of levels without one keep their places."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    rule = p[L.P_RULE]
    hist = PHASES * (n + 1) ** nv
    per_value = nv * (n + 1) * (LEFT_MAX + 1) * (n + 1)
    smax = n * nv + 1
    top = left = streets = 0
    if _reads_colours(rule):
        top = smax * (n + 1) * smax * (n + 1)
        left = 2 * smax * (LEFT_MAX + 1) * (n + 1)
    if _reads_streets(rule):
        streets = (1 << nv) * (1 << nv) * (n + 1)
    b = _sequence_base(rule, nv)
    seq = (n - TUPLE + 1) * b ** TUPLE if b > 0 else 0
    o1 = hist
    o2 = o1 + per_value
    o3 = o2 + top
    o4 = o3 + left
    o5 = o4 + streets
    o6 = o5 + seq
    o7 = o6 + PHASES * (n + 1) * BASE_BINS
    hand = streets if _reads_hand(p) else 0
    return o1, o2, o3, o4, o5, o6, o7, o7 + hand


@kernel
def _tally(S, values_left, colours_left, masks_left):
    """Count the cards still to come (unseen and in hand) by value and by colour, and for
    each colour the bit mask of its values still to come (bit ``v``) and of those in hand
    (bit ``HAND_BIT + v``)."""
    for q in range(values_left.shape[0]):
        values_left[q] = 0
        colours_left[q] = 0
        masks_left[q] = 0
    for k in range(S.ints[I_UNSEEN] + S.ints[I_HAND]):
        card = S.unseen[k] if k < S.ints[I_UNSEEN] else S.hand[k - S.ints[I_UNSEEN]]
        values_left[card // 8] += 1
        colours_left[card % 8] += 1
        masks_left[card % 8] |= 1 << (card // 8)
        if k >= S.ints[I_UNSEEN]:
            masks_left[card % 8] |= 1 << (HAND_BIT + card // 8)


@kernel(inline="always")
def _take(card, values_left, colours_left, masks_left, sign):
    """The card leaves the cards still to come (``sign`` -1), or comes back (+1)."""
    values_left[card // 8] += sign
    colours_left[card % 8] += sign
    masks_left[card % 8] ^= 1 << (card // 8)


@kernel(inline="always")
def _take_from_hand(card, values_left, colours_left, masks_left, sign):
    """:func:`_take` of a card of the hand: it leaves the hand too, or comes back to it."""
    _take(card, values_left, colours_left, masks_left, sign)
    masks_left[card % 8] ^= 1 << (HAND_BIT + card // 8)


@kernel
def _line_features(p, lines, grid, li, filled, values_left, colours_left, masks_left, base,
                   out):
    """Write the weight indices of line ``li``'s features into ``out``; returns how many
    (0: the line is full). ``filled``: cards on the grid; ``values_left``, ``colours_left``,
    ``masks_left``: the cards still to come (:func:`_tally`, less the card just played);
    ``base``: the line's base estimate (the mean of its random completions)."""
    n = p[L.P_SIZE]
    nv = p[L.P_VALUES]
    nc = p[L.P_COLOURS]
    rule = p[L.P_RULE]
    o1, o2, o3, o4, o5, o6, o7, total = _layout(p)
    empty = 0
    for i in range(n):
        if grid[lines[li, i]] < 0:
            empty += 1
    if empty == 0:
        return 0
    phase = min(filled * PHASES // (n * n), PHASES - 1)
    m = 0
    # histogram of values, by phase
    h = _histogram(p, grid, lines, li)
    radix = 1
    for v in range(nv):
        c = (h // radix) % (n + 1)
        radix *= n + 1
        # per value: its count, how many are still to come, empty cells
        left = min(values_left[v], LEFT_MAX)
        out[m + 1 + v] = o1 + ((v * (n + 1) + c) * (LEFT_MAX + 1) + left) * (n + 1) + empty
    out[m] = phase * radix + h
    m += 1 + nv
    if _reads_colours(rule):
        smax = n * nv + 1
        s1 = c1 = s2 = c2 = 0
        t1 = t2 = -1
        for col in range(nc):
            s = c = 0
            for i in range(n):
                card = grid[lines[li, i]]
                if card >= 0 and card % 8 == col:
                    s += card // 8 + 1
                    c += 1
            if c == 0:
                continue
            if s > s1 or (s == s1 and c > c1):
                s2, c2, t2 = s1, c1, t1
                s1, c1, t1 = s, c, col
            elif s > s2 or (s == s2 and c > c2):
                s2, c2, t2 = s, c, col
        out[m] = o2 + ((s1 * (n + 1) + c1) * smax + s2) * (n + 1) + empty
        l1 = min(colours_left[t1], LEFT_MAX) if t1 >= 0 else 0
        l2 = min(colours_left[t2], LEFT_MAX) if t2 >= 0 else 0
        out[m + 1] = o3 + (s1 * (LEFT_MAX + 1) + l1) * (n + 1) + empty
        out[m + 2] = o3 + smax * (LEFT_MAX + 1) * (n + 1) + (s2 * (LEFT_MAX + 1) + l2) * (n + 1) + empty
        m += 3
    if _reads_streets(rule):  # per colour in the line: its values there, and still to come
        all_values = (1 << nv) - 1
        hand = _reads_hand(p)
        for col in range(nc):
            here = 0
            for i in range(n):
                card = grid[lines[li, i]]
                if card >= 0 and card % 8 == col:
                    here |= 1 << (card // 8)
            if here == 0:
                continue
            ahead = masks_left[col] & all_values
            out[m] = o4 + ((here << nv) + ahead) * (n + 1) + empty
            m += 1
            if hand:  # and in hand
                held = (masks_left[col] >> HAND_BIT) & all_values
                out[m] = o7 + ((here << nv) + held) * (n + 1) + empty
                m += 1
    b = _sequence_base(rule, nv)
    if b > 0:
        for t in range(n - TUPLE + 1):
            x = 0
            for i in range(t + TUPLE - 1, t - 1, -1):  # the tuple's first cell is its lowest digit
                card = grid[lines[li, i]]
                sym = 0
                if card >= 0:
                    sym = card // 8 + 1
                    if i > 0:
                        left_card = grid[lines[li, i - 1]]
                        if left_card >= 0 and left_card % 8 == card % 8:
                            sym += nv
                x = x * b + sym
            out[m] = o5 + t * b ** TUPLE + x
            m += 1
    out[m] = _base_bin(p, o6, phase, empty, base)
    m += 1
    return m


@kernel(inline="always")
def _base_bin(p, o6, phase, empty, base):
    """The weight index of the base estimate's feature (:func:`_line_features`)."""
    x = min(max(np.int64(np.floor(base + 0.5 + BIN_SLACK)) - BASE_LO, 0), BASE_BINS - 1)
    return o6 + (phase * (p[L.P_SIZE] + 1) + empty) * BASE_BINS + x
