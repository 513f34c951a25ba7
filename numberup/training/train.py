"""Training the learned evaluation (:mod:`numberup.learned.value`) by self-play.

The learned player plays seeded games with the weights as they stand; after every move it
logs, for each unfinished line, the indices of the line's features in the afterstate it chose.
When the game ends, each logged line's prediction is moved toward what the line finally added
(Monte Carlo regression on the player's own games, a step of ``rate x error`` spread evenly
over the line's features), in move order; the next game plays with the updated weights, so
the player improves its own policy as it learns (policy iteration, one game at a time). The
step size falls from ``RATE`` to a tenth of it over the run.

Game ``i`` of the master seed is dealt from ``(seed, i)`` alone and a level trains on one
thread, games in order, so the same seed gives the same model bytes whatever ``--jobs``
(which trains several levels at once). Judge a model on decks of another seed (``compare
--seed 2026``; training defaults to seed 7).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from ..game import levels as L
from ..game.engine import _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard
from ..game.grid import geometry
from ..learned.features import MAX_FEATURES, _layout, _line_features, _tally
from ..jit import kernel, specialize
from ..learned.value import (
    NT, TRAIN_K, _line_contribution, _logit_share, _lowest, _row, _sigmoid, model_size,
)
from ..game.levels import get_level
from ..evaluation.layout import DIST_LO, N_STATS
from ..evaluation.completions import _estimate_lines
from .distil import distil, games_for
from ..evaluation.sampled import _fill_pool
from ..game.state import I_FILLED, new_state

DEFAULT_SEED = 7
DEFAULT_GAMES = 30_000
RATE = 0.02  # the first games' step: the share of a line's error corrected at once
RATE_END = 0.1  # the last games' step, as a share of RATE
LOGIT_RATE = 0.01  # the first games' step of the logits (levels scored by the lowest line)
TUNE_GAMES = 300  # games per scale when training chooses the model's scale
SCALES = tuple(i / 10 for i in range(11))  # the scales it tries


def _train_template(p, geo, S, X, deck, W, params, master, first, n, total, done, rate,
                    feats, n_feats, bases, rows, shares):
    """Play games ``first .. first+n-1`` of ``master`` with the learned player (its parameters
    ``params``: the mean objective) reading and updating the weights ``W`` (``X.learned``; see
    the module doc); ``done`` games of ``total`` were played before (for the step size);
    ``feats``/``n_feats``/``bases``/``rows``/``shares``: scratch, a move x line x feature log,
    each logged line's base estimate, and on levels scored by the lowest line its cut table row
    and random-completion shares P(>= t) (:func:`_fit_distributions`). Returns the sum of the
    squared errors of the logged lines (before their update; of their P(>= t), summed over t,
    on lowest-line levels) and their count. A template: ``_ACTION`` is the learned player's
    kernel for ``params`` (:func:`_train_games`)."""
    n_lines = p[L.P_NLINES]
    size = p[L.P_SIZE]
    lowest = _lowest(p)
    sq = 0.0
    count = 0
    for g in range(n):
        _deal(p, geo, S, deck, master, first + g, False)
        step = rate * (1.0 - (1.0 - RATE_END) * (done + g) / max(total, 1))
        m = 0
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            cand = X.cand[0]
            n_cand = _candidates(geo, S, cand)
            slot, cell = _ACTION(p, geo, S, X, cand, n_cand,  # noqa: F821
                                 _may_discard(p, geo, S), params)
            n_pool = _fill_pool(S, X.pool)  # the pool the move was judged with
            _apply_inline(p, geo, S, slot, cell)
            # int64, as play passes them (literals would compile the stack once more)
            _estimate_lines(p, geo, S, X, np.int64(TRAIN_K), n_pool, np.int64(1))
            _tally(S, X.values_left, X.colours_left, X.masks_left)
            for li in range(n_lines):
                bases[m, li] = X.line_eval[li, 0]
                n_feats[m, li] = _line_features(p, geo.lines, S.grid, li, S.ints[I_FILLED],
                                                X.values_left, X.colours_left, X.masks_left,
                                                bases[m, li], feats[m, li])
                if lowest:
                    rows[m, li] = _row(p, S.grid, geo.lines, li, S.ints[I_FILLED])
                    for ti in range(NT):
                        shares[m, li, ti] = X.line_eval[li, N_STATS + ti]
            m += 1
        if lowest:
            s2, c2 = _fit_distributions(p, S, geo, W, m, step, feats, n_feats, rows, shares)
            sq += s2
            count += c2
            continue
        for li in range(n_lines):
            y = _line_contribution(p, S.grid, geo.lines, li, size)
            for r in range(m):
                nf = n_feats[r, li]
                if nf == 0:
                    continue
                pred = bases[r, li]
                for q in range(nf):
                    pred += W[feats[r, li, q]]
                err = y - pred
                sq += err * err
                count += 1
                d = step * err / nf
                for q in range(nf):
                    W[feats[r, li, q]] += d
    return sq, count


_TRAINERS = {}  # the training loop compiled per kernel of the learned player


def _train_games(player):
    """The training loop of :func:`_train_template` playing ``player``'s kernel."""
    name = player.loop_name
    if name not in _TRAINERS:
        _TRAINERS[name] = specialize(_train_template, f"_train_games_{name}",
                                     jit=partial(kernel, nogil=True), _ACTION=player.action)
    return _TRAINERS[name]


