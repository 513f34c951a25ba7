"""Shared helpers: warm up first (which also compiles), then time; report the best of k."""

from __future__ import annotations

import platform
import time


def best_time(fn, repeat: int = 5) -> float:
    """Best wall time of ``repeat`` calls of ``fn()`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def games_per_second(level, player, n: int, jobs: int, repeat: int) -> float:
    """Best rate of playing games 0..n-1 of seed 1 on ``jobs`` threads (4 blocks a thread)."""
    from concurrent.futures import ThreadPoolExecutor

    from numberup.simulate import play_batch

    with ThreadPoolExecutor(jobs) as pool:
        return n / best_time(lambda: play_batch(level, player, 1, 0, n, 4 * jobs, pool), repeat)


def machine() -> str:
    import os

    import numba

    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, numba {numba.__version__}")
