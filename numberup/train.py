"""Training the learned evaluation (:mod:`numberup.learned`) by self-play.

A round plays seeded games with expectimax (``depth=1``, its default ``k``) and logs, after
every move, each unfinished line's row in the table (from the same random completions the
search judged that move by) and, at the end, what each line finally added. The table is the
average of the final values per row (Monte Carlo, on the player's own games). Round 1 plays with
random completions only; each further round plays with the table of the round before and
refits on its own games, so the table learns what *its* player makes of a line.

Round ``r`` plays games ``r * games .. (r + 1) * games - 1`` of the master seed; game ``i``
depends on ``(seed, i)`` only and the table is made of counts and sums of whole numbers in game
order, so the same seed gives the same model bytes whatever the number of threads. Judge a
model on decks of another seed (``compare --seed 2026``; training defaults to seed 7).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from . import levels as L
from .engine import (
    _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard, new_state,
)
from .jit import kernel
from .learned import _line_row, empty_table, fit_table
from .levels import get_level
from .players import parse_player
from .players.expectimax import BY_DEPTH
from .scoring import _line_score, _line_value
from .search import _contribution, _estimate_all, _fill_pool, new_scratch
from .grid import geometry

_expectimax_depth1 = BY_DEPTH[1]  # training plays expectimax at depth 1, its default

DEFAULT_SEED = 7
DEFAULT_GAMES = 4000
DEFAULT_ROUNDS = 1
TRAIN_SPEC = "expectimax"


@kernel(nogil=True)
def _train_block(p, geo, S, X, deck, params, master, first, lo, hi,
                 out_rows, out_mean, out_contrib, out_value):
    """Play games ``lo .. hi-1`` (game ``first + g`` of ``master``) with expectimax and log,
    after move ``m`` of game ``g``, line ``li``'s table row ``out_rows[g, m, li]`` (-1: full
    or no move) and random-completion mean ``out_mean[g, m, li]``; at the end each line's final
    contribution and value (``out_contrib[g, li]``, ``out_value[g, li]``)."""
    n_lines = p[L.P_NLINES]
    k = np.int64(params[2])
    for g in range(lo, hi):
        seed, n_deck = _deal(p, geo, S, deck, master, first + g, False)
        m = 0
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            cand = X.cand[0]
            n_cand = _candidates(geo, S, cand)
            slot, cell = _expectimax_depth1(p, geo, S, X, cand, n_cand, _may_discard(p, geo, S),
                                            params)
            n_pool = _fill_pool(S, X.pool)  # the pool the search judged the move with
            _apply_inline(p, geo, S, slot, cell)
            _estimate_all(p, geo, S, X.line_eval, X.pool, k, n_pool)
            for li in range(n_lines):
                out_mean[g, m, li] = X.line_eval[li, 0]
                out_rows[g, m, li] = _line_row(p, geo, S, li, X.line_eval[li, 0]) if cell >= 0 else -1
            m += 1
        for r in range(m, out_rows.shape[1]):
            for li in range(n_lines):
                out_rows[g, r, li] = -1
        for li in range(n_lines):
            points, markers = _line_score(p, S.grid, geo.lines, li, p[L.P_SIZE])
            out_contrib[g, li] = _contribution(p, points, markers)
            out_value[g, li] = _line_value(points, markers)


def self_play(level, table, seed: int, first: int, n: int, jobs: int = 1, pool=None):
    """Logged games ``first .. first+n-1`` of ``seed`` by expectimax with ``table`` (see
    :func:`_train_block`): (rows, random means, final contributions, final values), flat, one
    entry per unfinished line after a move, in game order."""
    from .play import max_moves

    p = L.PARAMS[level.number]
    nl = int(p[L.P_NLINES])
    mm = max_moves(level)
    rows = np.full((n, mm, nl), -1, np.int32)
    mean = np.zeros((n, mm, nl), np.float64)
    contrib = np.zeros((n, nl), np.float64)
    value = np.zeros((n, nl), np.int64)
    geo = geometry(level.size)
    params = parse_player(TRAIN_SPEC).params
    blocks = max(1, min(4 * jobs, n))
    bounds = [(n * b // blocks, n * (b + 1) // blocks) for b in range(blocks)]

    def block(lo_hi):
        S, X, deck = new_state(level.cells), new_scratch(level), np.zeros(level.deck_size, np.int8)
        X = X._replace(learned=table)
        _train_block(p, geo, S, X, deck, params, np.uint64(seed % 2**64), first, lo_hi[0],
                     lo_hi[1], rows, mean, contrib, value)

    if pool is None or n == 0:
        for b in bounds:
            block(b)
    else:
        list(pool.map(block, bounds))
    ok = rows >= 0
    g_idx = np.broadcast_to(np.arange(n)[:, None, None], rows.shape)[ok]
    l_idx = np.broadcast_to(np.arange(nl)[None, None, :], rows.shape)[ok]
    return rows[ok], mean[ok], contrib[g_idx, l_idx], value[g_idx, l_idx]


def train_level(level: int, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, jobs: int = 1,
                rounds: int = DEFAULT_ROUNDS, progress: Callable[[int], None] | None = None,
                chunk: int = 200) -> tuple[np.ndarray, dict]:
    """Train a model of ``level`` (``rounds`` rounds of ``games`` games each); returns the
    dense table and facts (``seconds``, and each round's squared error of the line means
    before and after its fit, on its own games)."""
    from concurrent.futures import ThreadPoolExecutor

    lv = get_level(level)
    table = empty_table()
    facts = {"level": lv.number, "seed": seed, "games": games, "rounds": rounds, "errors": []}
    t0 = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        for r in range(rounds):
            parts = []
            for start in range(0, games, chunk):
                n = min(chunk, games - start)
                parts.append(self_play(lv, table, seed, r * games + start, n, jobs, pool))
                if progress:
                    progress(n)
            rows, mean, contrib, value = (np.concatenate(a) for a in zip(*parts))
            before = _error(table, rows, contrib, mean)
            table = fit_table(lv, rows, mean, contrib, value)
            facts["errors"].append((before, _error(table, rows, contrib, mean)))
    facts["seconds"] = time.perf_counter() - t0
    return table, facts


def _error(table, rows, contrib, mean):
    from .learned import prediction_error

    if len(rows) == 0:
        return float("nan")
    return prediction_error(table, rows, contrib, mean)
