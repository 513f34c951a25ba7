"""Shared helpers: warm up first (which also compiles), then time; report the best of k."""

from __future__ import annotations

import platform
import time


def best_time(fn, repeat: int = 5, clock=time.perf_counter) -> float:
    """Best time of ``repeat`` calls of ``fn()`` (after one warm-up call), by ``clock``: wall
    time, or this process's CPU time (:func:`best_cpu`)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def best_cpu(fn, repeat: int = 2) -> float:
    """Best CPU time of this process over ``repeat`` calls of ``fn()`` (after one warm-up
    call): on a shared machine a long call's wall time counts the other jobs' turns too."""
    return best_time(fn, repeat, time.process_time)


def games_per_second(level, player, n: int, jobs: int, repeat: int) -> float:
    """Best rate of playing games 0..n-1 of seed 1 on ``jobs`` threads (4 blocks a thread)."""
    from concurrent.futures import ThreadPoolExecutor

    from numberup.runs.loop import play_batch

    with ThreadPoolExecutor(jobs) as pool:
        return n / best_time(lambda: play_batch(level, player, 1, 0, n, 4 * jobs, pool), repeat)


def machine() -> str:
    import os

    import numba

    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, numba {numba.__version__}")


def parse_levels(text: str) -> list[int]:
    """Levels from "1,3,5-7"."""
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out
