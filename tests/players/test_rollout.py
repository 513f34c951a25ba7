"""Rollouts over every base player (``rollout:base=random|greedy|expectimax|learned``).

- A decision of the rollout kernel equals a plain-Python successive halving whose rollouts are
  the base player itself (its parsed spec's kernel, a scratch of its own) playing the rest of
  the game from the position, on the same orders of the cards to come: so the base plays with
  its own parameters, and nothing it does touches the rollout's arrays.
- The same seed gives the same games whatever the number of jobs (the games of every base
  replay legally on all 20 levels: tests/players/test_replay.py).
- base=learned carries the level's model (bad base specs: tests/cli/test_bad_input.py).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from numberup.game import levels as L
from numberup.learned import modelfile as MF
from numberup.game.engine import _apply, _begin_turn, _candidates, _deal, _done, _may_discard
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.players.registry import PLAYERS, parse_player
from numberup.players.rollout import BASES, DEFAULT_BK, PRIOR, base_player, prior_player
from numberup.game.rng import _below, _mix, _next, _shuffle
from numberup.players.scratch import new_scratch
from numberup.evaluation.sampled import _objective
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run
from numberup.game.state import I_DECK, I_FILLED, I_HAND, I_NEXT, I_UNSEEN, _copy_state, new_state
from numberup.game.tally import _result

LEVELS = range(1, 21)
IDS = [f"level-{n}" for n in LEVELS]
# a cheap spec per base (a few rollouts; a searching base with few completions)
CHEAP = {
    "random": "rollout:n=6,base=random",
    "greedy": "rollout:n=6,objective=gold",
    "expectimax": "rollout:n=3,base=expectimax,bk=2",
    "learned": "rollout:n=3,base=learned,bk=2,objective=gold",
}
GOLDEN = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1


def test_every_base_has_a_cheap_spec():
    assert set(CHEAP) == set(BASES)


# -------------------------------------------------------------------------------------------
# the rollout kernel against plain Python


def _position(level: int, game: int, moves: int):
    """The state of game ``game`` (seed 5) after ``moves`` random moves, at a decision: (state,
    deck in draw order), as the game loop of a tracking player has them."""
    lv, p, geo = get_level(level), L.PARAMS[level], geometry(get_level(level).size)
    S, deck = new_state(lv.cells), np.zeros(lv.deck_size, np.int8)
    _deal(p, geo, S, deck, np.uint64(5), game, True)
    cand = np.zeros(lv.cells, np.int64)
    for _ in range(moves):
        if _done(p, S):
            break
        _begin_turn(p, geo, S, deck)
        n_cand = _candidates(geo, S, cand)
        n_act = S.ints[I_HAND] * n_cand + (1 if _may_discard(p, geo, S) else 0)
        a = int(_below(S.rng, n_act))
        slot, cell = (0, -1) if a == S.ints[I_HAND] * n_cand else (a // n_cand, cand[a % n_cand])
        _apply(p, geo, S, slot, cell)
    if not _done(p, S):
        _begin_turn(p, geo, S, deck)
    return S, deck


def _play_out(level: int, S, base, seed: int) -> int:
    """The rest of the game from ``S`` (left as it is) by the player ``base`` itself, with a
    scratch of its own, the unseen cards coming in the order a rollout of ``seed`` draws."""
    lv, p, geo = get_level(level), L.PARAMS[level], geometry(get_level(level).size)
    T = new_state(lv.cells)
    _copy_state(S, T)
    n = int(T.ints[I_UNSEEN])
    deck = np.zeros(lv.deck_size, np.int8)
    deck[:n] = T.unseen[:n]
    T.rng[0] = np.uint64(seed)
    _shuffle(T.rng, deck, n)
    T.ints[I_NEXT], T.ints[I_DECK] = 0, n
    X = new_scratch(lv, base)
    cand = np.zeros(lv.cells, np.int64)
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, cand)
        slot, cell = base.action(p, geo, T, X, cand, n_cand, _may_discard(p, geo, T), base.params)
        _apply(p, geo, T, slot, cell)
    return int(_result(p, T))


def _decide(level: int, S, cand, n_cand, may_discard, spec: str):
    """A rollout decision in plain Python: successive halving as the module doc says, every
    rollout played by :func:`_play_out`. Returns (action, values: sums -> means, counts)."""
    p = L.PARAMS[level]
    player = parse_player(spec)
    base = base_player(player.params)
    budget = int(player.param("n"))
    objective = int(_objective(p, S, ["mean", "bronze", "silver", "gold"].index(
        player.param("objective"))))
    n_hand = int(S.ints[I_HAND])
    n_act = n_hand * n_cand + (1 if may_discard else 0)
    values = np.zeros((n_act, 5))
    rng = S.rng.copy()
    move_seed = int(_next(rng))

    def key(a):
        cnt = max(values[a, 4], 1.0)
        if objective == 0:
            return values[a, 0] / cnt
        return values[a, objective] / cnt + 1e-9 * values[a, 0] / cnt

    def move(a):
        return (0, -1) if a == n_hand * n_cand else (a // n_cand, int(cand[a % n_cand]))

    alive = list(range(n_act))
    top = int(player.param("top"))
    late = int(player.param("late"))
    if late and get_level(level).cells - int(S.ints[I_FILLED]) > late:
        top = 1  # early: the prior's choice
    if 0 < top < n_act:  # the prior's ranking of the actions, judged on a copy of S
        T = new_state(get_level(level).cells)
        _copy_state(S, T)
        T.rng[:] = S.rng  # its random stream too
        pobjective = player.param("pobjective")  # the learned player one move deep playing
        prior = parse_player(PRIOR + ("" if pobjective == "mean" else f",objective={pobjective}")
                             + f",exact={player.param('pexact')}")  # for it, its exact
        Xp = new_scratch(get_level(level), prior)  # and a scratch of its own
        prior.action(p, geometry(get_level(level).size), T, Xp, cand.copy(), n_cand,
                     may_discard, prior.params)
        ranks = int(_objective(p, S, ["mean", "bronze", "silver", "gold"].index(pobjective)))
        judged = Xp.values[:n_act].copy()

        def by_prior(a):  # its objective's value, the mean as a small tie-break
            v = judged[a, 0] if ranks == 0 else judged[a, ranks] + 1e-9 * judged[a, 0]
            return (-v, a)
        alive = sorted(alive, key=by_prior)[:top]
    rounds = max(1, (len(alive) - 1).bit_length())
    done = 0
    for _ in range(rounds):
        if len(alive) == 1:
            break
        per = max(1, budget // (len(alive) * rounds))
        for a in alive:
            slot, cell = move(a)
            for j in range(done, done + per):
                T = new_state(get_level(level).cells)
                _copy_state(S, T)
                _apply(p, geometry(get_level(level).size), T, slot, cell)
                seed = int(_mix(np.uint64((move_seed + (j + 1) * GOLDEN) & M64)))
                r = _play_out(level, T, base, seed)
                values[a] += (r, r >= p[L.P_BRONZE], r >= p[L.P_SILVER], r >= p[L.P_GOLD], 1)
        done += per
        alive = sorted(alive, key=key, reverse=True)[:(len(alive) + 1) // 2]
    best = alive[0]
    for a in alive:
        if key(a) > key(best):
            best = a
    counts = values[:, 4].copy()
    values[:, :4] /= np.maximum(counts, 1)[:, None]
    return move(best), values


@pytest.mark.parametrize("level, spec, moves", [
    (14, "rollout:n=24,base=expectimax,bk=3", 9),
    (19, "rollout:n=24,base=expectimax,bk=3", 14),
    (20, "rollout:n=12,base=expectimax,bk=2,objective=gold,bobjective=gold", 16),
    (3, "rollout:n=16,base=learned,bk=2,objective=gold", 12),
    (20, "rollout:n=12,base=learned,bk=2", 20),
    (8, "rollout:n=30", 16),
    (10, "rollout:n=30,base=random", 11),
    (10, "rollout:n=12,base=learned,bk=2,bdepth=2", 10),
    (12, "rollout:n=10,base=learned,bk=2,bdepth=2,bwidth=2,bsample=3", 20),
    (16, "rollout:n=12,base=learned,bk=2,objective=gold,top=3", 10),
    (19, "rollout:n=12,top=5", 14),
    (18, "rollout:n=12,base=learned,bk=2,top=1", 6),
    (20, "rollout:n=12,base=learned,bexact=2,objective=gold,top=3", 12),
    (20, "rollout:n=12,base=learned,bexact=2,objective=gold,top=3,pobjective=gold,pexact=2,"
         "late=22", 12),
    (16, "rollout:n=12,base=learned,bk=2,objective=gold,pobjective=gold,late=6", 16),
], ids=["level-14-expectimax", "level-19-expectimax", "level-20-expectimax-gold",
        "level-3-learned", "level-20-learned", "level-8-greedy", "level-10-random",
        "level-10-learned-depth-2", "level-12-learned-depth-2-sampled",
        "level-16-learned-top-3", "level-19-greedy-top-5", "level-18-learned-top-1",
        "level-20-learned-chain-top-3", "level-20-learned-chain-top-3-late-22",
        "level-16-learned-late-6"])
def test_rollout_decision_matches_python(level, spec, moves):
    """Random positions (a random number of random moves in): the kernel's action and every
    action's estimates equal the plain-Python decision's."""
    lv, p, geo = get_level(level), L.PARAMS[level], geometry(get_level(level).size)
    checked = 0
    for game in range(2):
        S, deck = _position(level, game, moves + 3 * game)
        if _done(p, S):
            continue
        checked += 1
        player = parse_player(spec)
        X = new_scratch(lv, player)
        cand = X.cand[0]
        n_cand = int(_candidates(geo, S, cand))
        may_discard = bool(_may_discard(p, geo, S))
        S0 = new_state(lv.cells)
        _copy_state(S, S0)
        S0.rng[:] = S.rng
        ref_move, ref_values = _decide(level, S0, cand.copy(), n_cand, may_discard, spec)
        slot, cell = player.action(p, geo, S, X, cand, n_cand, may_discard, player.params)
        n_act = len(ref_values)
        assert (int(slot), int(cell)) == ref_move
        np.testing.assert_allclose(X.values[:n_act], ref_values, rtol=1e-12, atol=1e-12)
        # the actions rolled out: all, or the prior's top best (top=1: none, the prior's choice;
        # so too before the last ``late`` cells)
        top = int(player.param("top"))
        late = int(player.param("late"))
        if late and lv.cells - int(S0.ints[I_FILLED]) > late:
            top = 1
        rolled = n_act if not 0 < top < n_act else (top if top > 1 else 0)
        assert (ref_values[:, 4] >= 1).sum() == rolled
    assert checked == 2


def test_rollout_leaves_the_position_alone():
    """The decision (its base searching inside) restores the state it was given."""
    lv, p, geo = get_level(18), L.PARAMS[18], geometry(get_level(18).size)
    S, _ = _position(18, 0, 10)
    before = [a.copy() for a in S]
    player = parse_player("rollout:n=10,base=expectimax,bk=2")
    X = new_scratch(lv, player)
    n_cand = _candidates(geo, S, X.cand[0])
    player.action(p, geo, S, X, X.cand[0], n_cand, _may_discard(p, geo, S), player.params)
    for name, a, b in zip(S._fields, before, S):
        if name != "rng":  # the decision draws its seed from the player's stream
            assert np.array_equal(a, b), name


# -------------------------------------------------------------------------------------------
# games: legal on every level, the same whatever the jobs


@pytest.mark.parametrize("level, spec, games", [
    (3, CHEAP["expectimax"], 4), (3, CHEAP["learned"], 4), (18, CHEAP["expectimax"], 2),
    (18, "rollout:n=12,top=3", 4),
], ids=["level-3-expectimax", "level-3-learned", "level-18-expectimax", "level-18-top"])
def test_same_games_whatever_the_jobs(level, spec, games):
    """Whatever the jobs and the chunks: a rollout's arrays (its state for rollouts, the
    prior's) carry nothing from one game or decision to the next that its moves depend on."""
    lv, player = get_level(level), parse_player(spec)
    one = run(lv, player, games, seed=21, jobs=1, chunk=games)
    two = run(lv, player, games, seed=21, jobs=2, chunk=1)
    assert one.all_scores.tolist() == two.all_scores.tolist()
    whole = play_batch(lv, player, 21, 0, games, 1)
    with ThreadPoolExecutor(2) as pool:  # two blocks on two threads: the same moves
        split = play_batch(lv, player, 21, 0, games, 2, pool=pool)
    assert np.array_equal(whole.moves, split.moves)
    assert whole.scores.tolist() == one.all_scores.tolist()


