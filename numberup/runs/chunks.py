"""The chunk driver: cut game ranges into chunks, run them on a backend, collect in game order.

A chunk is a pure task ``task(level, spec, seed, first, n, pool=None) -> result``: it depends
on its arguments only, so it can run on a local thread pool, on a Dask worker, or twice (a
retry after a lost worker) and give the same games. Every per-game job plugs in here the same
way: ``simulate``/``compare`` pass :func:`play_chunk`; another job (hindsight, training data)
passes its own module-level task and handles its results in ``on_done``/``on_ordered``.

Backends: :class:`LocalBackend` (one chunk at a time, split into blocks over the threads of
this process) and :class:`numberup.runs.cluster.DaskBackend` (many chunks in flight, one task
each). ``on_done`` sees each chunk as soon as it finishes (to keep it on disk); ``on_ordered``
sees them in game order (logs, scores, progress).
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable


def play_chunk(level: int, spec: str, seed: int, first: int, n: int, pool=None, blocks: int = 1):
    """Games ``first .. first+n-1`` of ``seed`` on ``level`` by the player ``spec``: a
    :class:`numberup.runs.loop.Batch`. Pure: the same arguments give the same games."""
    from ..game.levels import get_level
    from ..players.registry import parse_player
    from .loop import play_batch

    return play_batch(get_level(level), parse_player(spec), seed, first, n, blocks, pool)


class LocalBackend:
    """Chunks run here, one after another, each split into ``4 x threads`` blocks."""

    window = 1  # chunks in flight
    chunk_seconds = 0.5

    def __init__(self, threads: int):
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads)
        self.done: deque = deque()

    def submit(self, task, *args) -> Future:
        fut: Future = Future()
        t0 = time.perf_counter()
        result = task(*args, pool=self.pool, blocks=4 * self.threads)
        fut.set_result((time.perf_counter() - t0, result))
        self.done.append(fut)
        return fut

    def next_done(self):
        """``(future, seconds, result)`` of a finished chunk."""
        fut = self.done.popleft()
        seconds, result = fut.result()
        return fut, seconds, result

    def close(self) -> None:
        self.pool.shutdown()


def play_ranges(backend, task: Callable, args: tuple, ranges, *, chunk: int | None = None,
                on_done: Callable = lambda first, n, result: None,
                on_ordered: Callable = lambda first, n, result: None,
                stop: Callable[[], bool] = lambda: False) -> tuple[int, bool]:
    """Run ``task(*args, first, n)`` over the game ranges ``[(lo, hi), ...]`` in chunks.

    Chunks have ``chunk`` games, or (default) a size adapted so that each takes about
    ``backend.chunk_seconds``. When ``stop()`` turns true, no new chunk starts and the chunks
    in flight are finished, so the games done are always whole chunks in order: ranges are
    played from their start. Returns (games played, whether games were left unplayed).
    """
    todo = deque((lo, hi) for lo, hi in ranges if hi > lo)
    inflight: dict = {}
    order: deque = deque()  # chunk firsts in the order submitted
    finished: dict = {}
    size = chunk or 8
    played, stopped, cut = 0, False, False
    while todo or inflight:
        while todo and not stopped and len(inflight) < backend.window:
            lo, hi = todo.popleft()
            n = min(size, hi - lo)
            if lo + n < hi:
                todo.appendleft((lo + n, hi))
            inflight[backend.submit(task, *args, lo, n)] = (lo, n)
            order.append(lo)
        fut, seconds, result = backend.next_done()
        lo, n = inflight.pop(fut)
        on_done(lo, n, result)
        finished[lo] = (n, result)
        while order and order[0] in finished:
            first = order.popleft()
            m, res = finished.pop(first)
            played += m
            on_ordered(first, m, res)
        if not chunk:  # about chunk_seconds per chunk, growing at most 4x a step
            per_game = max(seconds, 1e-6) / n
            left = sum(hi - lo for lo, hi in todo)
            cap = max(8, left // (2 * backend.window)) if backend.window > 1 else 1_000_000
            size = int(min(max(8, backend.chunk_seconds / per_game), 4 * n, cap, 1_000_000))
        if not stopped and stop():
            stopped, cut = True, bool(todo)
            todo.clear()
    return played, stopped and cut


@dataclass
class JobResult:
    played: int  # games played by this call
    interrupted: bool  # stopped with games left
    seconds: float  # wall time of the chunks


def run_job(task: Callable, level: int, spec: str, seed: int, first: int, games: int, *,
            backend=None, jobs: int | None = None, run_dir=None, to_table: Callable | None = None,
            chunk: int | None = None, chunk_seconds: float = 0.5,
            on_ordered: Callable = lambda first, n, result: None,
            stop: Callable[[], bool] = lambda: False) -> JobResult:
    """Games ``first .. first+games-1`` of one level x player by a chunk ``task``: the one
    call a per-game job (simulate, or another) needs for threads, Dask and durable parts.

    ``backend``: where chunks run (default: a :class:`LocalBackend` of ``jobs`` threads, warmed
    by a one-game chunk first). ``run_dir`` (:class:`numberup.runs.rundir.RunDir`): each finished
    chunk's ``to_table(result)`` is kept there as a part, and only the games no part holds are
    played (read the kept ones with ``run_dir.kept_column``). ``on_ordered`` sees the results in
    game order.
    """
    ranges = [(first, first + games)]
    if run_dir is not None:
        p_index = run_dir.player_index(spec)
        ranges = run_dir.missing(level, p_index)

    def on_done(lo, n, result):
        if run_dir is not None:
            run_dir.write_part(level, p_index, to_table(result))

    own = backend is None
    if own:
        backend = LocalBackend(jobs or 1)
        backend.chunk_seconds = chunk_seconds
        if any(hi > lo for lo, hi in ranges):  # compile (or load from cache) before timing
            task(level, spec, seed, ranges[0][0], 1)
    t0 = time.perf_counter()
    try:
        played, interrupted = play_ranges(backend, task, (level, spec, seed), ranges,
                                          chunk=chunk, on_done=on_done, on_ordered=on_ordered,
                                          stop=stop)
    finally:
        if own:
            backend.close()
    return JobResult(played, interrupted, time.perf_counter() - t0)
