"""The colour-supply bound (numberup.analysis.supply): its enumeration of a colour's services
against a plain enumeration without its symmetry cut, a hand-worked deal, and the bound never
below a layout of the deal's cards (improved by swaps, scored by the reference scorer) or a game
played."""

import itertools

import numpy as np
import pytest

from oracles.reference import ref_game
from test_hindsight import _card

from numberup.analysis import bounds, hindsight, supply
from numberup.analysis.warm import player_games
from numberup.game.levels import get_level


def _plain_services(values, thetas, most):
    """Every labelling of the cards (a served row or none, a served column or none), no two
    cards on one crossing: the (rows, columns) per tier each gives, kept as the module keeps
    them."""
    out = set()
    labels = [(r, c) for r in range(most + 1) for c in range(most + 1)]
    for lab in itertools.product(labels, repeat=len(values)):
        crossings = [rc for rc in lab if rc[0] and rc[1]]
        if len(crossings) != len(set(crossings)):
            continue
        rows, cols = [0] * most, [0] * most
        for v, (r, c) in zip(values, lab):
            if r:
                rows[r - 1] += v
            if c:
                cols[c - 1] += v

        def tiers(sums):
            return tuple(sum(1 for s in sums if t <= s < (thetas[i - 1] if i else 10 ** 9))
                         for i, t in enumerate(thetas))

        out.add((tiers(rows), tiers(cols)))
    return out


@pytest.mark.parametrize("values, thetas, most", [
    ((1, 2, 3, 4, 5), (9, 8, 7), 2), ((2, 4, 5), (9, 8, 7), 1), ((1, 3, 4, 5), (6, 5, 4), 3),
    ((2, 2, 5, 5), (6, 5, 4), 2)])
def test_services_match_the_plain_enumeration(values, thetas, most):
    assert supply.services(values, thetas, most) == _plain_services(values, thetas, most)


def test_a_colour_worth_15_serves_a_row_and_a_column_never_two_rows():
    got = supply.services((1, 2, 3, 4, 5), (9,), 2)
    assert ((1,), (1,)) in got  # row 3+5+1, column 3+4+2
    assert not any(rows[0] >= 2 for rows, _ in got)


def _deck(colour_values):
    """The 25 placed cards (value, colour) as card ids, then the rest of a level-1 deck."""
    placed = [(v - 1) * 8 + k for k, vs in enumerate(colour_values) for v in vs]
    rest = [(v - 1) * 8 + k for k in range(6) for v in range(1, 6) if (v - 1) * 8 + k not in placed]
    return np.array(placed + rest, np.int8)


def test_a_hand_worked_deal():
    """Four colours of 1-5 (each one row and one column at 9 or more), a fifth colour 4+5 (one
    more line), the last 1+2+3: nine lines reach the target and the tenth gets 6 at most, where
    the cheap bounds allow 100."""
    deck = _deck([(1, 2, 3, 4, 5)] * 4 + [(4, 5), (1, 2, 3)])
    assert supply.bound(1, deck) == 96
    assert bounds.line_cap(1, deck) == 100
    # and 100 where five colours are whole
    assert supply.bound(1, _deck([(1, 2, 3, 4, 5)] * 5)) == 100


def _climbed_layout_scores(level, deck, rng, swaps=400):
    """Scores of a random layout of the placed cards improved by swapping two cells whenever
    that does not lower the reference score."""
    lv = get_level(level)
    n = lv.size
    cells = list(np.asarray(deck[: lv.cells]))
    rng.shuffle(cells)

    def score(cs):
        return ref_game(level, [[_card(cs[r * n + c]) for c in range(n)] for r in range(n)])

    best = score(cells)
    seen = [best]
    for _ in range(swaps):
        a, b = rng.choice(len(cells), 2, replace=False)
        cells[a], cells[b] = cells[b], cells[a]
        s = score(cells)
        if s >= best:
            best = s
            seen.append(s)
        else:
            cells[a], cells[b] = cells[b], cells[a]
    return seen


@pytest.mark.parametrize("level", [1, 2, 4])
def test_never_below_a_layout_of_the_cards(level):
    rng = np.random.default_rng(level)
    for game in range(3):
        deck = hindsight.deal(level, 2026, game)
        b = supply.bound(level, deck)
        assert max(_climbed_layout_scores(level, deck, rng)) <= b


@pytest.mark.parametrize("level", [1, 4, 5])
def test_never_below_the_learned_players_games(level):
    lv = get_level(level)
    for game, (score, _) in player_games(lv, 2026, 0, 8, "learned").items():
        deck = hindsight.deal(lv, 2026, game)
        assert supply.bound(lv, deck) >= score and bounds.bound(lv, deck) >= score


def test_only_the_colour_sum_levels_have_one():
    assert [n for n in range(1, 21) if supply.applies(n)] == [1, 2, 4, 5]
    assert supply.bound(3, hindsight.deal(3, 1, 0)) is None


def test_level_4s_pairs_apart_never_above_the_sum_nor_below_a_game():
    """paired_bound tells a line's two colours apart: never above bound's figure (it only adds
    constraints), never below a climbed layout or the best player's game, and tighter on some
    deal of the first 16."""
    rng = np.random.default_rng(4)
    tighter = False
    games = player_games(4, 2026, 0, 16, "best")
    for game in range(16):
        deck = hindsight.deal(4, 2026, game)
        paired, summed = supply.paired_bound(4, deck), supply.bound(4, deck)
        assert paired <= summed
        assert games[game][0] <= paired
        if game < 3:
            assert max(_climbed_layout_scores(4, deck, rng)) <= paired
        tighter |= paired < summed
    assert tighter
    assert supply.paired_bound(1, hindsight.deal(1, 2026, 0)) is None