@kernel
def _fit_distributions(p, S, geo, W, m, step, feats, n_feats, rows, shares):
    """One game's update on a level scored by its lowest line: every logged open line's
    P(>= t), for every t, moves toward whether the line's final value reached t (a step of
    ``step`` times the log loss's gradient: to the cut entry its own, to the shift spread
    evenly over the line's features). Returns (sum of squared errors, lines)."""
    cut0 = _layout(p)[7]
    sq = 0.0
    count = 0
    for li in range(p[L.P_NLINES]):
        y = _line_contribution(p, S.grid, geo.lines, li, p[L.P_SIZE])
        for r in range(m):
            k = n_feats[r, li]
            if k == 0:
                continue
            shift = 0.0
            for q in range(k):
                shift += W[feats[r, li, q]]
            g = 0.0
            for ti in range(NT):
                reached = 1.0 if y >= DIST_LO + 1 + ti else 0.0
                if shares[r, li, ti] >= 1.0:  # P is 1 there (learned.py), nothing to learn
                    sq += (reached - 1.0) ** 2
                    continue
                c = cut0 + rows[r, li] * NT + ti
                d = reached - _sigmoid(_logit_share(shares[r, li, ti]) + shift + W[c])
                sq += d * d
                g += d
                W[c] += step * d
            count += 1
            d = step * g / k
            for q in range(k):
                W[feats[r, li, q]] += d
    return sq, count


def _mean_player(level: int):
    """The learned player that training plays on ``level``: the mean objective, and ``TRAIN_K``
    completions a line where they are drawn (fewer than the player's default: training plays
    many games); its kernel the level's (:func:`numberup.players.registry.at_level`)."""
    from ..players.registry import at_level, parse_player

    return at_level(parse_player(f"learned:k={TRAIN_K}"), level)


def cost(level: int) -> int:
    """A rough relative cost of a training game of ``level``: cells x cards to choose from."""
    lv = get_level(level)
    return lv.cells * lv.cells * max(lv.hand, 1)


def train_level(level: int, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED,
                progress: Callable[[int], None] | None = None, chunk: int = 500,
                rate: float | None = None, tune: int = TUNE_GAMES,
                distil_games: int | None = None) -> tuple[np.ndarray, dict]:
    """Train a model of ``level`` on ``games`` self-play games of ``seed``; returns the
    weights (float32 values, as a file keeps them) and facts (``seconds``, and the mean
    squared error of the line predictions over the first and the last tenth of the games;
    ``scale`` and ``tuning``: :func:`tune_scale`'s choice on ``tune`` games past the training
    games, and every scale's mean). ``rate``: the first games' step (default ``RATE``, or
    ``LOGIT_RATE`` on levels scored by the lowest line). Then ``distil_games`` games of
    distillation from the look at the next card (:mod:`numberup.training.distil`; default: the
    level's own, :func:`numberup.training.distil.games_for`) on the first games of the seed, after
    which the weights are those played and ``scale`` is 1 (``tuned_scale`` keeps the choice;
    ``distil``: the games and, per chunk, the decisions and those where the look chose
    otherwise). ``progress`` is told of every game played, the tuning and distillation games
    too (:func:`games_played`)."""
    from ..runs.loop import max_moves
    from ..players.scratch import new_scratch

    lv = get_level(level)
    p = L.PARAMS[lv.number]
    if rate is None:
        rate = LOGIT_RATE if _lowest(p) else RATE
    geo = geometry(lv.size)
    W = np.zeros(model_size(lv.number), np.float64)
    S, deck = new_state(lv.cells), np.zeros(lv.deck_size, np.int8)
    X = new_scratch(lv, weights=W)  # a read-only view: the kernels update W itself
    feats = np.zeros((max_moves(lv), int(p[L.P_NLINES]), MAX_FEATURES), np.int64)
    n_feats = np.zeros((max_moves(lv), int(p[L.P_NLINES])), np.int64)
    bases = np.zeros((max_moves(lv), int(p[L.P_NLINES])), np.float64)
    rows, shares = _distribution_log(lv)
    errors = []
    t0 = time.perf_counter()
    for start in range(0, games, chunk):
        n = min(chunk, games - start)
        trainer = _mean_player(lv.number)
        sq, cnt = _train_games(trainer)(p, geo, S, X, deck, W, trainer.params,
                                        np.uint64(seed % 2**64),
                               start, n, games,
                               start, rate, feats, n_feats, bases, rows, shares)
        errors.append((sq, cnt, n))
        if progress:
            progress(n)
    W = W.astype(np.float32).astype(np.float64)  # as the file keeps them
    scale, tuning = tune_scale(lv.number, W, seed, games, tune, progress)
    facts = {"level": lv.number, "seed": seed, "games": games,
             "error_first": _tenth(errors, games, first=True),
             "error_last": _tenth(errors, games, first=False),
             "scale": scale, "tuned_scale": scale, "tuning": tuning}
    if distil_games is None:
        distil_games = games_for(lv.number)
    if distil_games > 0:
        W, counts = distil(lv.number, W * scale, seed, 0, distil_games, progress=progress)
        W = W.astype(np.float32).astype(np.float64)
        facts.update(scale=1.0, distil={"games": distil_games, "chunks": counts})
    facts["seconds"] = time.perf_counter() - t0
    return W, facts


