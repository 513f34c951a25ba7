"""The exact endgame (numberup/evaluation/endgame.py) against the plain-Python expectiminimax of
tests/oracles/expectiminimax.py, on random endgames of every level (in play:
tests/players/test_endgame_hook.py).

With ``endgame=3`` a searcher's decision at 1-3 empty cells is exact: advise's value of every
action equals the reference's (mean, or P(gold) with ``objective=gold``) to rounding, discards
and hands included, and its top action (the one the player plays) is among the best.
"""

from __future__ import annotations

import random

import pytest

from oracles.expectiminimax import DISCARDS, HAND, action_values, position_texts, random_position

from numberup.analysis.advise import advise
from oracles.advise_checks import OBJECTIVE_KEY, TOL, action_of

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]


def _endgames(level: int, rng: random.Random) -> list[tuple]:
    """(position, discarded cards) with 1, 2 and 3 empty cells (random play up to there, and
    greedy play, whose grids lie near the medals so that P(gold) is neither 0 nor 1); on discard
    levels also with both discards left and with one (a discard is an action, and the tree is
    then deeper than the empty cells). Hand levels at 3 empty cells cost the reference seconds:
    one such position there."""
    out = [random_position(level, 1, rng, 0, 0), random_position(level, 2, rng, 0, 0),
           random_position(level, 2, rng, 0, 0, greedy=True),
           random_position(level, 3, rng, 0, 0, greedy=True)]
    if level not in HAND:
        out.append(random_position(level, 3, rng, 0, 0))
    if level in DISCARDS:
        out += [random_position(level, 2, rng, 0, 2), random_position(level, 3, rng, 1, 1),
                random_position(level, 1, rng, 1, 1)]
    return out


def _advise(state, gone, spec: str, seed: int) -> list[dict]:
    grid, hand, discarded = position_texts(state, gone)
    return advise(state.level, grid, hand, discarded, state.discards_left, player=spec, seed=seed)


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_endgame_is_exact(level):
    rng = random.Random(4000 + level)
    for state, gone in _endgames(level, rng):
        where = f"level {level}, hand {position_texts(state, gone)[1]!r}, discards left " \
                f"{state.discards_left}, grid:\n{position_texts(state)[0]}"
        for objective in ("mean", "gold"):
            ref = action_values(state, objective)
            rows = _advise(state, gone, f"expectimax:endgame=3,objective={objective}",
                           seed=rng.randrange(99))
            got = {action_of(r): r[OBJECTIVE_KEY[objective]] for r in rows}
            assert sorted(got, key=str) == sorted(ref, key=str), f"actions differ at {where}"
            for a, value in ref.items():
                assert got[a] == pytest.approx(value, abs=TOL), (
                    f"{objective} of {a} at {where}: endgame {got[a]}, exact {value}")
            top = action_of(rows[0])
            assert ref[top] >= max(ref.values()) - TOL, (
                f"{objective}: the endgame's choice {top} is not best at {where}")


@pytest.mark.parametrize("level,top", [(3, 0), (8, 0), (13, 0), (19, 0), (20, 2)])
def test_rollout_endgame_is_exact(level, top):
    """The same kernel behind rollout's hook: exact values where rollouts would estimate. With
    ``top`` too (rollouts of the prior's best actions only): the endgame judges every action,
    so advice lists none of them as unjudged."""
    rng = random.Random(4100 + level)
    state, gone = random_position(level, 2, rng, 0, DISCARDS.get(level, 0) and 1, greedy=True)
    ref = action_values(state, "gold")
    rows = _advise(state, gone, f"rollout:n=50,endgame=2,objective=gold,top={top}", seed=3)
    assert {action_of(r): r["p_gold"] for r in rows} == pytest.approx(ref, abs=TOL)
    assert ref[action_of(rows[0])] >= max(ref.values()) - TOL


def test_endgame_waits_for_its_cells():
    """With 4 empty cells, ``endgame=3`` leaves the decision to the player's own search (its
    estimates, not exact values), and ``endgame=4`` takes it: same position, other values."""
    state, gone = random_position(14, 4, random.Random(7), greedy=True)
    ref = action_values(state)
    plain = _advise(state, gone, "expectimax", seed=1)
    off = _advise(state, gone, "expectimax:endgame=3", seed=1)
    on = _advise(state, gone, "expectimax:endgame=4", seed=1)
    assert off == plain
    assert {action_of(r): r["mean"] for r in on} == pytest.approx(ref, abs=TOL)
    assert {action_of(r): r["mean"] for r in off} != pytest.approx(ref, abs=TOL)
