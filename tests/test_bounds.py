"""No kernel reads or writes outside its arrays: every player plays a few games of the levels
with the most actions per decision (a hand of five on 6x6: levels 19 and 20) and of a 5x5
level with discards (3), compiled with numba's bounds checks in processes of their own (their
own caches: code compiled without the checks must not be loaded). Compiling every player so
is two fifths of the suite's work, so it is split over a few processes (:data:`PROCESSES`),
which pytest-xdist's workers run side by side with the other tests."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from numberup.players import PLAYERS

# every player, and the parameters that reach more of its code: depth 2 walks chance nodes and
# inner decisions (a sample keeps it quick); rollouts of every base player (a searching base
# with a scratch of its own inside the rollout's); the exact endgame (numberup/endgame.py)
# behind both searchers' hooks, discards and hands of five included; the learned player's
# look at the next card, card by card (level 3, with discards) and by value (level 9, the
# largest tables of numberup/exact.py), after "@" the levels a spec plays instead of LEVELS.
SPECS = {
    "random": ["random"],
    "greedy": ["greedy"],
    "expectimax": ["expectimax:k=8", "expectimax:depth=2,sample=2,k=4,objective=gold",
                   "expectimax:k=8,endgame=3"],
    "rollout": ["rollout:n=40", "rollout:n=20,base=random,objective=gold,endgame=3",
                "rollout:n=6,base=expectimax,bk=2", "rollout:n=4,base=learned,bk=2,objective=gold"],
    "learned": ["learned:k=4,endgame=3", "learned:k=2,objective=gold",
                "learned:k=2,depth=2@3,9"],
}
LEVELS = (19, 20, 3)
# the processes, of two to five minutes' compiling each on the 2-core machine: the rollout with
# the learned base compiles the learned kernel inside the rollout's, the longest compile of all
PROCESSES = {
    "random-greedy-expectimax": SPECS["random"] + SPECS["greedy"] + SPECS["expectimax"],
    "rollout": [s for s in SPECS["rollout"] if "base=learned" not in s],
    "rollout-learned-base": [s for s in SPECS["rollout"] if "base=learned" in s],
    "learned": SPECS["learned"],
}

GAMES = """
import sys
from numberup.levels import get_level
from numberup.players import parse_player
from numberup.simulate import play_batch
for arg in sys.argv[1:]:
    spec, _, levels = arg.partition("@")
    for level in map(int, levels.split(",")) if levels else {levels}:
        b = play_batch(get_level(level), parse_player(spec), 3, 0, 2, 1)
        print(level, spec, list(b.scores))
"""


def test_specs_cover_every_player():
    assert set(SPECS) == set(PLAYERS), "a player is missing from the bounds-checked runs"
    every = [s for group in SPECS.values() for s in group]
    run = [s for specs in PROCESSES.values() for s in specs]
    assert sorted(run) == sorted(every), "a spec runs in no process, or in two"


@pytest.mark.parametrize("process", list(PROCESSES))
def test_every_player_within_bounds(process, tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    specs = PROCESSES[process]
    proc = subprocess.run([sys.executable, "-c", GAMES.format(levels=LEVELS), *specs], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    runs = sum(len(s.partition("@")[2].split(",")) if "@" in s else len(LEVELS) for s in specs)
    assert len(proc.stdout.splitlines()) == runs, proc.stdout
