"""Judge model files against each other: play `learned:objective=gold` and `learned` (the mean)
with each model's weights (times its own scale, or the scale given after a colon) on the same
decks of the training seed, and print each one's mean and P(gold), and the paired difference
(95%) against the first model. Runs on the tree of today (the subpackage paths).

    numberup train --level 14 --games 300000 --seed 7 --jobs 1 --out /tmp/m14.npz
    python results/experiments/model_play.py 14 400000 3000 numberup/learned/models/level-14.npz /tmp/m14.npz

Decks: games FIRST .. FIRST+N-1 of seed 7; pick FIRST past every model's training and tuning
games (a model of G games trains on 0 .. G-1 and tunes its scale on the 300 after them).
"""
import sys

import numpy as np

from numberup.game.levels import get_level
from numberup.learned.modelfile import read_model
from numberup.training.train import play_with

SEED = 7


def main(argv):
    level, first, n = int(argv[0]), int(argv[1]), int(argv[2])
    gold_at = get_level(level).medals[-1]
    models = []
    for arg in argv[3:]:
        path, _, scale = arg.partition(":")
        weights, facts = read_model(path, level)
        s = float(scale) if scale else facts["scale"]
        models.append((arg, weights * s, s, facts["games"]))
    for spec in ("learned:objective=gold", "learned"):
        first_scores = None
        for name, weights, s, games in models:
            scores = play_with(level, weights, SEED, first, n, spec)
            gold = (scores >= gold_at).astype(float)
            line = (f"level {level} {spec:24s} {name} ({games:,} games, scale {s:.2f}): "
                    f"mean {scores.mean():.2f} P(gold) {100 * gold.mean():.1f}%")
            if first_scores is None:
                first_scores = scores, gold
            else:
                d, dg = scores - first_scores[0], gold - first_scores[1]
                half = 1.96 / np.sqrt(n)
                line += (f"; against the first: mean {d.mean():+.2f} +-{half * d.std(ddof=1):.2f},"
                         f" P(gold) {100 * dg.mean():+.1f} +-{100 * half * dg.std(ddof=1):.1f}")
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
