"""Beam search with the deck order known: the kernel behind :mod:`numberup.analysis.hindsight`.

A player who knows the whole deck order faces no chance at all: from any position the rest of
the game is a deterministic tree of choices (hand slot, cell or discard). The search walks it
breadth-first, one decision per generation, over the real engine (:mod:`numberup.game.engine`), so
every state it keeps is a legal position of the level's rules: the draw order, the setup, the
adjacency rule, the discards and the hand of five.

Each generation expands every kept state by every legal action and ranks the children by the
level's own score of the partial grid (:func:`numberup.game.tally._result_if`: lines scored on the
cards present, rulings "partial"), the sum of the line values breaking ties; children that
reach a position already taken (same grid, same discards left: with the deck order fixed, the
hand and the deck position then agree too) are dropped. The partial score is myopic (a line
without its street yet takes a minus marker), so the best ``pilots`` children are each
finished greedily with the deck known (the "pilot method"): every finish is a legal game and a
candidate result, and the ``width`` children whose finish scored best are kept. The best game
seen, a finished beam state or a greedy finish, is the result; its moves are traced back
through the generations. When ``width`` is at least the number of distinct positions of every
generation (the last few cards of a game), nothing is dropped and the result is the exact
optimum.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game import levels as L
from ..game.levels import Level, get_level
from ..game.engine import (_apply, _begin_turn, _candidates, _done, _given_move, _may_discard,
                           _start)
from ..game.state import I_DISCARDS, MAX_HAND, MAX_LINES, N_IDS, N_INTS, State, _copy_state
from ..game.tally import _line_sums, _result, _result_if

KEY_SHIFT = 4096  # key = result * KEY_SHIFT + sum of line values (|sum| < 2048)


def _zobrist() -> np.ndarray:
    """Fixed random words per (cell, card) and per discards left: a position's hash."""
    rng = np.random.Generator(np.random.PCG64(20260))
    return rng.integers(1, 2**63, size=64 * N_IDS + 8, dtype=np.int64).astype(np.uint64)


ZOBRIST = _zobrist()


@njit(inline="always")
def _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints, scratch, g, w):
    """The engine state of beam slot ``w`` of generation ``g`` (views into the beam arrays);
    the searchers' scratch arrays are shared."""
    return State(grid[g, w], legal[g, w], legal_pos[g, w], unseen[g, w], unseen_pos[g, w],
                 hand[g, w], lp[g, w], lm[g, w], lv[g, w], ints[g, w], scratch.rng, scratch.touched)


@njit(cache=True, nogil=True)
def _greedy_finish(p, geo, T, deck, cand, moves, m):
    """Play the game in ``T`` to its end greedily with the deck known: each decision takes the
    best (result, sum of line values) of the grid after it, the first of equals; a discard
    when every placement scores strictly less than the grid as it stands. Writes the
    decisions to ``moves[m:]``; returns (result, sum of line values, decisions in all)."""
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        base_sum, base_markers = _line_sums(p, T)
        n_cand = _candidates(geo, T, cand)
        best, best_sum, best_slot, best_cell = -(1 << 40), -(1 << 40), 0, cand[0]
        for slot in range(T.ints[2]):
            card = T.hand[slot]
            for k in range(n_cand):
                v, v_sum = _result_if(p, geo, T, card, cand[k], base_sum, base_markers)
                if v > best or (v == best and v_sum > best_sum):
                    best, best_sum, best_slot, best_cell = v, v_sum, slot, cand[k]
        if _may_discard(p, geo, T) and _result(p, T) > best:
            best_slot, best_cell = 0, -1
        moves[m, 0] = _apply(p, geo, T, best_slot, best_cell)
        moves[m, 1] = best_cell
        m += 1
    total, _ = _line_sums(p, T)
    return _result(p, T), total, m


@njit(inline="always")
def _trace(hist_parent, hist_card, hist_cell, depth, w, n_prefix, out):
    """Write the decisions ``n_prefix .. depth-1`` that led to beam slot ``w`` of generation
    ``depth`` into ``out``."""
    for d in range(depth - 1, n_prefix - 1, -1):
        out[d, 0] = hist_card[d, w]
        out[d, 1] = hist_cell[d, w]
        w = hist_parent[d, w]