def test_bases_play_differently():
    """Each base is its own player in the rollouts: on the same decks the games differ."""
    lv = get_level(14)
    games = {b: run(lv, parse_player(CHEAP[b].replace("objective=gold", "objective=mean")), 3,
                    seed=4, jobs=1).all_scores.tolist() for b in ("random", "greedy", "expectimax")}
    assert len({tuple(g) for g in games.values()}) == 3, games


# -------------------------------------------------------------------------------------------
# the base player, its model, bad specs


def test_base_player_from_the_registry():
    assert base_player(parse_player("rollout").params).spec == "greedy"
    assert base_player(parse_player("rollout:base=random").params).spec == "random"
    assert base_player(parse_player("rollout:base=expectimax,bk=5").params).spec == "expectimax:k=5"
    learned = base_player(parse_player("rollout:base=learned,bk=3").params)
    if "learned" in PLAYERS:
        assert learned.kind.name == "learned"
    else:
        assert learned.spec == "expectimax:k=3,eval=learned"
    assert base_player(parse_player("rollout:base=expectimax,bobjective=gold").params).spec == \
        f"expectimax:k={DEFAULT_BK},objective=gold"
    assert base_player(parse_player("rollout:bobjective=gold,bk=2").params).spec == "greedy"
    # a learned base is one move deep unless bdepth=2 lets it look at the next card
    assert base_player(parse_player("rollout:base=learned,bk=3").params).param("depth") == 1
    deep = base_player(parse_player("rollout:base=learned,bk=3,bdepth=2").params)
    assert (deep.param("depth"), deep.param("k")) == (2, 3)
    assert base_player(parse_player("rollout:base=expectimax,bdepth=2").params).param("depth") == 2
    assert base_player(parse_player("rollout:bdepth=2").params).spec == "greedy"
    # at depth 2 its width and sample are bwidth and bsample (0: its own); one move deep, unused
    sampled = base_player(parse_player("rollout:base=learned,bdepth=2,bwidth=2,bsample=4").params)
    assert (sampled.param("width"), sampled.param("sample")) == (2, 4)
    assert base_player(parse_player("rollout:base=learned,bdepth=2").params).param("width") == 3
    assert base_player(parse_player("rollout:base=learned,bsample=4").params).param("sample") == 0
    assert base_player(parse_player("rollout:base=expectimax,bdepth=2,bsample=5").params
                       ).param("sample") == 5
    # a learned base's exact is bexact (1: its own); a base without one ignores it
    assert base_player(parse_player("rollout:base=learned,bexact=2").params).param("exact") == 2
    assert base_player(parse_player("rollout:base=learned").params).param("exact") == 1
    assert base_player(parse_player("rollout:base=expectimax,bexact=2").params).spec == \
        f"expectimax:k={DEFAULT_BK}"
    # the default spec and its loop are as before the bases
    assert parse_player("rollout:n=200").spec == "rollout:n=200"


