"""Advice for a game on the table: every legal action, ranked, with its estimated outcome."""

from __future__ import annotations

import numpy as np

from ..game import levels as L
from ..game.cards import format_card, parse_cards, parse_grid
from ..errors import InputError
from ..game.grid import geometry
from ..game.levels import Level, get_level
from ..game.position import check_position, load_position
from ..players.base import OBJECTIVES, Player
from ..players.registry import PLAYERS, parse_player

DEFAULT_ADVISOR = "auto"  # the searcher that ranks the actions: see advisor_for
RANKERS = {"rollout:n=200": "rollout:n=4000", "expectimax": "expectimax"}  # auto's choices
DEFAULT_FOR = "expectimax"  # the player whose results the estimates are
DEFAULT_ESTIMATE = 3  # actions estimated, the best first
DEFAULT_CONTINUATIONS = 200  # continuations per estimated action
MAX_CONTINUATIONS = 100_000


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
    rollout's: its base player's results; expectimax's: its evaluation). :func:`advice` gives
    the estimates of a named player instead.

    ``notify``: a stream (e.g. ``sys.stderr``) told once when the kernels need compiling."""
    return [{k: r[k] for k in ("card", "cell", "mean", "p_bronze", "p_silver", "p_gold")}
            for r in _search(level, grid_text, hand_text, discarded, discards_left, player, seed,
                             notify)[0]]


def _search(level, grid_text, hand_text, discarded, discards_left, player, seed, notify,
            also=()):
    """The searcher's ranking: (rows best first, each with ``_slot``/``_cell``; the position's
    state as loaded, before the search; the level). ``also``: more kernels compiled under the
    same notice (the continuations')."""
    from numba import typeof

    from ..game.engine import _candidates, _fill_deck, _load_state, _may_discard
    from ..jit import compile_notice
    from ..game.rng import _player_seed
    from ..players.scratch import new_scratch
    from ..game.state import _copy_state, new_state

    lv = get_level(level)
    player = parse_player(advisor_for(lv, player)[0]) if isinstance(player, str) else player
    if not player.kind.advises:
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
    objective = OBJECTIVES.index(player.param("objective"))
    rows = []
    for a, s, c in actions:
        v = values[a]
        rows.append({
            "card": format_card(hand_now[s]),
            "cell": None if c < 0 else [c // lv.size, c % lv.size],
            "mean": float(v[0]), "p_bronze": float(v[1]), "p_silver": float(v[2]),
            "p_gold": float(v[3]), "_slot": s, "_cell": c,
            "_key": (int(s == slot and c == cell), float(v[objective]), float(v[0])),
        })
    rows.sort(key=lambda r: r["_key"], reverse=True)
    return rows, loaded, lv


def advice(level: int | Level, grid_text: str, hand_text: str, discarded: str = "",
           discards_left: int | None = None, player: Player | str = DEFAULT_ADVISOR,
           seed: int = 1, *, for_player: Player | str | None = DEFAULT_FOR,
           estimate: int | None = DEFAULT_ESTIMATE, continuations: int = DEFAULT_CONTINUATIONS,
           jobs: int = 1, notify=None) -> dict:
    """Every legal action ranked by the searcher ``player``, best first, with estimates of
    what ``for_player`` reaches if the action is played and the game goes on as that
    player would play it (:mod:`numberup.analysis.estimate`: ``continuations`` games from here, the
    cards to come in random orders, the same orders for every action).

    ``estimate``: how many of the best actions are estimated (None: all); ``jobs``: threads
    for the continuations (the estimates do not depend on it). ``player`` 'auto' (the
    default) picks the searcher per level (:func:`advisor_for`). Returns ``{"level",
    "ranked_by", "ranker_why" (auto's reason, or ""), "estimates_for", "continuations",
    "seed", "actions"}``; each
    action ``{"card", "cell", "estimate"}``, the estimate (None for actions not estimated)
    as :func:`numberup.analysis.estimate.summarize`: ``mean``, ``p_bronze``, ``p_silver``,
    ``p_gold``, ``n`` and the 95% Monte Carlo margins ``mean_moe``, ``p_gold_lo``/``hi``,
    and ``search``: the searcher's own values (mean, P(gold)), which ranked it.
    """
    from .estimate import Continuers, seeds, summarize

    lv = get_level(level)
    why = ""
    if isinstance(player, str):
        player, why = advisor_for(lv, player)
    ranker = parse_player(player) if isinstance(player, str) else player
    target = parse_player(for_player) if isinstance(for_player, str) else for_player
    if not 1 <= continuations <= MAX_CONTINUATIONS:
        raise InputError(f"--continuations {continuations}: choose 1 to {MAX_CONTINUATIONS:,}")
    if estimate is not None and estimate < 1:
        raise InputError(f"--estimate {estimate}: estimate at least 1 action (or all)")
    from ..learned.modelfile import model_for

    model_for(lv, target)  # a missing model fails before any compile
    cont = Continuers(lv, target, jobs)
    seed_array = seeds(seed, continuations)
    warm = (cont.kernel, target.kind.name,
            lambda S: cont.results(S, 0, -1, seed_array[:0]))
    rows, loaded, lv = _search(lv, grid_text, hand_text, discarded, discards_left, ranker, seed,
                               notify, also=[warm])
    out = []
    for k, r in enumerate(rows):
        est = None
        if estimate is None or k < estimate:
            est = summarize(cont.results(loaded, r["_slot"], r["_cell"], seed_array), lv.medals)
        out.append({"card": r["card"], "cell": r["cell"], "estimate": est,
                    "search": {"mean": r["mean"], "p_gold": r["p_gold"]}})
    return {"level": lv.number, "ranked_by": ranker.spec, "ranker_why": why,
            "estimates_for": target.spec,
            "continuations": continuations, "seed": seed, "actions": out}