@njit(cache=True, nogil=True)
def _beam_search(p, geo, deck, n_deck, prefix, n_prefix, width, pilots, zob, out_moves,
                 scratch, T):
    """Best game found from the position after ``prefix`` with the deck order known.

    Each generation ranks the children of the kept states by the partial-grid score, takes
    the best ``pilots`` distinct ones, finishes each greedily (:func:`_greedy_finish`, a legal
    game: the best of them all is a candidate result) and keeps the ``width`` whose greedy
    finish scored best. ``pilots = 0`` skips the finishes and keeps the best ``width`` by the
    partial-grid score alone.

    Parameters
    ----------
    p : int64 (N_PARAMS,)   the level's row of :data:`numberup.game.levels.PARAMS`
    geo : Geometry          :func:`numberup.game.grid.geometry` of the level's grid
    deck : int8 (>= n_deck,) the deck in draw order
    prefix : int8 (>= n_prefix, 2)  decisions already made, (card, cell or -1), played first
    width : int             states kept per generation
    pilots : int            children finished greedily per generation (0: none)
    zob : uint64            :data:`ZOBRIST`
    out_moves : int8 (decisions, 2)  the found game's decisions, prefix included; -1 padded
    scratch, T : State       two states of the level's grid (:func:`numberup.game.state.new_state`),
                             the search's working copies

    Returns
    -------
    (result, number of decisions); result -1 << 40 if the prefix is not a game of the deck.
    """
    cells = p[L.P_SIZE] * p[L.P_SIZE]
    max_dec = cells + p[L.P_DISCARDS]
    W = width
    M = max(W, pilots)
    per = p[L.P_HAND] if p[L.P_HAND] > 0 else 1
    max_children = W * (per * cells + 1)
    grid = np.full((2, W, cells), -1, np.int8)
    legal = np.zeros((2, W, cells), np.int64)
    legal_pos = np.full((2, W, cells), -1, np.int64)
    unseen = np.zeros((2, W, N_IDS), np.int8)
    unseen_pos = np.full((2, W, N_IDS), -1, np.int64)
    hand = np.zeros((2, W, MAX_HAND), np.int8)
    lp = np.zeros((2, W, MAX_LINES), np.int64)
    lm = np.zeros((2, W, MAX_LINES), np.int64)
    lv = np.zeros((2, W, MAX_LINES), np.int64)
    ints = np.zeros((2, W, N_INTS), np.int64)
    hashes = np.zeros((2, W), np.uint64)
    hist_parent = np.zeros((max_dec + 1, W), np.int32)
    hist_card = np.zeros((max_dec + 1, W), np.int8)
    hist_cell = np.zeros((max_dec + 1, W), np.int8)
    ch_parent = np.zeros(max_children, np.int32)
    ch_slot = np.zeros(max_children, np.int32)
    ch_cell = np.zeros(max_children, np.int32)
    ch_key = np.zeros(max_children, np.int64)
    ch_hash = np.zeros(max_children, np.uint64)
    pick = np.zeros(M, np.int64)
    pick_key = np.zeros(M, np.int64)
    table_size = 1
    while table_size < 4 * M:
        table_size *= 2
    table = np.zeros(table_size, np.uint64)
    cand = np.zeros(64, np.int64)
    roll = np.full((max_dec + 1, 2), -1, np.int8)
    best_moves = np.full((max_dec + 1, 2), -1, np.int8)
    disc_base = 64 * N_IDS

    # the root: the prefix played on a fresh game
    S = _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints, scratch, 0, 0)
    _start(p, geo, S, deck, n_deck, True)
    h = zob[disc_base + S.ints[I_DISCARDS]]
    for m in range(n_prefix):
        _begin_turn(p, geo, S, deck)
        card, cell = prefix[m, 0], prefix[m, 1]
        slot = _given_move(p, geo, S, card, cell)
        if slot < 0:
            return -(1 << 40), m  # the prefix is not a game of this deck
        if cell >= 0:
            h ^= zob[cell * N_IDS + card]
        else:
            h ^= zob[disc_base + S.ints[I_DISCARDS]] ^ zob[disc_base + S.ints[I_DISCARDS] - 1]
        _apply(p, geo, S, slot, cell)
        out_moves[m, 0] = card
        out_moves[m, 1] = cell
        best_moves[m, 0] = card
        best_moves[m, 1] = cell
    hashes[0, 0] = h

    best, best_sum, best_len = -(1 << 40), -(1 << 40), 0
    g, n_beam, depth = 0, 1, n_prefix
    while n_beam > 0:
        n_ch = 0
        for w in range(n_beam):
            S = _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints,
                      scratch, g, w)
            if _done(p, S):
                res = _result(p, S)
                total, _ = _line_sums(p, S)
                if res > best or (res == best and total > best_sum):
                    best, best_sum, best_len = res, total, depth
                    _trace(hist_parent, hist_card, hist_cell, depth, w, n_prefix, best_moves)
                continue
            _begin_turn(p, geo, S, deck)
            base_sum, base_markers = _line_sums(p, S)
            n_cand = _candidates(geo, S, cand)
            for slot in range(S.ints[2]):
                card = S.hand[slot]
                for k in range(n_cand):
                    cell = cand[k]
                    res, total = _result_if(p, geo, S, card, cell, base_sum, base_markers)
                    ch_parent[n_ch] = w
                    ch_slot[n_ch] = slot
                    ch_cell[n_ch] = cell
                    ch_key[n_ch] = res * KEY_SHIFT + total
                    ch_hash[n_ch] = hashes[g, w] ^ zob[cell * N_IDS + card]
                    n_ch += 1
                if _may_discard(p, geo, S):
                    d = S.ints[I_DISCARDS]
                    ch_parent[n_ch] = w
                    ch_slot[n_ch] = slot
                    ch_cell[n_ch] = -1
                    ch_key[n_ch] = _result(p, S) * KEY_SHIFT + base_sum
                    ch_hash[n_ch] = hashes[g, w] ^ zob[disc_base + d] ^ zob[disc_base + d - 1]
                    n_ch += 1
        if n_ch == 0:
            break
        # the best distinct children by the partial-grid score
        order = np.argsort(-ch_key[:n_ch], kind="mergesort")  # stable: ties by child order
        table[:] = 0
        n_pick = 0
        limit = M if pilots > 0 else W
        for j in order:
            hj = ch_hash[j]
            i = np.int64(hj & np.uint64(table_size - 1))
            dup = False
            while table[i] != 0:
                if table[i] == hj:
                    dup = True
                    break
                i = (i + 1) & (table_size - 1)
            if dup:
                continue
            table[i] = hj
            pick[n_pick] = j
            n_pick += 1
            if n_pick == limit:
                break
        # finish each picked child greedily: a legal game, and the child's rank
        if pilots > 0:
            for q in range(n_pick):
                j = pick[q]
                src = _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints,
                            scratch, g, ch_parent[j])
                _copy_state(src, T)
                roll[depth, 0] = _apply(p, geo, T, ch_slot[j], ch_cell[j])
                roll[depth, 1] = ch_cell[j]
                res, total, end = _greedy_finish(p, geo, T, deck, cand, roll, depth + 1)
                pick_key[q] = res * KEY_SHIFT + total
                if res > best or (res == best and total > best_sum):
                    best, best_sum, best_len = res, total, end
                    _trace(hist_parent, hist_card, hist_cell, depth, ch_parent[j], n_prefix,
                           best_moves)
                    for d in range(depth, end):
                        best_moves[d, 0] = roll[d, 0]
                        best_moves[d, 1] = roll[d, 1]
            keep = np.argsort(-pick_key[:n_pick], kind="mergesort")[:W]
        else:
            keep = np.arange(n_pick)
        nxt = 1 - g
        kept = 0
        for q in keep:
            j = pick[q]
            src = _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints,
                        scratch, g, ch_parent[j])
            dst = _view(grid, legal, legal_pos, unseen, unseen_pos, hand, lp, lm, lv, ints,
                        scratch, nxt, kept)
            _copy_state(src, dst)
            card = _apply(p, geo, dst, ch_slot[j], ch_cell[j])
            hashes[nxt, kept] = ch_hash[j]
            hist_parent[depth, kept] = ch_parent[j]
            hist_card[depth, kept] = card
            hist_cell[depth, kept] = ch_cell[j]
            kept += 1
        g, n_beam, depth = nxt, kept, depth + 1

    if best_len == 0:
        return best, 0
    for d in range(n_prefix, out_moves.shape[0]):
        out_moves[d, 0] = best_moves[d, 0] if d < best_len else -1
        out_moves[d, 1] = best_moves[d, 1] if d < best_len else -1
    return best, best_len


