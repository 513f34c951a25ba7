"""The searchers (expectimax, rollouts) against the exact reference, their objectives, and
advise agreeing with them in play.

The reference is tests/oracles/expectiminimax.py: a plain-Python expectiminimax over the rules of
RULES.md, exact by full enumeration to the end of the game (final grids scored by
tests/oracles/reference.py), written without numberup.

Where numberup's expectimax is exact: it judges an unfinished grid by an *estimate* (random
completions of its lines), so its values are exact only where its tree reaches the end of the
game on every path. ``depth=2`` places the current card and the next one; a discard uses a
card without filling a cell. So the tree ends in full grids, scored exactly, with every
chance node enumerating all unseen cards, when 2 cells are empty and no discard is left, or 1
cell is empty and at most 1 discard is left (``depth=1``: 1 empty cell, no discard). There,
advise's per-action means must equal the reference's values to rounding; elsewhere they are
estimates and only self-consistency is checked.

Rollouts on positions with 2 empty cells (no discard left): after the action one cell is left,
so the greedy base player's continuation is forced (on a hand level it picks the card of best
final score, which is what the reference does) and a rollout's result is the final result
after a uniformly random next card. Its mean must converge to the reference value.
"""

from __future__ import annotations

import math
import random

import pytest

from oracles.expectiminimax import (
    DISCARDS, HAND, Position, action_values, outcomes, position_texts, random_position,
)
from oracles.reference import LEVELS as REF_LEVELS

from numberup.analysis.advise import advise
from numberup.game.levels import get_level
from numberup.evaluation.sampled import LATE_CELLS
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from oracles.advise_checks import GOLD_GRID, OBJECTIVE_KEY, RISKY, SAFE, TOL, action_of

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]

def _advise(state: Position, gone=(), player="expectimax:depth=2", seed=1) -> list[dict]:
    grid, hand, discarded = position_texts(state, gone)
    return advise(state.level, grid, hand, discarded, state.discards_left, player=player, seed=seed)


def _exact_for(depth: int, state: Position) -> bool:
    """Does expectimax of this depth reach the end of the game on every path (module doc)?"""
    empty = sum(cell is None for row in state.grid for cell in row)
    if depth == 1:
        return empty == 1 and state.discards_left == 0
    return (empty <= 2 and state.discards_left == 0) or (empty == 1 and state.discards_left <= 1)


def _endgames(level: int, rng: random.Random) -> list[tuple]:
    """(position, discarded cards) on which depth 2 is exact: 2 empty cells (random and greedy
    play up to there; greedy grids lie near the medals, so P(gold) varies), 1 empty cell; on
    discard levels also 1 empty cell with a discard left (the discard is an action)."""
    out = [random_position(level, 2, rng, rng.randint(0, DISCARDS.get(level, 0)), 0)
           for _ in range(4)]
    out += [random_position(level, 2, rng, 0, 0, greedy=True) for _ in range(2)]
    out += [random_position(level, 1, rng, 0, 0) for _ in range(2)]
    if level in DISCARDS:
        out += [random_position(level, 1, rng, used, 2 - max(used, 1)) for used in (0, 1, 1)]
    return out


# -------------------------------------------------------------------------------------------
# expectimax = exact expectiminimax on endgames


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_expectimax_exact_on_endgames(level):
    rng = random.Random(1000 + level)
    for state, gone in _endgames(level, rng):
        assert _exact_for(2, state)
        where = f"level {level}, hand {position_texts(state, gone)[1]!r}, discards left " \
                f"{state.discards_left}, grid:\n{position_texts(state)[0]}"
        for objective in ("mean", "gold"):
            ref = action_values(state, objective)
            spec = f"expectimax:depth=2,objective={objective}"
            rows = _advise(state, gone, spec, seed=rng.randrange(99))
            got = {action_of(r): r[OBJECTIVE_KEY[objective]] for r in rows}
            assert sorted(got, key=str) == sorted(ref, key=str), f"actions differ at {where}"
            for a, value in ref.items():
                assert got[a] == pytest.approx(value, abs=TOL), (
                    f"{objective} of {a} at {where}: expectimax {got[a]}, exact {value}")
            top = action_of(rows[0])
            assert ref[top] >= max(ref.values()) - TOL, (
                f"{objective}: advise's top {top} is not best at {where}")


