"""numba's on-disk cache under several processes started together on an empty cache.

Kernels are cached in a directory named after a digest of the kernel sources
(:mod:`numberup.jit`), and nothing is ever deleted, so processes that compile and load at the
same moment cannot pull a file from under each other.
"""

from __future__ import annotations

import os
import subprocess
import sys

from numberup.jit import SOURCES_DIGEST

# A tiny run: the random player compiles the least of any player.
GAMES = """
import hashlib
from numberup.levels import get_level
from numberup.players import parse_player
from numberup.simulate import play_batch
b = play_batch(get_level(1), parse_player("random"), 5, 0, 30, 2)
print(hashlib.sha256(b.scores.tobytes() + b.moves.tobytes()).hexdigest())
"""


def test_processes_start_together_on_a_cold_cache(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", GAMES], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
    assert len({out for out, _ in outs}) == 1, [out for out, _ in outs]
    where = {p.name for p in tmp_path.rglob(f"numba-{SOURCES_DIGEST}")}
    assert where, "the kernels were not cached in the directory of the sources' digest"
    # a later process loads what they wrote and plays the same games
    again = subprocess.run([sys.executable, "-c", GAMES], env=env, capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0 and again.stdout == outs[0][0], again.stderr
