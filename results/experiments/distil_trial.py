"""Distil a teacher into the package's model of a level and judge both on 3,000 decks of the
training seed past every game it trained on (games 40,000-42,999 of seed 7).

    git worktree add /tmp/trial 1e2cd19 && cd /tmp/trial && git apply results/experiments/rollout-teacher.patch
    PYTHONPATH=/tmp/trial python results/experiments/distil_trial.py 13 4000 rollout:n=800 0.005 0 out.npy
    PYTHONPATH=/tmp/trial python results/experiments/distil_trial.py 13 4000 rollout:n=800 0.005 1.0 out.npy

Arguments: level, games of distillation (games 0.. of seed 7, as training distils), the
teacher's spec, the perceptron step, the margin (0: step wherever the two choose otherwise;
M > 0: only where the teacher's estimate of its own action is at least M points above its
estimate of the student's), and where to save the weights. Prints the mean and P(gold)
before and after.
"""
import sys
import time

import numpy as np

from numberup.game.levels import get_level
from numberup.learned.modelfile import load_model
from numberup.training.distil import distil
from numberup.training.train import play_with

level, games, teacher = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
eta, margin, out = float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
W, facts = load_model(level)
W0 = W * facts["scale"]  # as played
t = time.time()
W1, counts = distil(level, W0, 7, 0, games, eta=eta, teacher=teacher, margin=margin)
print(f"distilled in {time.time() - t:.0f} s; decisions, where the two differed: first chunk "
      f"{counts[0]}, last {counts[-1]}")
np.save(out, W1)
gold = get_level(level).medals[-1]
for name, w in (("before", W0), ("after", W1)):
    s = play_with(level, w, 7, 40_000, 3_000)
    print(f"{name}: mean {s.mean():.2f}, P(gold) {100 * (s >= gold).mean():.1f}%")
