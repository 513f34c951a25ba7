"""Train a level's model with a patched tree and judge it on 3,000 decks of the training seed
(games 30,300-33,299 of seed 7, never trained on), at several scales of its correction.

    git worktree add /tmp/trial 1bdc547 && cd /tmp/trial && git apply results/experiments/X.patch
    PYTHONPATH=/tmp/trial NUMBA_CACHE_DIR=$(mktemp -d) [ACT_SCALE=0.5 | LAMBDA=0.8] \\
        python results/experiments/level2_trial.py 2

A fresh NUMBA_CACHE_DIR for each setting: the patches read ACT_SCALE and LAMBDA when the
training kernel is compiled, and numba's cache does not key on them.
"""
import sys

from numberup.train import play_with, train_level

level = int(sys.argv[1])
games = int(sys.argv[2]) if len(sys.argv) > 2 else 30_000
W, facts = train_level(level, games=games, seed=7, distil_games=0)  # as before distillation
print("chosen scale", facts["scale"], "squared error", round(facts["error_first"], 2), "->",
      round(facts["error_last"], 2))
for scale in (0.4, 0.5, 0.6, 0.7, 0.8, 1.0):
    print(f"scale {scale}: mean {play_with(level, W * scale, 7, 30300, 3000).mean():.2f}")
