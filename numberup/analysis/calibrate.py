"""Are advise's estimates calibrated? Predictions against what then happened.

A player plays seeded games (game ``i`` of seed ``S``: the same deals as ``simulate``). In each
game a few decisions are drawn at random (seeded by the game); at each, the move the player
made is estimated as ``advise`` estimates an action (:mod:`numberup.analysis.estimate`: continuations
of the game by the same player, the cards to come in random orders), and the prediction is
set beside the game's real end: did it reach Gold? Since the rest of the real game is played
by that player too, a calibrated estimate predicts it: among decisions predicted at 70%,
Gold should come about 70% of the time.

:func:`predictions` gives one row per decision drawn; :func:`reliability` bins them per
level (and a row ``bin = 'all'``: calibration in the large), with Wilson 95% intervals of the
observed rate; :func:`reliability_plot` draws it.
"""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from ..game.levels import get_level

BINS = 10  # predictions binned by P(gold): [0, 0.1), ..., [0.9, 1]
PREDICTION_COLUMNS = ["level", "policy", "seed", "continuations", "game", "decision",
                      "cards_left", "predicted_mean", "predicted_gold", "score", "gold"]
TABLE_COLUMNS = ["level", "policy", "seed", "continuations", "bin", "bin_lo", "bin_hi", "predictions", "mean_predicted",
                 "observed", "observed_lo", "observed_hi", "difference", "difference_lo",
                 "difference_hi"]


def _decision_seed(seed: int, game: int, decision: int) -> int:
    """The seed of one prediction's continuations (apart from the game's own streams)."""
    from ..game.rng import game_seed

    return (game_seed(seed, game) * 0x100000001B3 + decision + 1) % 2**63


def predictions(level: int, player, games: int, seed: int, *, continuations: int = 200,
                decisions: int = 1, jobs: int = 1, progress=None):
    """One row per decision drawn (``PREDICTION_COLUMNS``): for game ``g`` of ``seed`` played
    by ``player``, ``decisions`` of its decisions after the setup (drawn with
    ``numpy.random.default_rng([seed, g])``), the estimate of the move played
    (``predicted_mean``, ``predicted_gold``: from ``continuations`` continuations by the same
    player) and the game's ``score`` and ``gold`` (1 if it reached Gold).

    ``jobs``: threads (the rows do not depend on it); ``progress(n)``: called as games finish.
    """
    import pandas as pd
    from concurrent.futures import ThreadPoolExecutor

    from ..game.engine import _apply, _begin_turn, _fill_deck, _start
    from .estimate import Continuer, seeds
    from ..game.grid import geometry
    from ..runs.loop import play_batch
    from ..game.state import I_HAND, new_state

    from ..players.registry import at_level

    lv = get_level(level)
    player = at_level(player, lv.number)  # best: the setting it plays on the level
    p, geo = L.PARAMS[lv.number], geometry(lv.size)
    batch = play_batch(lv, player, seed, 0, games, 1)
    setup = len(geo.centre)
    gold = lv.medals[2]
    sorted_deck = np.zeros(lv.deck_size, np.int8)
    n_deck = _fill_deck(p, sorted_deck)

    def one_game(unit, g):
        moves = batch.moves[g]
        n_moves = int((moves[:, 0] >= 0).sum())
        rng = np.random.default_rng([seed, g])
        chosen = sorted(rng.choice(np.arange(setup, n_moves), size=min(decisions, n_moves - setup),
                                   replace=False).tolist())
        S = new_state(lv.cells)
        _start(p, geo, S, sorted_deck, n_deck, True)
        deck = batch.decks[g]
        rows, m = [], 0
        for d in chosen:
            while True:
                _begin_turn(p, geo, S, deck)
                card, cell = int(moves[m, 0]), int(moves[m, 1])
                slot = [int(c) for c in S.hand[:S.ints[I_HAND]]].index(card)
                if m == d:
                    break
                _apply(p, geo, S, slot, cell)
                m += 1
            res = unit.results(S, slot, cell, seeds(_decision_seed(seed, g, d), continuations))
            score = int(batch.scores[g])
            rows.append((lv.number, player.spec, seed, continuations, g, d, n_moves - d,
                         float(res.mean()),
                         float((res >= gold).mean()), score, int(score >= gold)))
        return rows

    jobs = max(1, min(jobs, games))
    units = [Continuer(lv, player) for _ in range(jobs)]
    out: list = [None] * games

    def block(k):
        for g in range(k, games, jobs):
            out[g] = one_game(units[k], g)
            if progress is not None:
                progress(1)

    if jobs == 1:
        block(0)
    else:
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(block, range(jobs)))
    rows = [r for game_rows in out for r in game_rows]
    return pd.DataFrame(rows, columns=PREDICTION_COLUMNS)


def reliability(pred, bins: int = BINS):
    """Per level, player, seed and continuations, per bin of predicted P(gold) (``TABLE_COLUMNS``): how many
    predictions, their mean, the observed rate of Gold with its 95% Wilson interval, and
    observed minus predicted with a 95% interval; bins without predictions are left out. The
    row ``bin = 'all'`` holds every prediction of the level: calibration in the large. Its
    difference's interval is the normal one of the mean of gold - prediction over the
    decisions (the predictions vary widely there, and each explains part of its game's
    outcome, so it is narrower than the observed rate's); a bin's is the observed rate's
    Wilson interval less the mean prediction (within a bin the predictions are close)."""
    import pandas as pd

    from ..stats import Z95, wilson

    rows = []
    for (level, policy, seed, m), g in pred.groupby(["level", "policy", "seed", "continuations"],
                                                     sort=False):
        x = g["predicted_gold"].to_numpy(np.float64)
        y = g["gold"].to_numpy(np.int64)
        which = np.minimum((x * bins).astype(np.int64), bins - 1)
        parts = [("all", 0.0, 1.0, np.ones(len(x), bool))]
        parts += [(str(b), b / bins, (b + 1) / bins, which == b) for b in range(bins)]
        for name, lo, hi, mask in parts:
            n = int(mask.sum())
            if n == 0:
                continue
            k = int(y[mask].sum())
            olo, ohi = wilson(k, n)
            mean_pred = float(x[mask].mean())
            if name == "all" and n > 1:
                half = Z95 * float((y - x).std(ddof=1)) / np.sqrt(n)
                dlo, dhi = k / n - mean_pred - half, k / n - mean_pred + half
            else:
                dlo, dhi = olo - mean_pred, ohi - mean_pred
            rows.append((int(level), policy, int(seed), int(m), name, lo, hi, n, mean_pred,
                         k / n, olo, ohi, k / n - mean_pred, dlo, dhi))
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)
