"""Advice for a game on the table: every legal action, ranked, with its estimated outcome.

:func:`advice` (``numberup advise``, play's hints, assist's proposals) ranks and estimates with
one player: each candidate action is played, then the player plays the game on, over
continuations on common random numbers (continuation ``j`` of every action sees the same order
of the cards to come: :mod:`numberup.analysis.estimate`), and the actions are ranked by those
results. The candidates are the player's own choice and, of the others, the best by its own
one-move values where it has them (every action where it has not, or where there are few).
The continuations go by successive halving: every candidate gets a first share, the better
half of them the next, and so on, so the close contenders get the most. :func:`advise` gives a
searcher's own internal values instead (its ranking before any continuation).
"""

from __future__ import annotations

import csv
import math
from functools import cache
from pathlib import Path

import numpy as np

from ..game import levels as L
from ..game.cards import format_card, parse_cards, parse_grid
from ..errors import InputError
from ..game.grid import geometry
from ..game.levels import Level, get_level
from ..game.position import check_position, load_position
from ..players.base import OBJECTIVES, Player
from ..players.best import QUICK
from ..players.registry import PLAYERS, parse_player

DEFAULT_ADVISOR = "auto"  # advise()'s searcher: see advisor_for
RANKERS = {"rollout:n=200": "rollout:n=4000", "expectimax": "expectimax"}  # auto's choices
DEFAULT_PLAYER = QUICK  # advice()'s player, which ranks and estimates (best at its quick budget)
DEFAULT_CANDIDATES = 6  # actions that get continuations
# The continuations' time: about this many seconds of the reference machine's 2 cores, by the
# player's cost in the best table and the measured shares of it (SHARES), so the counts, and the
# answer, are the same on any machine. A third below the targets of 2 s and 1 s: with the shares
# the answers take about their budget, and their worst about 1.5x it (benchmarks/README.md).
DEFAULT_SECONDS, HINT_SECONDS, REFERENCE_CORES = 1.0, 0.4, 2
MIN_CONTINUATIONS, MAX_TOTAL = 16, 8000  # per candidate at least, over all candidates at most
UNKNOWN_COST = 0.02  # seconds a game of a player the best table has not measured
MAX_CONTINUATIONS = 100_000
# What a continuation from so many empty cells costs, as a share of a game (measured per level and
# player by benchmarks/bench_continuations.py --write)
SHARES = Path(__file__).resolve().parents[1] / "data" / "continuations.csv"


def advisor_for(level: int | Level, spec: str = DEFAULT_ADVISOR) -> tuple[str, str]:
    """The searcher that ranks the actions on ``level``, and why (in words, "" for a named
    one). ``spec`` 'auto' takes, of expectimax and rollouts, the kind with the higher mean on
    the level in results/summary.csv (:func:`numberup.analysis.standing.stronger_searcher`): rollouts
    with 4,000 games a decision (rollout:n=4000), or expectimax (on level 20, scored by its
    lowest line, expectimax is the stronger); expectimax when that table is not there."""
    if spec.strip().lower() != "auto":
        return spec, ""
    from .standing import stronger_searcher

    found, why = stronger_searcher(level)
    if found is None:
        return "expectimax", f"auto: {why}"
    return RANKERS.get(found, found), f"auto: {found} is {why}"


def advise(level: int | Level, grid_text: str, hand_text: str, discarded: str = "",
           discards_left: int | None = None, player: Player | str = DEFAULT_ADVISOR,
           seed: int = 1, notify=None) -> list[dict]:
    """Every legal action, best first: ``{"card", "cell" ([row, col] or None for a discard),
    "mean", "p_bronze", "p_silver", "p_gold"}`` as the searcher itself values them (a
    rollout's: its base player's results; expectimax's: its evaluation; None for an action a
    rollout with ``top`` did not roll out, listed after the others). :func:`advice` gives
    the estimates of a named player instead.

    ``notify``: a stream (e.g. ``sys.stderr``) told once when the kernels need compiling."""
    return [{k: r[k] for k in ("card", "cell", "mean", "p_bronze", "p_silver", "p_gold")}
            for r in _search(level, grid_text, hand_text, discarded, discards_left, player, seed,
                             notify)[0]]