def test_reference_rules():
    """The reference's own turn flow: 6x6 setup offers the free centre cells and no discard;
    a hand level draws back to five after setup; a discard takes the card just drawn."""
    rng = random.Random(5)
    n = 6
    grid = [[None] * n for _ in range(n)]
    grid[2][3] = (1, 0)
    state = Position(9, tuple(map(tuple, grid)), ((2, 0),), ((3, 0), (4, 0)))
    assert sorted(cell for _, cell in state.legal_actions()) == [(2, 2), (3, 2), (3, 3)]
    in_setup = Position(19, state.grid, (), ((2, 0), (3, 0)))
    assert in_setup.capacity() == 1 and in_setup.is_chance_node()
    start13 = Position(13, ((None,) * 5,) * 5, ((2, 0),), ((3, 0),), discards_left=2)
    assert start13.legal_actions() == [((2, 0), (2, 2))]  # the centre, and no discard in setup
    setup_done, _ = random_position(19, 32, rng)  # 4 centre cards placed
    after = Position(19, setup_done.grid, (), setup_done.hand + setup_done.unseen)
    assert after.capacity() == HAND[19] and after.is_chance_node()
    s = after
    while s.is_chance_node():
        s = s.child(s.chance_outcomes()[0][0])
    assert len(s.hand) == 5
    state3, _ = random_position(3, 3, rng, 1)
    assert state3.legal_actions()[-1] == (state3.hand[0], None)
    assert state3.child(state3.legal_actions()[-1]).discards_left == 0


# -------------------------------------------------------------------------------------------
# rollouts converge to the exact values


def _sd(dist: list) -> float:
    mean = sum(p * r for p, r in dist)
    return math.sqrt(max(sum(p * (r - mean) ** 2 for p, r in dist), 0.0))


@pytest.mark.parametrize("level", [1, 3, 8, 9, 14, 17, 18], ids=lambda n: f"level-{n}")
def test_rollouts_converge(level):
    """n=20000 rollouts: with two actions successive halving has one round, so each action
    gets n/2 rollouts; on the hand level (10 actions, 4 rounds) every action gets at least
    n/(10*4) in the first round and only the top action is checked. Bound: 4 sigma/sqrt(count)."""
    n = 20000
    rng = random.Random(70 + level)
    for _ in range(2):
        state, gone = random_position(level, 2, rng, 0, 0, greedy=True)
        rows = _advise(state, gone, f"rollout:n={n},base=greedy", seed=rng.randrange(99))
        ref = action_values(state)
        n_act = len(ref)
        rounds = max(1, math.ceil(math.log2(n_act)))
        count = n // (n_act * rounds)
        checked = rows if n_act == 2 else rows[:1]
        for row in checked:
            a = action_of(row)
            sd = _sd(outcomes(state.child(a)))
            assert abs(row["mean"] - ref[a]) <= 4 * sd / math.sqrt(count) + TOL, (
                f"level {level}, action {a}: rollout mean {row['mean']}, exact {ref[a]} "
                f"(sd {sd}, {count} rollouts), grid:\n{position_texts(state)[0]}")


# -------------------------------------------------------------------------------------------
# advise agrees with the player in actual play