# States kept per generation, by (grid size, hand of five): sized so that 500 deals of all 20
# levels take under half an hour of one core (0.05-0.3 s a deal).
DEFAULT_WIDTH = {(5, False): 40, (6, False): 40, (5, True): 16, (6, True): 12}
PILOTS = 3  # children finished greedily per generation, per state kept


def default_width(level: int | Level) -> int:
    """The beam width used unless one is asked for."""
    lv = get_level(level)
    return DEFAULT_WIDTH[(lv.size, lv.hand > 0)]


def search(level: int | Level, deck: np.ndarray, prefix=None, width: int | None = None,
           pilots: int | None = None):
    """(found result, moves int8 (decisions, 2)): the beam search on ``deck`` (draw order)
    after the decisions ``prefix`` (rows (card, cell or -1), default none); ``pilots``
    children finished greedily per generation (default: 3 x width; 0: none)."""
    from ..game.grid import geometry
    from ..runs.loop import max_moves
    from ..game.state import new_state

    lv = get_level(level)
    width = default_width(lv) if width is None else int(width)
    if width < 1:
        raise ValueError(f"the beam width must be at least 1, not {width}")
    pre = np.zeros((0, 2), np.int8) if prefix is None else np.asarray(prefix, np.int8).reshape(-1, 2)
    d = np.zeros(64, np.int8)
    d[: len(deck)] = deck
    moves = np.full((max_moves(lv), 2), -1, np.int8)
    pilots = PILOTS * width if pilots is None else int(pilots)
    found, n = _beam_search(L.PARAMS[lv.number], geometry(lv.size), d, len(deck), pre,
                            len(pre), width, pilots, ZOBRIST, moves, new_state(lv.cells),
                            new_state(lv.cells))
    if n == 0 or found <= -(1 << 39):
        raise ValueError("the decisions given are not a game of this deck")
    return int(found), moves