def _search(level, grid_text, hand_text, discarded, discards_left, player, seed, notify,
            also=(), any_player=False):
    """The searcher's ranking: (rows best first, each with ``_slot``/``_cell``; the position's
    state as loaded, before the search; the level). ``also``: more kernels compiled under the
    same notice (the continuations'). ``any_player``: a player that keeps no values of its
    actions is allowed too (its own choice first, then the actions in order, values 0)."""
    from numba import typeof

    from ..game.engine import _candidates, _fill_deck, _load_state, _may_discard
    from ..jit import compile_notice
    from ..game.rng import _player_seed
    from ..players.scratch import new_scratch
    from ..game.state import _copy_state, new_state

    lv = get_level(level)
    player = parse_player(advisor_for(lv, player)[0]) if isinstance(player, str) else player
    if not player.kind.advises and not any_player:
        searchers = " or ".join(k.name for k in PLAYERS.values() if k.advises)
        raise InputError(f"advice needs a searcher ({searchers}), not {player.spec!r}")
    grid = parse_grid(grid_text, lv, source="grid")
    hand = parse_cards(hand_text, lv, "hand")
    gone = parse_cards(discarded, lv, "--discarded")
    check_position(lv, grid, hand, gone)
    left = lv.discards - len(gone) if discards_left is None else discards_left
    if not 0 <= left <= lv.discards - len(gone):
        raise InputError(
            f"--discards-left {left}: level {lv.number} allows {lv.discards} discards and "
            f"{len(gone)} are used"
        )

    p = L.PARAMS[lv.number]
    geo = geometry(lv.size)
    action = player.action
    kernels = [_fill_deck, _load_state, _player_seed, _candidates, _may_discard, action,
               *(k for k, _, _ in also)]
    what = " and ".join(dict.fromkeys([player.kind.name, *(name for _, name, _ in also)]))
    with compile_notice(f"advice by {what}", kernels, notify):
        S, X = load_position(lv, grid, hand, gone, left), new_scratch(lv, player)
        S.rng[0] = _player_seed(np.uint64(seed))
        loaded = new_state(lv.cells)
        _copy_state(S, loaded)
        cand = X.cand[0]
        n_cand = _candidates(geo, S, cand)
        may_discard = bool(_may_discard(p, geo, S))
        args = (p, geo, S, X, cand, n_cand, may_discard, player.params)
        if hasattr(action, "compile"):  # compile only: the search comes next
            action.compile(tuple(typeof(a) for a in args))
        for _, _, warm in also:
            warm(loaded)
    hand_now = [int(c) for c in S.hand[: len(hand)]]
    slot, cell = action(*args)
    values = X.values
    actions = []
    for s in range(len(hand_now)):
        for j in range(n_cand):
            actions.append((s * n_cand + j, s, int(cand[j])))
    if may_discard:
        actions.append((len(hand_now) * n_cand, 0, -1))
    objective = (OBJECTIVES.index(player.param("objective"))
                 if "objective" in player.kind.params else 0)
    # a player whose prior picks the actions it searches (a rollout's top) leaves the others
    # unjudged: a count of 0 in column 4, values that are not estimates (ranked after the rest,
    # in the prior's order: its values at the decision stay in its own scratch, and rank as a
    # rollout's top ranks them, numberup.players.rollout._prior_key: its objective's column
    # with the mean as a 1e-9 tie-break; where that column is 0, the mean)
    prior = player.kind.prior(player.params) if player.kind.prior is not None else None
    partial = prior is not None
    ranked = X.prior.X.values if partial else None
    by = OBJECTIVES.index(prior.param("objective")) if partial else 0
    rows = []
    for a, s, c in actions:
        v = values[a] if player.kind.advises else np.zeros(5)
        judged = not partial or v[4] > 0
        rank = ((float(v[objective]), float(v[0])) if judged
                else (float(ranked[a, by]) + 1e-9 * float(ranked[a, 0]) if by else
                      float(ranked[a, 0]), 0.0))
        chosen = bool(s == slot and c == cell)
        est = [float(x) if judged else None for x in v[:4]]
        rows.append({
            "card": format_card(hand_now[s]),
            "cell": None if c < 0 else [c // lv.size, c % lv.size],
            "mean": est[0], "p_bronze": est[1], "p_silver": est[2],
            "p_gold": est[3], "_slot": s, "_cell": c, "_chosen": chosen,
            "_key": (int(chosen), int(judged), *rank),
        })
    rows.sort(key=lambda r: r["_key"], reverse=True)
    return rows, loaded, lv


def _key(objective: int, results: np.ndarray, medals) -> tuple[float, float]:
    """What ranks continuation results: the mean, or P(medal) then the mean."""
    mean = float(results.mean())
    if objective == 0:
        return mean, 0.0
    return float((results >= medals[objective - 1]).mean()), mean


def game_seconds(level, player: Player) -> float:
    """The cost of a game of ``player`` (as played on ``level``) in the best table, seconds on
    one core (:data:`UNKNOWN_COST` where it has none)."""
    from ..players.best import table

    return next((r["seconds_per_game"] for r in table()
                 if r["level"] == level.number and r["spec"] == player.spec), UNKNOWN_COST)


def continuation_seconds(level, player: Player, empty: int) -> float:
    """What advise counts a continuation of ``player`` from ``empty`` empty cells to cost: the
    cost of a game (:func:`game_seconds`) times the share of it measured from that many empty
    cells (:data:`SHARES`, by benchmarks/bench_continuations.py). Where the share was not
    measured: the empty cells' share of the grid, or the whole of it for a player with an exact
    endgame (most of its cost is in the last cells, which every continuation plays)."""
    measured = continuation_shares().get((level.number, player.spec))
    if measured is not None:
        share = float(measured[min(max(empty, 0), len(measured) - 1)])
    elif "endgame" in player.kind.params and player.param("endgame") > 0:
        share = 1.0
    else:
        share = empty / level.cells
    return max(game_seconds(level, player) * share, 1e-6)


@cache
def continuation_shares() -> dict[tuple[int, str], np.ndarray]:
    """The package's measured shares of a game's cost that a continuation costs, by level and
    player spec: ``{(level, spec): share by empty cells (index 0..cells)}`` (empty when the
    package was built without the table)."""
    if not SHARES.is_file():
        return {}
    rows: dict[tuple[int, str], dict[int, float]] = {}
    with SHARES.open(newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault((int(r["level"]), r["spec"]), {})[int(r["empty"])] = float(r["share"])
    return {key: np.array([by[e] for e in sorted(by)]) for key, by in rows.items()}


def time_budget(level, player: Player, empty: int, seconds: float) -> int:
    """The continuations ``seconds`` of the reference machine (:data:`REFERENCE_CORES` cores)
    pay for from a position with ``empty`` empty cells, each costing
    :func:`continuation_seconds` (at most :data:`MAX_TOTAL`). A pure function of its arguments
    and the package: the same on every machine."""
    total = int(seconds * REFERENCE_CORES / continuation_seconds(level, player, empty))
    return min(total, MAX_TOTAL)


def continuation_count(level, player: Player, empty: int, candidates: int,
                       seconds: float) -> int:
    """Continuations in all for ``candidates`` actions: the :func:`time_budget`, or
    :func:`halving`'s floor for that many candidates where the time pays for less."""
    return max(halving_floor(candidates), time_budget(level, player, empty, seconds))


def _steps(candidates: int, total: int) -> list[tuple[int, int]]:
    """:func:`halving`'s rounds over ``candidates`` with ``total`` continuations: (candidates
    still in, continuations each gets) a round."""
    rounds = max(1, math.ceil(math.log2(max(candidates, 1))))
    out, alive = [], candidates
    for _ in range(rounds):
        out.append((alive, max(MIN_CONTINUATIONS, total // rounds // alive)))
        alive = math.ceil(alive / 2)
    return out


def planned(candidates: int, total: int) -> int:
    """The continuations :func:`halving` plays over ``candidates`` given ``total``: about
    ``total``, more where a round's share falls below MIN_CONTINUATIONS a candidate."""
    return sum(alive * step for alive, step in _steps(candidates, total))


def halving_floor(candidates: int) -> int:
    """The fewest continuations :func:`halving` plays over ``candidates``: MIN_CONTINUATIONS
    for every candidate still in, each round."""
    return planned(candidates, 0)


def affordable(candidates: int, total: int) -> int:
    """The most candidates, up to ``candidates``, whose :func:`halving` plays at most ``total``
    continuations (:func:`planned`); at least 2 (1 if 1 was asked), so that the player's choice
    always has a rival."""
    n = candidates
    while n > 2 and planned(n, total) > total:
        n -= 1
    return n


def halving(candidates: list, run, total: int, key) -> tuple[list, dict]:
    """Successive halving over ``candidates``: each round shares about ``total / rounds``
    continuations among those left, then keeps the better half by ``key(results)``.
    ``run(c, lo, hi)`` returns candidate ``c``'s continuations ``lo..hi-1`` (the same
    continuations for every candidate). Returns (candidates best first: those of the last
    round by key, then each earlier round's dropped ones by key; results per candidate)."""
    steps = _steps(len(candidates), total)
    rounds = len(steps)
    results = {c: np.zeros(0) for c in candidates}
    alive, dropped, done = list(candidates), [], 0
    for r, (_, step) in enumerate(steps):
        for c in alive:
            results[c] = np.concatenate([results[c], run(c, done, done + step)])
        done += step
        alive.sort(key=lambda c: key(results[c]), reverse=True)
        if r + 1 < rounds:
            keep = math.ceil(len(alive) / 2)
            dropped = alive[keep:] + dropped
            alive = alive[:keep]
    return alive + dropped, results


def advice(level: int | Level, grid_text: str, hand_text: str, discarded: str = "",
           discards_left: int | None = None, player: Player | str = DEFAULT_PLAYER,
           seed: int = 1, *, candidates: int | None = DEFAULT_CANDIDATES,
           continuations: int | None = None, seconds: float = DEFAULT_SECONDS, jobs: int = 1,
           notify=None) -> dict:
    """Every legal action, best first, ranked and estimated by one player: what ``player``
    reaches if the action is played and it plays the game on (:mod:`numberup.analysis.estimate`).

    ``candidates``: how many actions get continuations at most (None: all): the player's own
    choice and the best others by its own one-move values (all, where it keeps none). Under
    the time budget (``continuations`` None) only as many as it gives MIN_CONTINUATIONS a round
    (:func:`affordable`: fewer where a continuation is dear, as on level 19).
    ``continuations``: that many for every candidate (no halving); None (the default):
    successive halving over about ``seconds`` of work (:func:`continuation_count`). ``jobs``:
    threads (the results do not depend on it). A ``best`` spec plays its level's setting.

    Returns ``{"level", "player", "plays", "continuations" (the most any action got), "seed",
    "candidates" (how many got continuations), "asked" (``candidates``; None: all),
    "actions"}``; each action ``{"card", "cell", "chosen" (the player's own pick), "estimate"
    (None: not a candidate) as :func:`numberup.analysis.estimate.summarize`, "vs_first"}``:
    ``vs_first`` (None for the first and the rest) is the first action's result minus this
    one's on their common continuations, ``{"diff", "lo", "hi", "n", "close"}``, in points (or
    in P(medal) for a player that plays for a medal); ``close``: the 95% interval reaches 0,
    the two are within noise.
    """
    from ..players.registry import at_level
    from ..stats import Z95
    from .estimate import Continuers, seeds, summarize

    lv = get_level(level)
    given = parse_player(player) if isinstance(player, str) else player
    pl = at_level(given, lv.number)
    if candidates is not None and candidates < 1:
        raise InputError(f"--candidates {candidates}: choose at least 1 (or all)")
    if continuations is not None and not 1 <= continuations <= MAX_CONTINUATIONS:
        raise InputError(f"--continuations {continuations}: choose 1 to {MAX_CONTINUATIONS:,}")
    from ..learned.modelfile import model_for

    model_for(lv, pl)  # a missing model fails before any compile
    cont = Continuers(lv, pl, jobs)
    warm = (cont.kernel, pl.kind.name, lambda S: cont.results(S, 0, -1, seeds(seed, 0)))
    rows, loaded, lv = _search(lv, grid_text, hand_text, discarded, discards_left, pl, seed,
                               notify, also=[warm], any_player=True)
    n = len(rows) if candidates is None or not pl.kind.advises else min(candidates, len(rows))
    chosen = list(range(n))
    objective = (OBJECTIVES.index(pl.param("objective")) if "objective" in pl.kind.params else 0)
    empty = int((loaded.grid < 0).sum())
    if continuations is None:
        if candidates is not None and pl.kind.advises:  # a count asked for is the most that
            # get continuations (a player without values of its own has no order to cut by):
            # as many as the time pays for
            n = affordable(n, time_budget(lv, pl, empty, seconds))
            chosen = list(range(n))
        total = continuation_count(lv, pl, empty, n, seconds)
    else:
        total = continuations * n
    master = seeds(seed, total if continuations is None else continuations)

    def run(k, lo, hi):
        hi = min(hi, len(master))
        r = rows[k]
        return cont.results(loaded, r["_slot"], r["_cell"], master[lo:hi]) if hi > lo else np.zeros(0)

    key = lambda res: _key(objective, res, lv.medals)  # noqa: E731
    if continuations is None:
        order, results = halving(chosen, run, total, key)
    else:
        results = {k: run(k, 0, continuations) for k in chosen}
        order = sorted(chosen, key=lambda k: key(results[k]), reverse=True)
    first = results[order[0]]

    def behind(k):  # the first's result minus k's, on their common continuations
        m = min(len(first), len(results[k]))
        if objective == 0:
            d = first[:m] - results[k][:m]
        else:
            t = lv.medals[objective - 1]
            d = (first[:m] >= t).astype(float) - (results[k][:m] >= t)
        mean = float(d.mean())
        moe = Z95 * float(d.std(ddof=1)) / math.sqrt(m) if m > 1 else math.inf
        return {"diff": mean, "lo": mean - moe, "hi": mean + moe, "n": m,
                "close": bool(mean - moe <= 0)}

    vs = {k: behind(k) for k in order[1:]}
    # after the first, by how far each falls behind it on the continuations they share (a
    # candidate dropped early has fewer, so its own mean is on other games than the first's)
    order = order[:1] + sorted(order[1:], key=lambda k: vs[k]["diff"])
    order += [k for k in range(len(rows)) if k not in results]
    out = []
    for k in order:
        r = rows[k]
        out.append({"card": r["card"], "cell": r["cell"], "chosen": r["_chosen"],
                    "estimate": summarize(results[k], lv.medals) if k in results else None,
                    "vs_first": vs.get(k)})
    return {"level": lv.number, "player": given.spec, "plays": pl.spec,
            "objective": OBJECTIVES[objective],
            "continuations": max(len(v) for v in results.values()), "seed": seed,
            "candidates": len(results), "asked": candidates, "actions": out}
