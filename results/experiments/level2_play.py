"""Play players on decks of the training seed (games 30,300 onwards of seed 7, never trained
on) and print each one's mean, P(gold) and CPU milliseconds a game (one thread; this shared
machine's speed moves by a third, so compare times of one run only).

    python results/experiments/level2_play.py LEVEL GAMES SPEC [SPEC ...]

With a patched tree (a patch of this folder that reads its knobs when the kernels compile):

    git worktree add /tmp/trial HEAD && cd /tmp/trial && git apply results/experiments/X.patch
    PYTHONPATH=/tmp/trial NUMBA_CACHE_DIR=$(mktemp -d) MARGIN=0.25 \\
        python results/experiments/level2_play.py 2 1500 learned:depth=2,width=2
"""
import sys
import time

import numpy as np

from numberup.levels import get_level
from numberup.runner import play_chunk

level, games = int(sys.argv[1]), int(sys.argv[2])
gold_at = get_level(level).medals[-1]  # (bronze, silver, gold)
for spec in sys.argv[3:]:
    play_chunk(level, spec, 7, 0, 2)  # compile first
    t0 = time.process_time()
    scores = np.asarray(play_chunk(level, spec, 7, 30300, games).scores)
    ms = 1000 * (time.process_time() - t0) / games
    gold = 100 * np.mean(scores >= gold_at)
    print(f"{spec:40s} mean {scores.mean():.3f}  P(gold) {gold:.1f}%  {ms:.3f} ms/game",
          flush=True)
