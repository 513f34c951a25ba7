"""The searchers' endgame hook (``endgame=E``) in play: the moves before the last E cells are
the player's own (the same games as without it), and the games are the same whatever the
threads (the exact values it plays by: tests/evaluation/test_endgame.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run
from numberup.runs.sinks import GameLog


@pytest.mark.parametrize("spec", ["expectimax:endgame=3", "rollout:n=30,endgame=2"])
def test_moves_before_the_endgame_are_the_players_own(spec):
    """The hook changes nothing before the endgame: the same games as without it up to the
    last ``E`` cells (so the default specs, endgame=0, play as before), and exact after."""
    base = spec.rsplit(",", 1)[0] if "," in spec else "expectimax"
    E = int(spec.rsplit("=", 1)[1])
    for level in (8, 18):
        lv = get_level(level)
        a = play_batch(lv, parse_player(base), 5, 0, 4, 1)
        b = play_batch(lv, parse_player(spec), 5, 0, 4, 1)
        first = lv.cells - E  # moves before the endgame (no discards on these levels)
        assert np.array_equal(a.moves[:, :first], b.moves[:, :first]), (level, spec)
        assert np.array_equal(a.decks, b.decks)


@pytest.mark.parametrize("spec", ["expectimax:endgame=3,objective=gold", "rollout:n=20,endgame=3"])
def test_endgame_games_reproducible(spec, tmp_path):
    """Same seed, same games (decks, moves, scores), whatever the threads: jobs 1 and 2, in
    chunks of 3. (Their games replay legally on every level: tests/players/test_replay.py.)"""
    for level in (3, 13, 20):
        lv, pl = get_level(level), parse_player(spec)
        logs = []
        for jobs in (1, 2):
            log = GameLog(tmp_path / f"{level}-{jobs}.jsonl")
            run(lv, pl, 6, seed=9, jobs=jobs, chunk=3, sinks=[log])
            log.close()
            logs.append([json.loads(line) for line in open(tmp_path / f"{level}-{jobs}.jsonl")])
        assert len(logs[0]) == 6 and all(r["moves"] for r in logs[0])
        assert logs[0] == logs[1], (level, spec)