def games_played(games: int, tune: int = TUNE_GAMES, distil_games: int = 0) -> int:
    """The games :func:`train_level` plays: its training, tuning and distillation games."""
    return games + tune * len(SCALES) + distil_games


def tune_scale(level: int, weights: np.ndarray, seed: int, first: int, n: int,
               progress: Callable[[int], None] | None = None) -> tuple[float, dict]:
    """The scale (of ``SCALES``) the learned player plays best with: the highest mean over
    games ``first .. first+n-1`` of ``seed`` (the same decks for every scale; training passes
    the games after its own, so they were never trained on); ties: the smaller scale.
    Returns it and every scale's mean."""
    means = {}
    for scale in SCALES:
        means[scale] = float(play_with(level, weights * scale, seed, first, n).mean())
        if progress:
            progress(n)
    best = max(means.values())
    return next(s for s in SCALES if means[s] == best), means


def _distribution_log(lv):
    """The training log's cut table rows and random-completion shares (move x line (x t));
    one row where the level does not learn distributions."""
    from ..runs.loop import max_moves

    moves = max_moves(lv) if _lowest(L.PARAMS[lv.number]) else 1
    lines = int(L.PARAMS[lv.number][L.P_NLINES])
    return np.zeros((moves, lines), np.int64), np.zeros((moves, lines, NT), np.float64)


def _tenth(errors, games, first):
    """Mean squared error of the line predictions over the chunks of the first (last) tenth."""
    sq = cnt = seen = 0
    for e in (errors if first else reversed(errors)):
        sq, cnt, seen = sq + e[0], cnt + e[1], seen + e[2]
        if seen * 10 >= games:
            break
    return sq / cnt if cnt else float("nan")


def play_with(level: int, weights: np.ndarray, seed: int, first: int, n: int,
              spec: str = "learned") -> np.ndarray:
    """The results of games ``first .. first+n-1`` of ``seed`` played by the learned player with
    ``weights`` (not the package's model): to judge a model before it is saved. ``spec``: the
    learned player's setting (``learned:objective=gold``, ...)."""
    from ..runs.loop import game_loop, max_moves
    from ..players.registry import parse_player
    from ..players.scratch import new_scratch
    from ..game.state import new_state as _new_state

    lv = get_level(level)
    p = L.PARAMS[lv.number]
    player = parse_player(spec)
    X = new_scratch(lv, weights=weights)
    S, deck = _new_state(lv.cells), np.zeros(lv.deck_size, np.int8)
    nl = int(p[L.P_NLINES])
    scores = np.zeros(n, np.int64)
    game_loop(player)(p, geometry(lv.size), S, X, deck, player.params, np.uint64(seed % 2**64),
                      first, 0, n, np.zeros(n, np.uint64), scores, np.zeros((n, nl), np.int16),
                      np.zeros((n, lv.deck_size), np.int8),
                      np.zeros((n, max_moves(lv), 2), np.int8))
    return scores


def evaluation_error(level: int, weights: np.ndarray, seed: int, first: int, n: int) -> float:
    """Mean squared error of the line predictions (every unfinished line after every move)
    against the lines' final contributions (on levels scored by the lowest line, of their
    P(>= t) against whether the line reached t, summed over t), in games ``first .. first+n-1`` of ``seed`` played
    by the learned player with ``weights`` (which stay as they are)."""
    from ..runs.loop import max_moves
    from ..players.scratch import new_scratch

    lv = get_level(level)
    p = L.PARAMS[lv.number]
    W = np.array(weights, np.float64)
    S, deck = new_state(lv.cells), np.zeros(lv.deck_size, np.int8)
    X = new_scratch(lv, weights=W)  # a read-only view: the kernels update W itself
    shape = (max_moves(lv), int(p[L.P_NLINES]))
    trainer = _mean_player(lv.number)
    sq, cnt = _train_games(trainer)(p, geometry(lv.size), S, X, deck, W, trainer.params,
                           np.uint64(seed % 2**64), first, n, n, 0, 0.0,
                           np.zeros(shape + (MAX_FEATURES,), np.int64), np.zeros(shape, np.int64),
                           np.zeros(shape, np.float64), *_distribution_log(lv))
    return sq / cnt
