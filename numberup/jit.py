"""How kernels are compiled, and where numba caches them.

numba's cache (``cache=True``) checks only the source file of the function it loads, not of
the kernels that function calls and inlined. After an edit (or an upgrade installed over an
older tree) a cached game loop could keep running an old scoring kernel. So this package's
kernels are cached in a directory named after a digest of all the kernel sources
(:class:`SourcesDigestLocator`): an edit to any of them sends every kernel to a fresh
directory, and no file is ever deleted, so several processes may start together on a cold
cache (each compiles and writes its files atomically, as numba does) without one removing a
file another is loading. Directories of older sources stay behind; ``numberup`` never reads
them again, and they may be removed by hand when no process runs.
"""

from __future__ import annotations

import hashlib
import os
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from numba import njit
from numba.core import caching, config

# Kernels allocate nothing, so they are compiled without numba's reference-counting runtime:
# with it, every array argument costs an atomic incref/decref per call, which made line
# scoring three times slower. error_model="numpy" drops the zero-division checks (and the
# exception paths they bring) from integer `//` and `%`. Kernels that allocate use njit.
kernel = partial(njit, cache=True, _nrt=False, error_model="numpy")

_HERE = Path(__file__).resolve().parent


def specialize(template, name: str, jit=kernel, **bindings):
    """A kernel compiled from the plain function ``template`` with the globals ``bindings``
    bound (kernels, or constants) and cached under its own ``name``.

    A kernel passed as an argument (a first-class function) or a jitclass misses numba's
    on-disk cache in every new process; a global of the compiled function is a constant of its
    code, so each specialization is cached like any kernel. The index key numba gives it is
    its bytecode, shared by all specializations of one template, so each must have a ``name``
    of its own (a file of its own in the cache).
    """
    import types

    env = dict(template.__globals__, **bindings)
    py = types.FunctionType(template.__code__, env, name, template.__defaults__)
    py.__qualname__ = name
    py.__doc__ = template.__doc__
    py.__module__ = template.__module__
    return jit(py)

# The layers that compile nothing (text, plots, the terminal): every other source file of the
# package may end up in compiled code (levels: the constants kernels read), so the digest walks
# the whole package but these. A new folder is covered by default; tests/test_cache.py checks
# that every compiled kernel's module is among the sources and that these layers hold none.
NO_KERNEL_LAYERS = ("reports", "interactive")


def kernel_sources() -> list[Path]:
    """Every source file whose code may end up in a compiled kernel, sorted."""
    return sorted(f for f in _HERE.rglob("*.py")
                  if f.relative_to(_HERE).parts[0] not in NO_KERNEL_LAYERS)


def sources_digest() -> str:
    """A digest of every kernel source file of the package (16 hex digits)."""
    digest = hashlib.sha256()
    for src in kernel_sources():
        digest.update(src.relative_to(_HERE).as_posix().encode() + b"\0" + src.read_bytes())
    return digest.hexdigest()[:16]


SOURCES_DIGEST = sources_digest()


def cache_dirname() -> str:
    """The name of the directory the kernels are cached in: ``numba-<sources digest>``, and
    ``-boundscheck`` after it for code compiled with numba's bounds checks
    (``NUMBA_BOUNDSCHECK=1``, as the tests run), and ``-opt<N>`` for code optimised at another
    level than numba's default 3 (``NUMBA_OPT``): numba's index key says neither, so otherwise
    one would be loaded for the other."""
    opt = int(config.OPT)
    return (f"numba-{SOURCES_DIGEST}" + ("-boundscheck" if config.BOUNDSCHECK else "")
            + (f"-opt{opt}" if opt != 3 else ""))


class SourcesDigestLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba cache locator for this package's kernels: ``<base>/numba-<sources digest>``
    (``...-boundscheck`` for code compiled with numba's bounds checks).

    ``<base>`` is ``$NUMBA_CACHE_DIR/<numba's subpath for the file>`` when that variable is set,
    else the package's ``__pycache__``, else (a read-only install) numba's per-user cache
    directory. Functions outside the package are left to numba's own locators.
    """

    def __init__(self, py_func, py_file, base):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(base, cache_dirname())

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            inside = Path(py_file).resolve().is_relative_to(_HERE)
        except OSError:
            return None
        if not inside:
            return None
        sub = cls.get_suitable_cache_subpath(py_file)
        if config.CACHE_DIR:
            bases = [os.path.join(config.CACHE_DIR, sub)]
        else:
            bases = [os.path.join(os.path.dirname(py_file), "__pycache__")]
            user = _USER_WIDE(py_func, py_file)  # ~/.cache/numba/...
            bases.append(user.get_cache_path())
        for base in bases:
            self = cls(py_func, py_file, base)
            try:
                self.ensure_cache_path()
            except OSError:
                continue
            return self
        return None


# numba 0.68 renamed _CacheImpl and _UserWideCacheLocator to public names.
_USER_WIDE = getattr(caching, "UserWideCacheLocator", None) or caching._UserWideCacheLocator
_LOCATORS = (getattr(caching, "CacheImpl", None) or caching._CacheImpl)._locator_classes
if SourcesDigestLocator not in _LOCATORS:
    _LOCATORS.insert(0, SourcesDigestLocator)


def is_cached(dispatcher) -> bool:
    """Is ``dispatcher`` compiled in this process, or on disk for the current sources?
    (Always, when it is not compiled at all: ``NUMBA_DISABLE_JIT=1``.)"""
    if getattr(dispatcher, "overloads", True):
        return True
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # another numba's internals: do not claim a compile that may not come
        return True


@contextmanager
def compile_notice(what: str, dispatchers, stream=None):
    """Within the block, the kernels ``dispatchers`` are compiled or loaded from the cache.

    When any of them is not cached yet, say so on ``stream`` once before (``numberup:
    compiling the game kernels for <what> (first run only)...``) and the elapsed time after;
    on a warm cache, say nothing. ``stream=None``: say nothing at all.
    """
    if stream is None or all(is_cached(d) for d in dispatchers):
        yield
        return
    print(f"numberup: compiling the game kernels for {what} (first run only)...", file=stream,
          flush=True)
    t0 = time.perf_counter()
    yield
    print(f"numberup: compiled in {time.perf_counter() - t0:.0f} s", file=stream, flush=True)
