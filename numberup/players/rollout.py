"""The rollout player: Monte Carlo rollouts of every action by a base player.

``rollout:n=N,base=B,objective=O,bk=K,bobjective=O,bscale=S,endgame=E,bdepth=D,bwidth=W,
bsample=M,top=T,bexact=X,pobjective=O,pexact=X,late=C``: every action is judged by playing the game
out with the base player on random orders of the unseen cards; a budget of about ``N``
rollouts per decision is spread by successive halving (the worse half of the actions is
dropped each round, so clearly bad moves stop early).

The base is a player of the registry (:data:`BASES`), and its own kernel plays the rollouts:
the rollout kernel is a template compiled once per base kernel (:func:`_by_base`), so a new
base is a name in :data:`BASES`, not new code. The base decides with a scratch and parameters
of its own (``X.base``, :class:`numberup.players.scratch.Base`), never the rollout's arrays.
A base that judges lines by random completions (expectimax, learned) takes ``bk`` of them per
line (its ``k``) and plays for ``bobjective`` (a learned base with ``bscale`` of its
correction); it decides at every card of every rollout, so it must be cheap (``bexact=2``: a
learned base judges the lines of the neighbouring-street rule by its chain, not by ``bk``
completions). ``base=learned`` is the registry's ``learned`` player
(:mod:`numberup.players.learned`), one move deep (``depth=1``) unless ``bdepth=2`` lets it look
at the next card (several times the cost of every rollout); ``bwidth`` and ``bsample`` are then
its ``width`` and ``sample`` (how many of its best actions it judges again, over how many of the
next cards), which bring that cost down.

``top=K``: only ``K`` actions are rolled out, the best by the learned player one move deep
(:data:`PRIOR`, with a scratch of its own: ``X.prior``) at the decision; the budget is then
spread over those alone, so with many actions (a hand of five) each gets many more rollouts
(``top=1`` plays the prior's choice without a rollout). The prior ranks by ``pobjective``
(its objective: the mean by default; ``gold`` where the mean misleads, as on level 20) and
judges lines with its ``exact=pexact`` (2: the street chain). The rollout kernel is then
compiled with the prior's ranking (without it when ``top=0``).

``late=C``: roll out only when at most ``C`` cells are empty; before that, play the prior's
choice (as ``top=1``). A rollout from late in the game plays few cards, so the budget buys
many more rollouts where the last lines are decided, at a fraction of a game's cost.

``endgame=E``: when at most ``E`` cells are empty, the decision is exact instead
(:mod:`numberup.evaluation.endgame`), and so are the values it leaves for advice; the rollout kernel is
then compiled with the exact endgame's hook (without it when ``endgame=0``).
"""

from __future__ import annotations

import threading

import numpy as np

from ..game import levels as L
from ..evaluation.endgame import MAX_ENDGAME, _endgame_decide, _no_endgame
from ..game.engine import _apply, _begin_turn, _candidates, _done, _may_discard
from ..jit import kernel, specialize
from ..learned.value import MAX_SCALE
from ..game.rng import _mix, _next, _shuffle
from ..evaluation.sampled import MAX_K, _objective
from ..game.state import (I_DECK, I_FILLED, I_HAND, I_NEXT, I_UNSEEN, N_IDS, _copy_into,
                          _copy_state)
from ..game.tally import _result
from . import expectimax, greedy, learned, random
from .base import OBJECTIVE_HELP, OBJECTIVES, Param, PlayerType, parse_spec

# the parameters' places in the kernel's array (their order in PLAYER.params)
(R_N, R_BASE, R_OBJECTIVE, R_BK, R_BOBJECTIVE, R_ENDGAME, R_BSCALE, R_BDEPTH, R_BWIDTH,
 R_BSAMPLE, R_TOP, R_BEXACT, R_POBJECTIVE, R_PEXACT, R_LATE) = range(15)
# the base players a rollout can call, by name (each module's declaration)
_BASE_TYPES = {m.PLAYER.name: m.PLAYER for m in (random, greedy, expectimax, learned)}
BASES = tuple(_BASE_TYPES)
DEFAULT_BK = 8
MAX_N = 100_000
MAX_TOP = 64
PRIOR = "learned:depth=1"  # the player that ranks the actions for ``top``


def _rollout(p, geo, T, B, deck, cand, seed):
    """Play ``T`` (a copy of the state after an action) to the end with the base player, the
    unseen cards coming in ``deck`` in a random order drawn from ``seed``; ``B``: the base
    player's scratch and parameters (:class:`numberup.players.scratch.Base`); ``cand``: scratch for the
    cells on offer. Returns the result.

    A template: ``_BASE_ACTION`` is the base player's kernel, bound by :func:`_rollout_for`."""
    n = T.ints[I_UNSEEN]
    for j in range(n):
        deck[j] = T.unseen[j]
    T.rng[0] = seed
    _shuffle(T.rng, deck, n)
    T.ints[I_NEXT] = 0
    T.ints[I_DECK] = n
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, cand)  # a copy: a searching base changes T's own lists
        slot, cell = _BASE_ACTION(p, geo, T, B.X, cand, n_cand,  # noqa: F821
                                  _may_discard(p, geo, T), B.params)
        _apply(p, geo, T, slot, cell)
    return _result(p, T)


