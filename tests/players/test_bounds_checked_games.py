"""No kernel reads or writes outside its arrays. The suite runs with numba's bounds checks on
(tests/conftest.py; tests/test_numba_boundscheck.py checks that they are), so every test's
games are checked; here every player, with the parameters that reach more of its code, plays
a few games of the levels with the most actions per decision (a hand of five on 6x6: levels
19 and 20) and of a 5x5 level with discards (3)."""

from __future__ import annotations

import pytest

from numberup.game.levels import get_level
from numberup.players.registry import PLAYERS, parse_player
from numberup.runs.loop import play_batch

# every player, and the parameters that reach more of its code: depth 2 walks chance nodes and
# inner decisions (a sample keeps it quick); rollouts of every base player (a searching base
# with a scratch of its own inside the rollout's); the exact endgame (numberup/evaluation/endgame.py)
# behind both searchers' hooks, discards and hands of five included; the learned player's
# look at the next card, card by card (level 3, with discards) and by value (level 9, the
# largest tables of numberup/evaluation/exact.py), after "@" the levels a spec plays instead of LEVELS
# (rollouts of a searching base are slow on 19 and 20: tests/players/test_rollout.py plays a
# game of each on every level, under the same checks).
SPECS = {
    "random": ["random"],
    "greedy": ["greedy"],
    "expectimax": ["expectimax:k=8", "expectimax:depth=2,sample=2,k=4,objective=gold",
                   "expectimax:k=8,endgame=3"],
    "rollout": ["rollout:n=40", "rollout:n=20,base=random,objective=gold,endgame=3",
                "rollout:n=6,base=expectimax,bk=2@3", "rollout:n=4,base=learned,bk=2,objective=gold@3"],
    "learned": ["learned:k=4,endgame=3", "learned:k=2,objective=gold", "learned:k=2,exact=2",
                "learned:k=2,depth=2@3,9", "learned:k=2,depth=2,sample=3@3"],
    "best": ["best"],  # the level's setting (tests/players/test_best.py)
}
LEVELS = (19, 20, 3)
CASES = [(spec, level) for group in SPECS.values() for s in group
         for spec, _, at in [s.partition("@")]
         for level in (map(int, at.split(",")) if at else LEVELS)]


def test_specs_cover_every_player():
    assert set(SPECS) == set(PLAYERS), "a player is missing from the bounds-checked games"


@pytest.mark.parametrize("spec, level", CASES)
def test_player_within_bounds(spec, level):
    # a read or write outside an array raises IndexError here
    b = play_batch(get_level(level), parse_player(spec), 3, 0, 2, 1)
    assert len(b.scores) == 2
