"""Distil any teacher into a level's shipped model (the perceptron step of
numberup/training/distil.py, games 0.. of the training seed 7) and write the new model file;
runs on the tree as it is (no patch):

    python results/experiments/distil_teacher.py LEVEL TEACHER GAMES ETA OUT
    python results/experiments/distil_teacher.py 4 rollout:n=800 4000 0.005 /tmp/l4.npz

Then copy OUT over numberup/learned/models/level-NN.npz in a worktree and judge both models on
decks of the training seed past its games (README.md here: the commands).
"""
import sys, time
import numpy as np
from numberup.game import levels as L
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.game.state import new_state
from numberup.learned.features import MAX_FEATURES
from numberup.learned.modelfile import model_path, read_model, save_model
from numberup.players.registry import parse_player, at_level
from numberup.players.scratch import new_scratch
from numberup.training import distil as D

level, teacher_spec, games, eta, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
W0, facts = read_model(model_path(level), level)
lv = get_level(level)
p = L.PARAMS[level]
teacher = at_level(parse_player(teacher_spec), level)
student = parse_player(D.STUDENT)
loop = D._loop(teacher, student)
k = int(student.param("k"))
W = np.array(W0 * facts["scale"], np.float64)
geo = geometry(lv.size)
S, X = new_state(lv.cells), new_scratch(lv, teacher, weights=W)
deck = np.zeros(lv.deck_size, np.int8)
feats = np.zeros((2, int(p[L.P_NLINES]), MAX_FEATURES), np.int64)
n_feats = np.zeros((2, int(p[L.P_NLINES])), np.int64)
t0 = time.time()
for start in range(0, games, 250):
    n = min(250, games - start)
    c = loop(p, geo, S, X, deck, W, teacher.params, student.params, np.uint64(7), start, n, eta, k, feats, n_feats)
    print(level, start + n, c, "%.0fs" % (time.time() - t0), flush=True)
W = W.astype(np.float32).astype(np.float64)
save_model(out, W, level, 7, facts["games"], 1.0)
print("wrote", out, "%.0fs" % (time.time() - t0))