def _rollout_action(p, geo, S, X, cand, n_cand, may_discard, prm):
    """Successive halving over the actions with rollouts; ``X.values[a]`` := (mean, P(bronze),
    P(silver), P(gold)) of action ``a`` from all its rollouts, ``X.values[a, 4]`` their count
    (0: not rolled out; 1 for every action where the exact endgame decides).

    A template: ``_PLAY_OUT`` is :func:`_rollout` bound to the base, ``_ENDGAME`` the exact
    endgame's hook or its stand-in, ``_TOP`` the prior's ranking (:func:`_top_actions`) or
    its stand-in (:func:`_rollout_for`)."""
    objective = _objective(p, S, np.int64(prm[R_OBJECTIVE]))
    slot, cell = _ENDGAME(p, geo, S, X, cand, n_cand, may_discard,  # noqa: F821  exact near the end
                          np.int64(prm[R_ENDGAME]), objective)
    values = X.values
    n_hand = S.ints[I_HAND]
    n_act = n_hand * n_cand + (1 if may_discard else 0)
    if slot >= 0:  # every action judged exactly (the endgame's own column 4 is not a count)
        for a in range(n_act):
            values[a, 4] = 1.0
        return slot, cell
    T = X.T
    budget = np.int64(prm[R_N])
    alive = X.order
    for a in range(n_act):
        alive[a] = a
        values[a, :5] = 0.0
    n_alive = n_act
    top = np.int64(prm[R_TOP])
    late = np.int64(prm[R_LATE])
    if late > 0 and p[L.P_SIZE] * p[L.P_SIZE] - S.ints[I_FILLED] > late:
        top = 1  # early in the game: the prior's choice, no rollout
    if 0 < top < n_act:  # only the prior's best actions are rolled out
        n_alive = _TOP(p, geo, S, X, cand, n_cand, may_discard, n_act, top,  # noqa: F821
                       _objective(p, S, np.int64(prm[R_POBJECTIVE])))
    rounds = 1
    while (1 << rounds) < n_alive:
        rounds += 1
    move_seed = _next(S.rng)
    done_rollouts = 0  # per surviving action so far: the same deals for every action
    for _ in range(rounds):
        if n_alive == 1:
            break
        per = max(1, budget // (n_alive * rounds))
        for q in range(n_alive):
            a = alive[q]
            if a == n_hand * n_cand:
                slot, cell = 0, -1
            else:
                slot, cell = a // n_cand, cand[a % n_cand]
            for j in range(done_rollouts, done_rollouts + per):
                _copy_state(S, T)
                _apply(p, geo, T, slot, cell)
                r = _PLAY_OUT(p, geo, T, X.base, X.deck, X.cand[1],  # noqa: F821
                              _mix(move_seed + np.uint64(j + 1) * np.uint64(0x9E3779B97F4A7C15)))
                values[a, 0] += r
                values[a, 1] += r >= p[L.P_BRONZE]
                values[a, 2] += r >= p[L.P_SILVER]
                values[a, 3] += r >= p[L.P_GOLD]
                values[a, 4] += 1
        done_rollouts += per
        # keep the better half (insertion sort of the alive actions by their objective)
        for q in range(1, n_alive):
            x = alive[q]
            t = q
            while t > 0 and _rollout_key(values, alive[t - 1], objective) < _rollout_key(values, x, objective):
                alive[t] = alive[t - 1]
                t -= 1
            alive[t] = x
        n_alive = (n_alive + 1) // 2
    best = alive[0]
    for q in range(n_alive):  # the best survivor, by objective then mean
        a = alive[q]
        if _rollout_key(values, a, objective) > _rollout_key(values, best, objective):
            best = a
    for a in range(n_act):  # sums -> means
        cnt = values[a, 4]
        if cnt > 0:
            for q in range(4):
                values[a, q] /= cnt
    if best == n_hand * n_cand:
        return 0, -1
    return best // n_cand, cand[best % n_cand]


def _top_actions(p, geo, S, X, cand, n_cand, may_discard, n_act, top, objective):
    """Put the prior's ``top`` best of the ``n_act`` actions first in ``X.order``, best first,
    by the values its kernel leaves in its own ``X.prior.X.values`` (by ``objective``, the
    prior's, as :func:`_rollout_key` ranks; ties: the lower number), judged on a copy of
    ``S`` and of its random stream (the prior draws from the copy's, so the rollouts' seeds
    are those of a search without ``top``, and nothing of an earlier decision reaches the
    ranking). Returns ``top``.

    A template: ``_PRIOR_ACTION`` is the prior player's kernel (:func:`_rollout_for`)."""
    T = X.T
    _copy_state(S, T)
    _copy_into(T.rng, S.rng)  # S's stream, not whatever the last rollout left in T's
    c = X.cand[1]  # a copy: the prior changes its own lists
    _copy_into(c, cand)
    _PRIOR_ACTION(p, geo, T, X.prior.X, c, n_cand, may_discard, X.prior.params)  # noqa: F821
    judged = X.prior.X.values
    alive = X.order
    for q in range(top):  # partial selection sort: the top best, in order
        b = q
        for r in range(q + 1, n_act):
            vr = _prior_key(judged, alive[r], objective)
            vb = _prior_key(judged, alive[b], objective)
            if vr > vb or (vr == vb and alive[r] < alive[b]):
                b = r
        alive[q], alive[b] = alive[b], alive[q]
    return top


@kernel(inline="always")
def _prior_key(judged, a, objective):
    """Sort key of action ``a`` by the prior's values: its objective's, then the mean as a
    small tie-break (the mean alone for the mean)."""
    if objective == 0:
        return judged[a, 0]
    return judged[a, objective] + 1e-9 * judged[a, 0]


@kernel(inline="always")
def _all_actions(p, geo, S, X, cand, n_cand, may_discard, n_act, top, objective):
    """The stand-in of :func:`_top_actions` for rollouts without ``top``: every action."""
    return n_act


@kernel(inline="always")
def _rollout_key(values, a, objective):
    """Sort key of action ``a`` from its sums: the objective's mean, then the mean score as a
    small tie-break."""
    cnt = max(values[a, 4], 1.0)
    if objective == 0:
        return values[a, 0] / cnt
    return values[a, objective] / cnt + 1e-9 * values[a, 0] / cnt


_KERNELS: dict[str, object] = {}
_LOCK = threading.Lock()


def _rollout_for(name: str, base_action, endgame: bool = False, top: bool = False):
    """The rollout kernel whose rollouts are played by ``base_action`` (the kernel of the
    base player whose game loop is named ``name``), with the exact endgame's hook or without,
    ranking the actions by the prior (:data:`PRIOR`) first or not: compiled, and cached, once
    per base and hooks."""
    key = name + ("_endgame" if endgame else "") + ("_top" if top else "")
    with _LOCK:
        action = _KERNELS.get(key)
        if action is None:
            play_out = _KERNELS.get(f"play_out_{name}")
            if play_out is None:
                play_out = _KERNELS[f"play_out_{name}"] = specialize(
                    _rollout, f"_rollout_{name}", _BASE_ACTION=base_action)
            action = _KERNELS[key] = specialize(
                _rollout_action, f"_rollout_action_{key}", _PLAY_OUT=play_out,
                _ENDGAME=_endgame_decide if endgame else _no_endgame,
                _TOP=_ranker() if top else _all_actions)
        return action


def _ranker():
    """:func:`_top_actions` bound to the prior's kernel (compiled once; the lock is held)."""
    ranker = _KERNELS.get("top")
    if ranker is None:
        ranker = _KERNELS["top"] = specialize(_top_actions, "_top_actions",
                                              _PRIOR_ACTION=_prior().action)
    return ranker


def base_player(params):
    """The base player of the rollout parameters ``params`` (a parsed spec of a player in
    :data:`BASES`):
    ``bk`` is its ``k``, ``bobjective`` its objective, ``bscale`` its scale, ``bexact`` its
    exact, ``bdepth`` its
    depth and, at depth 2, ``bwidth`` and ``bsample`` its width and sample, when it takes them;
    a learned base looks no further than its move (``depth=1``) unless ``bdepth`` is 2."""
    kind = _BASE_TYPES[BASES[int(params[R_BASE])]]
    takes = kind.params
    extra = [f"k={int(params[R_BK])}"] if "k" in takes else []
    if "objective" in takes and params[R_BOBJECTIVE] > 0:
        extra.append(f"objective={OBJECTIVES[int(params[R_BOBJECTIVE])]}")
    if "scale" in takes and params[R_BSCALE] >= 0:
        extra.append(f"scale={params[R_BSCALE]:g}")
    if "exact" in takes and int(params[R_BEXACT]) != takes["exact"].default:
        extra.append(f"exact={int(params[R_BEXACT])}")
    depth = int(params[R_BDEPTH])
    if "depth" in takes and (depth != 1 or takes["depth"].default != 1):  # a base decides at
        extra.append(f"depth={depth}")  # every card of every rollout: one move deep by default
    for name, at in (("width", R_BWIDTH), ("sample", R_BSAMPLE)):
        if name in takes and depth == 2 and params[at] > 0:  # 0: the base's own
            extra.append(f"{name}={int(params[at])}")
    return parse_spec(kind, ",".join(extra))


def _prior(objective: str = "mean", exact: int = 1):
    """The player that ranks a rollout's actions for ``top``: :data:`PRIOR`, parsed, playing
    for ``objective`` with its ``exact``."""
    spec = PRIOR.partition(":")[2] + ("" if objective == "mean" else f",objective={objective}")
    return parse_spec(learned.PLAYER, spec + ("" if exact == 1 else f",exact={exact}"))


def _ranks(params) -> bool:
    """Do the parameters have a prior rank the actions (``top``, or ``late``'s early moves)?"""
    return params[R_TOP] > 0 or params[R_LATE] > 0


def prior_player(params):
    """The player that ranks the actions of a rollout with ``top`` or ``late`` (its
    parameters ``params``), one move deep by the level's learned model (:data:`PRIOR`),
    playing for ``pobjective`` with ``exact=pexact``; None without either."""
    if not _ranks(params):
        return None
    return _prior(OBJECTIVES[int(params[R_POBJECTIVE])], int(params[R_PEXACT]))


def _by_base(params):
    """The variant of the parameters: the rollout kernel of their base player's kernel, with
    the exact endgame or without, with the prior's ranking or without."""
    base = base_player(params)
    endgame = params[R_ENDGAME] > 0
    top = _ranks(params)
    name = base.loop_name + ("_endgame" if endgame else "") + ("_top" if top else "")
    return name, _rollout_for(base.loop_name, base.action, endgame, top)


PLAYER = PlayerType(
    "rollout",
    "Monte Carlo rollouts: every action is played out to the end by the base player on random "
    "orders of the unseen cards; successive halving spreads the budget",
    _rollout_for(greedy.PLAYER.name, greedy.PLAYER.action),  # the default base, greedy
    {
        "n": Param(200, "rollouts per decision (about; spread over the actions)", minimum=1,
                   maximum=MAX_N),
        "base": Param("greedy", "the player of the rollouts", choices=BASES),
        "objective": Param("mean", OBJECTIVE_HELP, choices=OBJECTIVES),
        "bk": Param(DEFAULT_BK, "random completions per line of a base that judges lines by "
                                "them (expectimax, learned): its k; it decides at every card "
                                "of every rollout", minimum=1, maximum=MAX_K),
        "bobjective": Param("mean", "what a base that takes an objective (expectimax, "
                                    "learned) maximises in the rollouts", choices=OBJECTIVES),
        "endgame": Param(0, "when at most this many cells are empty, search the rest of the "
                            "game exactly instead (0: never)", minimum=0, maximum=MAX_ENDGAME),
        "bscale": Param(-1.0, "how much of the learned correction a learned base plays with "
                              "(its scale; -1: the model's own)", minimum=-1.0,
                        maximum=MAX_SCALE, integer=False),
        "bdepth": Param(1, "how far a base that searches (expectimax, learned) looks: 1, its "
                           "move; 2, also the next card (its depth=2: several times the cost "
                           "of every rollout)", minimum=1,
                        maximum=2),
        "bwidth": Param(0, "with bdepth=2, how many of its best actions a learned base judges "
                           "again (its width; 0: its own, 3)", minimum=0,
                        maximum=learned.MAX_WIDTH),
        "bsample": Param(0, "with bdepth=2, over a random sample of how many of the next "
                            "cards a base looks (its sample; 0: all of them)", minimum=0,
                         maximum=N_IDS),
        "top": Param(0, f"roll out only this many actions: the best by the learned player "
                        f"one move deep ({PRIOR}, the level's model) at the decision; 0: "
                        f"every action", minimum=0, maximum=MAX_TOP),
        "bexact": Param(1, "a learned base's exact: 1, its own; 2, on the neighbouring-street "
                           "rule (levels 18-20) the lines it would sample judged by a chain "
                           "over their cells (no noise; bk unused there); 0, bk independent "
                           "completions", minimum=0, maximum=2),
        "pobjective": Param("mean", "what the prior (top, late) ranks the actions by",
                            choices=OBJECTIVES),
        "pexact": Param(1, "the prior's exact (as bexact: 2, the street chain on levels 18-20)",
                        minimum=0, maximum=2),
        "late": Param(0, "roll out only when at most this many cells are empty; before, play "
                         "the prior's choice (as top=1); 0: at every decision", minimum=0,
                      maximum=36),  # the 6x6 grid's cells
    },
    looks_ahead=True, tracks=True, advises=True, variant=_by_base, base=base_player,
    prior=prior_player,
)
