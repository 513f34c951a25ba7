"""Hindsight (numberup.analysis.hindsight): the foresight search against a plain-Python brute
force on endgames of real deals, its bounds never below the optimum, its games legal on every
level, and its results independent of the number of threads."""

import json

import numpy as np
import pytest

from oracles.reference import ref_game
from oracles.replay import replay

from numberup.analysis import bounds, hindsight
from numberup.game.levels import get_level


# ---------------------------------------------------------------------------------------------
# A plain-Python foresight optimum, from the rules alone (RULES.md): the last few decisions of a
# game, every legal continuation tried.


def _card(cid):
    return (int(cid) // 8 + 1, int(cid) % 8)


def _position(level, deck, prefix):
    """(grid dict cell -> card, next deck index, hand, discards left) after ``prefix``."""
    lv = get_level(level)
    centre = {5: [12], 6: [14, 15, 20, 21]}[lv.size]
    grid, nxt, hand, discards = {}, 0, [], lv.discards
    for card, cell in prefix:
        nxt, hand = _draw(lv, deck, grid, nxt, hand, centre)
        assert card in hand
        hand.remove(card)
        if cell < 0:
            discards -= 1
        else:
            grid[cell] = card
    return grid, nxt, hand, discards


def _draw(lv, deck, grid, nxt, hand, centre):
    setup = len(grid) < len(centre)
    cap = 1 if setup or not lv.hand else lv.hand
    hand = list(hand)
    while len(hand) < cap and nxt < len(deck):
        hand.append(int(deck[nxt]))
        nxt += 1
    return nxt, hand


def _legal_cells(lv, grid, centre):
    n = lv.size
    if len(grid) < len(centre):
        return [c for c in centre if c not in grid]
    out = []
    for cell in range(n * n):
        if cell in grid:
            continue
        r, c = divmod(cell, n)
        if any((rr * n + cc) in grid for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
               if 0 <= rr < n and 0 <= cc < n):
            out.append(cell)
    return out


def brute_force(level, deck, prefix):
    """The best result of every legal continuation of ``prefix`` on ``deck`` (draw order)."""
    lv = get_level(level)
    n = lv.size
    centre = {5: [12], 6: [14, 15, 20, 21]}[n]
    grid, nxt, hand, discards = _position(level, deck, prefix)

    def best(grid, nxt, hand, discards):
        if len(grid) == n * n:
            rows = [[_card(grid[r * n + c]) for c in range(n)] for r in range(n)]
            return ref_game(level, rows)
        nxt, hand = _draw(lv, deck, grid, nxt, hand, centre)
        top = None
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            options = [best({**grid, cell: card}, nxt, rest, discards)
                       for cell in _legal_cells(lv, grid, centre)]
            if discards > 0 and len(grid) >= len(centre):
                options.append(best(grid, nxt, rest, discards - 1))
            top = max([top] + options) if top is not None else max(options)
        return top

    return best(grid, nxt, hand, discards)


# levels with each kind of rule: draw-and-place, discards, 6x6 setup, hand of five, lowest line
ENDGAMES = [(1, 4), (3, 4), (8, 4), (9, 4), (13, 4), (14, 4), (18, 3), (20, 3)]


@pytest.mark.parametrize("level,left", ENDGAMES, ids=[f"level-{lv}" for lv, _ in ENDGAMES])
def test_endgame_optimum_matches_brute_force(level, left):
    for game in range(2):
        deck = hindsight.deal(level, 7, game)
        _, moves = hindsight.search(level, deck, width=30)
        played = moves[moves[:, 0] >= 0]
        prefix = played[: len(played) - left]
        exact = brute_force(level, deck, [tuple(int(x) for x in m) for m in prefix])
        for pilots in (0, None):  # the partial-score beam alone, and with greedy finishes
            found, _ = hindsight.search(level, deck, prefix=prefix, width=4000, pilots=pilots)
            assert found == exact
        assert bounds.bound(level, deck) >= exact


def test_a_narrow_beam_is_never_above_the_optimum():
    deck = hindsight.deal(2, 3, 0)
    _, moves = hindsight.search(2, deck, width=20)
    prefix = moves[moves[:, 0] >= 0][:-4]
    exact = brute_force(2, deck, [tuple(int(x) for x in m) for m in prefix])
    for width in (1, 2, 5):
        for pilots in (0, 1, 3):
            assert hindsight.search(2, deck, prefix=prefix, width=width, pilots=pilots)[0] <= exact


# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_found_games_replay_with_their_score(level):
    f = hindsight.solve(level, 2026, 1, width=8)
    record = json.loads(json.dumps(f.record()))
    replay(record, level)  # legal, and the logged score is the reference scorer's
    assert f.bound_proven and f.bound >= f.found
    # the partial-score beam alone: its best game is a finished beam state, not a greedy finish
    found, moves = hindsight.search(level, f.deck, width=8, pilots=0)
    beam = hindsight.Foresight(level, 1, f.seed, found, None, False, f.deck, moves)
    replay(json.loads(json.dumps(beam.record())), level)


def test_deal_is_the_deck_simulate_deals():
    from numberup.players.registry import parse_player
    from numberup.runs.loop import play_batch

    for level in (1, 18):
        batch = play_batch(get_level(level), parse_player("random"), 99, 3, 2, 1)
        for k in range(2):
            assert np.array_equal(hindsight.deal(level, 99, 3 + k), batch.decks[k])


def test_same_seed_same_results_whatever_jobs():
    a = hindsight.run_level(16, 5, 6, jobs=1, width=30)
    b = hindsight.run_level(16, 5, 6, jobs=2, width=30)
    assert a.found.tolist() == b.found.tolist()
    assert np.array_equal(a.bound, b.bound)
