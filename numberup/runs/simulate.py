"""Monte Carlo runs: seeded games of a level by a player, in chunks, with sinks for the results.

A run plays games ``0 .. games-1`` of a master seed; game ``i`` depends on ``(seed, i)`` only,
so a run can be split across chunks, threads, processes or machines (``first``) and give the
same per-game results. Chunks are driven from Python so that progress can be shown, Ctrl-C
stops cleanly after the current chunk (numba defers signals until a jitted call returns), and
results stream to sinks (:mod:`numberup.runs.sinks`) instead of piling up in memory. Chunks run on
a backend (:mod:`numberup.runs.chunks`: this process's threads, or a Dask cluster) and can be kept
on disk as they finish (:mod:`numberup.runs.rundir`), so that an interrupted run resumes.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ..game.levels import Level, get_level
from ..players.base import Player
from ..stats import summarize
from .sinks import batch_table


@dataclass
class RunResult:
    """One level x player: every game's score, in game order, and the wall time of the games."""

    level: Level
    player: Player
    seed: int
    requested: int
    scores: list[np.ndarray] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False
    played: int | None = None  # games played by this call (None: all of them)
    game_ids: np.ndarray | None = None  # the games' numbers when not first..first+games-1

    @property
    def all_scores(self) -> np.ndarray:
        return np.concatenate(self.scores) if self.scores else np.zeros(0, np.int64)

    @property
    def games(self) -> int:
        return sum(len(s) for s in self.scores)

    def summary(self) -> dict:
        from ..players.registry import at_level

        out = {"level": self.level.number, "policy": self.player.spec,
               "plays": at_level(self.player, self.level.number).spec, "seed": self.seed}
        out.update(summarize(self.all_scores, self.level.medals))
        out["seconds"] = self.seconds
        played = self.games if self.played is None else self.played
        out["games_per_s"] = played / self.seconds if self.seconds > 0 and played else float("nan")
        out["seconds_per_game"] = self.seconds / played if played else float("nan")
        return out


def set_jobs(jobs: int | str | None) -> int:
    """The number of threads for ``jobs`` (``None``/``'auto'``: every core this process may use)."""
    limit = max_jobs()
    n = limit if jobs in (None, "auto", 0) else int(jobs)
    if not 1 <= n <= limit:
        raise ValueError(f"jobs must be from 1 to {limit} on this machine, not {n}")
    return n


def max_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def stop_on_interrupt():
    """Within the block, the first Ctrl-C only sets ``flag['stop']`` (the run ends after the
    current chunk); a second one interrupts at once."""
    flag = {"stop": False}
    if not _main_thread():
        yield flag
        return

    def handler(signum, frame):
        if flag["stop"]:
            raise KeyboardInterrupt
        flag["stop"] = True

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, old)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def run(
    level: int | Level,
    player: Player,
    games: int,
    seed: int,
    *,
    first: int = 0,
    jobs: int | None = None,
    chunk: int | None = None,
    sinks: Iterable = (),
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
    chunk_seconds: float = 0.5,
    backend=None,
    run_dir=None,
) -> RunResult:
    """Play ``games`` seeded games of ``level`` with ``player``.

    Parameters
    ----------
    first : int
        Index of the first game (to split one run across machines).
    jobs : int, optional
        Threads (default: all). Results do not depend on it.
    chunk : int, optional
        Games per chunk; default adaptive, about ``chunk_seconds`` of work each. Results do not
        depend on it.
    sinks : iterable
        Objects with ``write(batch)``, called after each chunk, in game order.
    progress : callable, optional
        Called with the number of games finished (or found kept in ``run_dir``).
    stop : callable
        Checked after each chunk; when true, the run ends there (``interrupted``).
    backend : optional
        Where chunks run (:mod:`numberup.runs.chunks`); default: threads of this process.
    run_dir : numberup.runs.rundir.RunDir, optional
        Keep every chunk there as a Parquet part as soon as it finishes, and play only the
        games that no part holds yet (``--resume``).
    """
    from .chunks import play_chunk, run_job

    lv = get_level(level)
    sinks = list(sinks)
    result = RunResult(lv, player, seed, games)
    pieces = []  # (first game, scores), sorted at the end
    moves = run_dir is not None and run_dir.manifest.moves
    if run_dir is not None:
        for lo, scores in run_dir.kept_column(lv.number, run_dir.player_index(player.spec), "score"):
            pieces.append((lo, scores.astype(np.int64)))
            if progress:
                progress(len(scores))

    def ordered(lo, n, batch):
        pieces.append((lo, batch.scores.copy()))
        for sink in sinks:
            sink.write(batch)
        if progress:
            progress(n)

    job = run_job(play_chunk, lv.number, player.spec, seed, first, games, backend=backend,
                  jobs=set_jobs(jobs) if backend is None else None, run_dir=run_dir,
                  to_table=lambda batch: batch_table(batch, moves=moves), chunk=chunk,
                  chunk_seconds=chunk_seconds, on_ordered=ordered, stop=stop)
    result.seconds, result.played, result.interrupted = job.seconds, job.played, job.interrupted
    result.scores = [s for _, s in sorted(pieces, key=lambda t: t[0])]
    return result


def summary_frame(results: list[RunResult]):
    """One row per level x player (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([r.summary() for r in results])


def compare_rows(results: list[RunResult]) -> list[dict]:
    """:func:`summary_frame`'s rows, and for every player after a level's first, the paired
    difference against the first player's games (``vs``, ``diff_mean``, ``diff_lo``,
    ``diff_hi``, ``wins``, ``ties``, ``losses``; None when the two hold different games)."""
    from ..stats import paired

    rows = summary_frame(results).to_dict("records")
    base = {}
    empty = dict(diff_mean=None, diff_lo=None, diff_hi=None, wins=None, ties=None, losses=None)
    for r, row in zip(results, rows):
        if r.level.number not in base:
            base[r.level.number] = r
            row.update(empty)
        else:
            b = base[r.level.number]
            same = b.games == r.games and (b.game_ids is None or r.game_ids is None
                                           or np.array_equal(b.game_ids, r.game_ids))
            row.update(paired(b.all_scores, r.all_scores) if same else empty)
        row["vs"] = base[r.level.number].player.spec
    return rows


def results_from_run_dir(run_dir, seconds=None) -> list[RunResult]:
    """Every level x player of a run directory as :class:`RunResult` (its kept games, in game
    order), with ``seconds[(level, spec)]`` as each one's time (default: unknown, NaN)."""
    from ..players.registry import parse_player

    m = run_dir.manifest
    out = []
    for lv in m.levels:
        for k, spec in enumerate(m.players):
            parts = run_dir.kept_column(lv, k, "score")
            games = run_dir.kept_column(lv, k, "game")
            r = RunResult(get_level(lv), parse_player(spec), m.seed, m.games,
                          scores=[s.astype(np.int64) for _, s in parts])
            r.game_ids = np.concatenate([g for _, g in games]) if games else np.zeros(0, np.int64)
            r.seconds = (seconds or {}).get((lv, spec), float("nan"))
            out.append(r)
    return out
