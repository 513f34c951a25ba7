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


def machine() -> str:
    import os

    import numba

    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, numba {numba.__version__}")
