"""numba's on-disk cache under several processes started together on an empty cache, and the
first run saying that it compiles.

Kernels are cached in a directory named after a digest of the kernel sources
(:mod:`numberup.jit`), and nothing is ever deleted, so processes that compile and load at the
same moment cannot pull a file from under each other.
"""

from __future__ import annotations

import os
import subprocess
import sys

from numberup.jit import cache_dirname

# A tiny run: the random player compiles the least of any player.
ARGS = ["simulate", "--level", "1", "--policy", "random", "--games", "30", "--seed", "5",
        "--no-progress"]
NOTICE = "numberup: compiling the game kernels for random (first run only)..."


def _start(env, log):
    return subprocess.Popen([sys.executable, "-m", "numberup", *ARGS, "--log", str(log)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_processes_start_together_on_a_cold_cache(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    logs = [tmp_path / f"games{i}.jsonl" for i in range(5)]
    procs = [_start(env, log) for log in logs[:4]]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        # one that compiled says so once, then how long it took (one that started late may
        # have found everything compiled by the others already)
        lines = err.splitlines()
        assert lines == [] or (len(lines) == 2 and lines[0] == NOTICE
                               and lines[1].startswith("numberup: compiled in ")), err
    assert any(err for _, err in outs), "no process said that it compiled"
    texts = [log.read_text() for log in logs[:4]]
    assert len(texts[0].splitlines()) == 30 and len(set(texts)) == 1
    assert list((tmp_path / "cache").rglob(cache_dirname())), \
        "the kernels were not cached in the directory of the sources' digest"
    # a later process loads what they wrote, plays the same games, and says nothing
    p = _start(env, logs[4])
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0 and err == "", err
    assert logs[4].read_text() == texts[0]


def _all_modules():
    import importlib
    import pkgutil

    import numberup

    for info in pkgutil.walk_packages(numberup.__path__, "numberup."):
        if not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


def test_every_compiled_kernel_is_covered_by_the_sources_digest():
    """The cache directory is named after a digest of :func:`numberup.jit.kernel_sources`: a
    kernel whose module were outside them could keep running stale cached code after an edit.
    Every numba dispatcher of every module (kernels, and the players' specializations) must come
    from a file the digest reads, and the layers it leaves out must hold none."""
    from pathlib import Path

    from numba.core.registry import CPUDispatcher

    from numberup.jit import NO_KERNEL_LAYERS, kernel_sources

    sources = {p.resolve() for p in kernel_sources()}
    seen = 0
    for module in _all_modules():
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                seen += 1
                path = Path(sys.modules[value.py_func.__module__].__file__).resolve()
                assert path in sources, f"{value.py_func.__qualname__} of {path} is not digested"
        layer = module.__name__.split(".")[1] if "." in module.__name__ else ""
        if layer in NO_KERNEL_LAYERS:
            assert not any(isinstance(v, CPUDispatcher) and v.py_func.__module__ == module.__name__
                           for v in vars(module).values()), f"{module.__name__} holds a kernel"
    assert seen > 100  # the walk really found the kernels
