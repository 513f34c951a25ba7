"""The runner's promises: per-game results independent of threads, chunks and ``first``, and
the same deck for every player (a run interrupted or failing: tests/runs/test_interruption.py)."""

from __future__ import annotations

import numpy as np
import pytest

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.runs.simulate import run

ALL_LEVELS = list(range(1, 21))
LEVEL_IDS = [f"level-{n}" for n in ALL_LEVELS]
POLICIES = ["random", "greedy"]
# Levels that exercise every special: discards (3, 13), 6x6 setup (9, 12), hand (18), 6x6 hand (20).
SPECIAL_LEVELS = [3, 9, 13, 18, 20]


class Collect:
    """A sink keeping every batch's per-game arrays."""

    def __init__(self):
        self.batches = []

    def write(self, batch):
        self.batches.append(batch)

    def arrays(self) -> dict:
        out = {}
        for key in ("seeds", "scores", "lines", "decks", "moves"):
            out[key] = np.concatenate([getattr(b, key) for b in self.batches])
        out["games"] = np.concatenate(
            [np.arange(b.first, b.first + len(b.scores)) for b in self.batches]
        )
        return out


def _assert_same_games(a: dict, b: dict, what: str) -> None:
    for key in ("games", "seeds", "scores", "lines", "decks", "moves"):
        assert a[key].shape == b[key].shape, f"{what}: {key} shapes {a[key].shape} != {b[key].shape}"
        diff = np.argwhere(a[key] != b[key])
        assert len(diff) == 0, f"{what}: {key} differ first at index {tuple(diff[0])}"


# -------------------------------------------------------------------------------------------
# Per-game results do not depend on threads, chunks or where the run starts.


def _run(level, spec, games, seed, **kw) -> dict:
    sink = Collect()
    result = run(level, parse_player(spec), games, seed, sinks=[sink], **kw)
    assert not result.interrupted
    assert result.games == games
    arrays = sink.arrays()
    assert np.array_equal(result.all_scores, arrays["scores"])
    return arrays


@pytest.mark.parametrize("spec", POLICIES)
@pytest.mark.parametrize("level", SPECIAL_LEVELS, ids=[f"level-{n}" for n in SPECIAL_LEVELS])
def test_results_independent_of_jobs_and_chunks(level, spec):
    games, seed = 60, 11
    base = _run(level, spec, games, seed, jobs=1, chunk=1000)
    assert np.array_equal(base["games"], np.arange(games))
    _assert_same_games(base, _run(level, spec, games, seed, jobs=2, chunk=1000), "jobs=2")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=2, chunk=7), "chunk=7")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=1, chunk=1), "chunk=1")
    _assert_same_games(base, _run(level, spec, games, seed, jobs=None), "adaptive chunks")
    # play_batch directly, with any number of parallel blocks
    for blocks in (1, 3, 64):
        b = play_batch(get_level(level), parse_player(spec), seed, 0, games, blocks)
        assert np.array_equal(b.scores, base["scores"]), f"blocks={blocks}"
        assert np.array_equal(b.moves, base["moves"]), f"blocks={blocks}"


@pytest.mark.parametrize("spec", POLICIES)
@pytest.mark.parametrize("level", SPECIAL_LEVELS, ids=[f"level-{n}" for n in SPECIAL_LEVELS])
def test_first_offset(level, spec):
    whole = _run(level, spec, 20, 5, jobs=2, chunk=6)
    tail = _run(level, spec, 10, 5, jobs=1, chunk=4, first=10)
    assert np.array_equal(tail["games"], np.arange(10, 20))
    head = {k: v[10:] for k, v in whole.items()}
    _assert_same_games(head, tail, "games 10..19 vs first=10")


@pytest.mark.parametrize("level", ALL_LEVELS, ids=LEVEL_IDS)
def test_same_deck_for_every_player(level):
    lv = get_level(level)
    a = play_batch(lv, parse_player("random"), 3, 100, 25, 4)
    b = play_batch(lv, parse_player("greedy"), 3, 100, 25, 4)
    assert np.array_equal(a.seeds, b.seeds)
    assert np.array_equal(a.decks, b.decks), "random and greedy got different decks"
    # the decks are shuffled, and differ from game to game
    assert len({bytes(d) for d in a.decks}) == len(a.decks)
    assert not np.array_equal(a.decks[0], np.sort(a.decks[0]))
