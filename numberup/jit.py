"""How kernels are compiled, and a guard for numba's on-disk cache.

numba's cache (``cache=True``) checks only the source file of the function it loads, not of
the kernels that function calls and inlined. After an edit (or an upgrade installed over an
older tree) a cached game loop could keep running an old scoring kernel. So the cache files
of this package are dropped whenever the package's sources change, before anything is loaded.
"""

from __future__ import annotations

import hashlib
from functools import partial
from pathlib import Path

from numba import njit
from numba.core import config

# Kernels allocate nothing, so they are compiled without numba's reference-counting runtime:
# with it, every array argument costs an atomic incref/decref per call, which made line
# scoring three times slower. error_model="numpy" drops the zero-division checks (and the
# exception paths they bring) from integer `//` and `%`. Kernels that allocate use njit.
kernel = partial(njit, cache=True, _nrt=False, error_model="numpy")

_HERE = Path(__file__).resolve().parent


def _cache_dirs() -> list[Path]:
    dirs = [_HERE / "__pycache__"]
    if config.CACHE_DIR:
        dirs += [p for p in Path(config.CACHE_DIR).rglob("numberup") if p.is_dir()]
    return dirs


# The modules whose code ends up in compiled kernels (levels: the constants they read).
KERNEL_MODULES = ("jit", "levels", "rng", "scoring", "engine", "players", "search", "play")


def refresh_cache() -> None:
    """Drop this package's numba cache files if a kernel module changed since they were made."""
    digest = hashlib.sha256()
    for src in sorted(_HERE / f"{name}.py" for name in KERNEL_MODULES):
        digest.update(src.name.encode() + src.read_bytes())
    stamp = digest.hexdigest()
    for d in _cache_dirs():
        mark = d / "numba-sources.sha256"
        try:
            if mark.read_text() == stamp:
                continue
        except OSError:
            pass
        try:
            for f in list(d.glob("*.nbi")) + list(d.glob("*.nbc")):
                f.unlink(missing_ok=True)
            d.mkdir(parents=True, exist_ok=True)
            mark.write_text(stamp)
        except OSError:  # a read-only install: numba falls back to its own cache location
            pass


refresh_cache()