def test_base_learned_carries_the_model():
    lv = get_level(17)
    player = parse_player("rollout:base=learned")
    table = MF.load_table(17)
    assert np.array_equal(MF.model_for(lv, player), table)
    X = new_scratch(lv, player)
    assert np.array_equal(X.base.X.learned, table)
    assert new_scratch(lv, parse_player("rollout:base=expectimax")).base.X.learned.shape[0] == 0


def test_top_ranks_with_the_learned_model_in_a_scratch_of_its_own():
    """``top`` brings the prior (the learned player one move deep) with the level's model and
    arrays of its own; without ``top`` there is none, whatever the base."""
    lv = get_level(18)
    X = new_scratch(lv, parse_player("rollout:n=100,top=4"))
    assert prior_player(parse_player("rollout:top=4").params).spec == PRIOR
    assert np.array_equal(X.prior.X.learned, MF.load_table(18))
    assert X.base.X.learned.shape[0] == 0  # the greedy base carries no model
    mine = [a for a in X if isinstance(a, np.ndarray)] + list(X.T)
    theirs = [a for a in X.prior.X if isinstance(a, np.ndarray)] + list(X.prior.X.T)
    assert not any(np.shares_memory(a, b) for a in mine for b in theirs if a.size and b.size)
    for spec in ("rollout:n=100", "rollout:base=learned,top=0"):
        assert prior_player(parse_player(spec).params) is None
        assert new_scratch(lv, parse_player(spec)).prior.shape == (0,)
    # its own kernel variant, named so; the default spec keeps its loop
    assert parse_player("rollout:top=4").loop_name == "rollout_greedy_top"
    assert parse_player("rollout:n=200").loop_name == "rollout_greedy"
    # it plays for pobjective; late brings it too (it plays the moves before the last cells)
    assert prior_player(parse_player("rollout:top=4,pobjective=gold").params).spec == \
        parse_player(PRIOR + ",objective=gold").spec
    assert prior_player(parse_player("rollout:top=4,pexact=2").params).param("exact") == 2
    late = parse_player("rollout:late=12")
    assert prior_player(late.params).spec == PRIOR and late.loop_name == "rollout_greedy_top"
    assert prior_player(parse_player("rollout:pobjective=gold").params) is None


def test_base_scratch_is_its_own():
    X = new_scratch(get_level(20), parse_player("rollout:base=expectimax,bk=4"))
    B = X.base
    assert B.params[list(PLAYERS["expectimax"].params).index("k")] == 4
    mine = [a for a in X if isinstance(a, np.ndarray)] + list(X.T)
    theirs = [a for a in B.X if isinstance(a, np.ndarray)] + list(B.X.T)
    assert not any(np.shares_memory(a, b) for a in mine for b in theirs if a.size and b.size)