def _positions(batch, g: int) -> list[tuple]:
    """(position, discarded cards, move) before each move of game ``g`` of a batch."""
    lv = REF_LEVELS[batch.level.number]
    n = lv.size
    to_card = lambda i: (int(i) // 8 + 1, int(i) % 8)  # noqa: E731  (numberup's card id)
    deck = [to_card(c) for c in batch.decks[g]]
    grid = [[None] * n for _ in range(n)]
    hand, gone, nxt, out = [], [], 0, []
    for card_id, cell in batch.moves[g]:
        if card_id < 0:
            break
        state = Position(lv.number, tuple(map(tuple, grid)), (), ())
        cap = state.capacity()
        while len(hand) < cap and nxt < len(deck):
            hand.append(deck[nxt])
            nxt += 1
        state = Position(lv.number, state.grid, tuple(hand), tuple(deck[nxt:]),
                         DISCARDS.get(lv.number, 0) - len(gone))
        card = to_card(card_id)
        move = (card, None if cell < 0 else (int(cell) // n, int(cell) % n))
        out.append((state, tuple(gone), move))
        hand.remove(card)
        if cell < 0:
            gone.append(card)
        else:
            grid[int(cell) // n][int(cell) % n] = card
    return out


@pytest.mark.parametrize(
    "level, spec", [(1, "expectimax:depth=2"), (13, "expectimax:depth=2"), (18, "expectimax")],
    ids=["level-1", "level-13", "level-18"])
def test_advise_agrees_with_play(level, spec):
    """In games of ``spec``: where the search is exact, the move played and advise's top action
    are both best by the reference; at a mid-game position advise's top action is the best
    by its own values (the player's own random stream only breaks ties and seeds completions,
    so the same position can be judged slightly differently in the game)."""
    batch = play_batch(get_level(level), parse_player(spec), 11, 0, 3, 1)
    depth = int(parse_player(spec).param("depth"))
    exact = 0
    for g in range(3):
        positions = _positions(batch, g)
        for state, gone, move in positions:
            if not _exact_for(depth, state):
                continue
            exact += 1
            ref = action_values(state)
            best = max(ref.values())
            assert ref[move] >= best - TOL, f"game {g}: played {move} ({ref[move]}), best {best}"
            top = action_of(_advise(state, gone, spec)[0])
            assert ref[top] >= best - TOL, f"game {g}: advise's {top} ({ref[top]}), best {best}"
        state, gone, move = positions[len(positions) // 2]
        rows = _advise(state, gone, spec, seed=g)
        assert move in {action_of(r) for r in rows}
        assert all(rows[0]["mean"] >= r["mean"] - 1e-12 for r in rows)
    assert exact >= 3


# -------------------------------------------------------------------------------------------
# objectives


def test_objective_gold():
    assert parse_player("expectimax:objective=gold").param("objective") == "gold"
    assert parse_player("rollout:n=100,base=greedy,objective=gold").param("objective") == "gold"
    by_cell = lambda rows: {tuple(r["cell"]): r for r in rows}  # noqa: E731
    mean_rows = advise(1, GOLD_GRID, "4b", player="expectimax:depth=2")
    assert tuple(mean_rows[0]["cell"]) == RISKY
    for spec in ("expectimax:depth=2,objective=gold", "rollout:n=20000,base=greedy,objective=gold"):
        rows = advise(1, GOLD_GRID, "4b", player=spec)
        assert tuple(rows[0]["cell"]) == SAFE, spec
        assert rows[0]["p_gold"] == max(r["p_gold"] for r in rows) == 1.0, spec
        assert by_cell(rows)[RISKY]["p_gold"] == pytest.approx(4 / 6, abs=0.02), spec
    # the default depth on a summed level: P(gold) steers the last LATE_CELLS cards, the
    # mean the cards before; on a level scored by its lowest line P(gold) steers throughout
    for level, empty, key in ((14, 12, "mean"), (14, LATE_CELLS, "p_gold"), (3, 20, "p_gold")):
        state, gone = random_position(level, empty, random.Random(3), greedy=True)
        rows = _advise(state, gone, "expectimax:objective=gold")
        assert rows[0][key] >= max(r[key] for r in rows) - 1e-12, (level, empty)


def test_advise_lists_what_top_left_out_as_unjudged():
    """A rollout with ``top=2`` rolls out 2 actions: advise gives those their estimates, first,
    and the others none (not zeros, which on level 20, scored by the lowest line, would rank
    above a negative mean), listed in the prior's order (the next candidates for
    continuations)."""
    state, gone = random_position(20, 20, random.Random(20), 0)
    rows = _advise(state, gone, player="rollout:n=12,top=2", seed=3)
    judged = [r["mean"] is not None for r in rows]
    assert len(rows) > 2 and judged == [True, True] + [False] * (len(rows) - 2)
    assert all(r["p_gold"] is None for r in rows[2:])
    # the unjudged ones in the order of the prior (the learned player one move deep, whose
    # ranking picked the two), as its own advice ranks them on the same stream
    prior = [action_of(r) for r in _advise(state, gone, player="learned:depth=1", seed=3)]
    left = {action_of(r) for r in rows[2:]}
    assert [action_of(r) for r in rows[2:]] == [a for a in prior if a in left]
    assert {action_of(r) for r in rows[:2]} == set(prior[:2])
    # a prior playing for gold (pobjective) ranks, and advise orders, by its P(gold) with the
    # mean as a 1e-9 tie-break (the rollout's rule)
    rows = _advise(state, gone, player="rollout:n=12,top=2,pobjective=gold", seed=3)
    gold = {action_of(r): r["p_gold"] + 1e-9 * r["mean"]
            for r in _advise(state, gone, player="learned:depth=1,objective=gold", seed=3)}
    keys = [gold[action_of(r)] for r in rows]
    assert keys[2:] == sorted(keys[2:], reverse=True) and min(keys[:2]) >= max(keys[2:])
    # the same search without top judges every action
    assert all(r["mean"] is not None for r in _advise(state, gone, player="rollout:n=12", seed=3))
