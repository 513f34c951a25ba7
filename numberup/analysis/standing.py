"""How a person's game compares: the solver on the same deal, foresight, and the solver's
distribution of results on the level."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..game.levels import Level, get_level
from .catalog import DATA, SUMMARY_NAME, measured_rows

DEFAULT_SOLVER = "best"  # simulate's default player
# per level and player of results/runs/baseline, how many games ended on each score (package
# data, written by results/package_data.py)
SCORES = DATA / "scores.csv"
QUICK_GAMES, QUICK_SEED = 300, 2026
# The searchers advise's 'auto' chooses between, whose strength results/summary.csv gives.
HINT_CANDIDATES = ("expectimax", "rollout:n=200")


def stronger_searcher(level: int | Level) -> tuple[str | None, str]:
    """Of :data:`HINT_CANDIDATES`, the one with the higher mean score on ``level`` in
    results/summary.csv, and why in words; ``None`` (and why) without that table."""
    lv = get_level(level)
    try:
        rows = {r["policy"]: r for r in measured_rows() or () if r["level"] == lv.number}
    except InputError:  # a damaged table: as if there were none
        rows = {}
    means = {p: rows[p]["mean"] for p in HINT_CANDIDATES if p in rows}
    if not means:
        return None, f"{SUMMARY_NAME} not found"
    best = max(means, key=means.get)
    r = rows[best]
    return best, (f"the stronger searcher on level {lv.number} in {SUMMARY_NAME}: mean "
                  f"{r['mean']:.1f}, P(gold) {r['p_gold']:.1%} over {int(r['games'])} games")


def solver_on_deal(level: int | Level, seed: int, game: int, spec: str = DEFAULT_SOLVER) -> int:
    """The score of ``spec`` on game ``game`` of seed ``seed``: the runner that ``simulate`` uses,
    so the very deal the person played."""
    from ..players.registry import parse_player
    from ..runs.loop import play_batch

    return int(play_batch(get_level(level), parse_player(spec), seed, game, 1, 1).scores[0])


def foresight_solver():
    """``numberup.analysis.hindsight.solve`` if that module exists, else None."""
    try:
        from .hindsight import solve
    except (ImportError, AttributeError):
        return None
    return solve


def foresight_on_deal(level: int, seed: int, game: int):
    """``numberup.analysis.hindsight.solve`` on the deal if that module exists: ``(found, bound,
    bound_proven)``, or None."""
    solve = foresight_solver()
    if solve is None:
        return None
    r = solve(level, seed, game)
    return int(r.found), r.bound, bool(r.bound_proven)


@dataclass
class Standing:
    """Where ``score`` falls among the solver's results: ``below`` of ``games`` scored less,
    ``ties`` the same; ``source`` says which games."""

    score: int
    games: int
    below: int
    ties: int
    source: str

    @property
    def percentile(self) -> float:
        """Share of the solver's games the score beats, ties counting half (0-100)."""
        return 100.0 * (self.below + 0.5 * self.ties) / self.games


def solver_scores(level: int | Level, spec: str = DEFAULT_SOLVER) -> tuple[np.ndarray, str]:
    """The solver's scores on the level: those of the runs of ``results/make.sh`` as the package
    carries them (:data:`SCORES`), else a quick simulation of :data:`QUICK_GAMES` games. A
    ``best`` spec is the setting it plays on the level."""
    import csv

    from ..players.registry import at_level, parse_player

    lv = get_level(level)
    spec = at_level(parse_player(spec), lv.number).spec
    try:
        with open(SCORES, newline="") as f:
            counts = [(int(r["score"]), int(r["games"])) for r in csv.DictReader(f)
                      if r["level"] == str(lv.number) and r["policy"] == spec]
    except (OSError, KeyError, ValueError):  # no table, or a damaged one: play instead
        counts = []
    if counts:
        s = np.repeat(np.array([c[0] for c in counts], np.int64), [c[1] for c in counts])
        return s, f"{spec}'s {len(s):,} games of results/runs (seed 2026)"
    from ..runs.loop import play_batch

    s = play_batch(lv, parse_player(spec), QUICK_SEED, 0, QUICK_GAMES, 1).scores
    return s, f"{spec}'s {QUICK_GAMES} games of seed {QUICK_SEED}, played just now"


def standing(level: int | Level, score: int, spec: str = DEFAULT_SOLVER) -> Standing:
    scores, source = solver_scores(level, spec)
    return Standing(score, len(scores), int((scores < score).sum()), int((scores == score).sum()),
                    source)
