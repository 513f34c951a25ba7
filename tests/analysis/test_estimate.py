"""advise's estimates: what a named player reaches after each action (numberup.analysis.estimate).

Two checks of different kinds:

- The same seeds, another way: each continuation is played again here in plain Python, one
  kernel call per step of the game (the engine's turn flow and the player's own action
  kernel, as a game would call them), from the position advise read (its legal cells, cards
  to come and hand sorted), with the deck order drawn from the same seed. The estimate must be exactly the mean of these games, on positions
  early and late in games of several levels, for a simple and a searching player.
- Against the exact reference (tests/oracles/expectiminimax.py, written without numberup): on
  endgames where the continuation has one cell left to fill (a forced move, or on a hand
  level the best card for it, which expectimax finds exactly there), the estimate's mean and
  P(gold) must lie within 4 standard errors of the exact distribution's.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from oracles.expectiminimax import action_values, outcomes, position_texts, random_position
from oracles.reference import parse_card

from numberup.game import levels as L
from numberup.analysis.advise import advice
from numberup.game.engine import (
    _apply, _begin_turn, _candidates, _done, _fill_deck, _load_state, _may_discard,
)
from numberup.analysis.estimate import seeds, summarize
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.game.rng import _shuffle
from numberup.players.scratch import new_scratch
from numberup.game.state import I_DECK, I_HAND, I_LEGAL, I_NEXT, I_UNSEEN, _copy_state, new_state
from numberup.game.tally import _rescore_all, _result


def _loaded(level: int, state, gone) -> object:
    """The state advise reads for ``state`` (a reference Position)."""
    lv = get_level(level)
    p, geo = L.PARAMS[level], geometry(lv.size)
    n = lv.size
    grid = np.full(lv.cells, -1, np.int8)
    for r in range(n):
        for c in range(n):
            if state.grid[r][c] is not None:
                v, col = state.grid[r][c]
                grid[r * n + c] = (v - 1) * 8 + col
    ids = lambda cards: np.array([(v - 1) * 8 + c for v, c in cards] + [0], np.int8)  # noqa: E731
    S = new_state(lv.cells)
    deck = np.zeros(lv.deck_size, np.int8)
    n_deck = _fill_deck(p, deck)
    _load_state(p, geo, S, deck, n_deck, grid, ids(state.hand), len(state.hand), ids(gone),
                len(gone), state.discards_left)
    return S


def _play_on_in_python(level: int, S, card, cell, seed, player) -> float:
    """One continuation, step by step from Python: play ``card`` on ``cell`` (None: discard),
    then ``player`` plays to the end, the cards to come in the order drawn from ``seed``."""
    lv = get_level(level)
    p, geo = L.PARAMS[level], geometry(lv.size)
    T = new_state(lv.cells)
    _copy_state(S, T)
    slot = [int(c) for c in T.hand[:T.ints[I_HAND]]].index(card)
    _apply(p, geo, T, slot, -1 if cell is None else cell[0] * lv.size + cell[1])
    for items, pos, count in ((T.legal, T.legal_pos, I_LEGAL), (T.unseen, T.unseen_pos, I_UNSEEN),
                              (T.hand, None, I_HAND)):  # the position's canonical orders
        k = int(T.ints[count])
        items[:k] = np.sort(items[:k])
        if pos is not None:
            pos[items[:k]] = np.arange(k)
    n = int(T.ints[I_UNSEEN])
    deck = np.zeros(lv.deck_size, np.int8)
    deck[:n] = T.unseen[:n]
    T.rng[0] = seed
    _shuffle(T.rng, deck, n)
    T.ints[I_NEXT], T.ints[I_DECK] = 0, n
    X = new_scratch(lv, player)
    while not _done(p, T):
        _begin_turn(p, geo, T, deck)
        n_cand = _candidates(geo, T, X.cand[0])
        s, c = player.action(p, geo, T, X, X.cand[0], n_cand, _may_discard(p, geo, T),
                             player.params)
        _apply(p, geo, T, s, c)
    _rescore_all(p, geo, T)
    return float(_result(p, T))


def _card_id(text: str) -> int:
    v, c = parse_card(text)
    return (v - 1) * 8 + c


@pytest.mark.parametrize("level, empty, spec", [
    (14, 12, "greedy"), (3, 9, "expectimax"), (8, 6, "expectimax"), (18, 8, "expectimax"),
    (13, 5, "greedy"),
], ids=lambda x: str(x))
def test_estimates_are_the_players_continuations(level, empty, spec):
    rng = random.Random(level * 100 + empty)
    state, gone = random_position(level, empty, rng, greedy=True)
    grid, hand, discarded = position_texts(state, gone)
    m, seed = 12, rng.randrange(1000)
    got = advice(level, grid, hand, discarded, state.discards_left, spec, seed,
                 candidates=2, continuations=m)
    assert (got["player"], got["plays"], got["continuations"]) == (spec, spec, m)
    S = _loaded(level, state, gone)
    player = parse_player(spec)
    seed_array = seeds(seed, m)
    estimated = [row for row in got["actions"] if row["estimate"] is not None]
    # a player with values of its own (expectimax) estimates the 2 candidates; greedy all
    assert len(estimated) == (2 if player.kind.advises else len(got["actions"]))
    assert got["actions"][:len(estimated)] == estimated
    for row in estimated[:3]:
        results = [_play_on_in_python(level, S, _card_id(row["card"]), row["cell"], s, player)
                   for s in seed_array]
        want = summarize(np.array(results), get_level(level).medals)
        assert row["estimate"] == pytest.approx(want, abs=1e-12), (level, row["card"], row["cell"])
    # the same continuations for every candidate: the first is at or above every other
    assert all(row["vs_first"]["diff"] >= 0 for row in estimated[1:])


def test_estimates_do_not_depend_on_threads():
    state, gone = random_position(14, 10, random.Random(5), greedy=True)
    grid, hand, _ = position_texts(state, gone)
    one, two = (advice(14, grid, hand, "", None, "greedy", candidates=None, continuations=30,
                       jobs=j) for j in (1, 2))
    assert one == two
    # successive halving over the player's time too
    one, two = (advice(14, grid, hand, "", None, "expectimax:k=4", candidates=4, jobs=j)
                for j in (1, 2))
    assert one == two


def _sd(dist) -> float:
    mean = sum(q * r for q, r in dist)
    return math.sqrt(max(sum(q * (r - mean) ** 2 for q, r in dist), 0.0))


@pytest.mark.parametrize("level", [1, 3, 8, 14, 17, 18, 20], ids=lambda n: f"level-{n}")
def test_estimates_match_the_exact_endgame(level):
    """Two empty cells and no discard left: after the action one cell is left, and the
    continuation is exact (every order of the cards to come is equally likely)."""
    rng = random.Random(900 + level)
    m = 2000
    gold = get_level(level).medals[2]
    for _ in range(2):
        state, gone = random_position(level, 2, rng, 0, 0, greedy=True)
        grid, hand, discarded = position_texts(state, gone)
        got = advice(level, grid, hand, discarded, 0, "expectimax", rng.randrange(99),
                     candidates=None, continuations=m)
        exact = action_values(state)
        assert len(got["actions"]) == len(exact)
        for row in got["actions"]:
            a = (parse_card(row["card"]), tuple(row["cell"]))
            dist = outcomes(state.child(a))
            e = row["estimate"]
            where = f"level {level}, action {a}, grid:\n{grid}"
            assert abs(e["mean"] - exact[a]) <= 4 * _sd(dist) / math.sqrt(m) + 1e-9, where
            p = sum(q for q, r in dist if r >= gold)
            assert abs(e["p_gold"] - p) <= 4 * math.sqrt(p * (1 - p) / m) + 1e-9, where
            assert e["p_gold_lo"] <= e["p_gold"] <= e["p_gold_hi"] and e["n"] == m
