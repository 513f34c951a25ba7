"""Chunks as tasks on a Dask cluster: ``--dask ADDRESS`` or ``--dask local[:N]``.

Dask is optional (``pip install 'numberup[dask]'``). A chunk (:mod:`numberup.runs.chunks`) is a pure
task, so the cluster may run it anywhere and run it again after losing a worker: the games are
the same. On connecting, every worker must run the same numberup build
(:func:`numberup.runs.rundir.build_id`: the version and a digest of the kernels' sources), else the
run is refused before any game is played; every finished task reports its worker's build too,
so a worker that joins later with another build stops the run instead of mixing games. Each
worker loads (or compiles) the kernels once, when it joins (:class:`WarmUp`), not in every task.
"""

from __future__ import annotations

import logging
import os
import re
import time
from contextlib import contextmanager

from ..errors import InputError

WINDOW_PER_THREAD = 2  # chunks in flight per worker thread: one running, one queued
# A LocalCluster's workers share the cores with the games: no statistical profiler sampling
# every thread each 10 ms, and the system monitor every 2 s instead of 0.5 s. On an idle
# 2-process cluster this halved the workers' own CPU use (0.64 -> 0.33 CPU-s per 10 s).
LEAN_WORKERS = {"distributed.worker.profile.enabled": False,
                "distributed.admin.system-monitor.interval": "2s"}


class ClusterError(InputError):
    """The cluster cannot be used or failed the run; reported like bad input, in one line."""


def parse_dask(text: str) -> tuple[str, object]:
    """``'local' -> ('local', None)``, ``'local:2' -> ('local', 2)``, else ``('address', text)``."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        n = text.partition(":")[2]
        if not n:
            return "local", None
        limit = 4 * (os.cpu_count() or 1)
        if not n.isdigit() or not 1 <= int(n) <= limit:
            raise InputError(f"--dask {text[:40]!r}: local:N needs a whole number of worker "
                             f"processes from 1 to {limit} (4 per core of this machine)")
        return "local", int(n)
    if not _ADDRESS.fullmatch(text):
        raise InputError(f"--dask {text[:40]!r}: give a scheduler address such as "
                         "tcp://host:8786 (protocol://host:port or host:port), or local[:N]")
    return "address", text


# A scheduler address: [protocol://]host:port, host a name, IPv4 or [IPv6] address. Anything
# else is refused before any connection is tried.
_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+]*://)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}")


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise InputError("--dask needs Dask: python -m pip install 'numberup[dask]'") from None
    return distributed


def worker_build() -> str:
    """This process's numberup build (run on each worker)."""
    from .rundir import build_id

    return build_id()


def warm_up() -> str:
    """Load the game loop's kernels in this process (from numba's cache, or compile them)."""
    from .chunks import play_chunk

    play_chunk(1, "greedy", 0, 0, 1)
    return worker_build()


def timed(task, *args):
    """Run one chunk on a worker: ``(worker's build, seconds, result)``."""
    t0 = time.perf_counter()
    result = task(*args)
    return worker_build(), time.perf_counter() - t0, result


def _warm_up_plugin():
    from distributed.diagnostics.plugin import WorkerPlugin

    class WarmUp(WorkerPlugin):
        """Loads the kernels once on every worker, current and joining, off its event loop."""

        name = "numberup-warm-up"

        async def setup(self, worker):
            import asyncio

            await asyncio.get_running_loop().run_in_executor(None, warm_up)

    return WarmUp()


class DaskBackend:
    """Submits chunks to a :class:`distributed.Client`; ``window`` chunks stay in flight."""

    chunk_seconds = 2.0  # scheduling costs milliseconds per chunk: make chunks long

    def __init__(self, client, where: str):
        from distributed import as_completed

        self.client, self.where = client, where
        self.build = worker_build()
        # (with_results=True saves a round trip per chunk, but a run after a worker restart
        # then waited forever for results the scheduler held: not used.)
        self.pending = as_completed()
        self._window, self._checked = 1, 0.0

    @property
    def window(self) -> int:
        now = time.monotonic()
        if now - self._checked > 1.0:  # workers may join or leave during the run
            threads = sum(self.client.nthreads().values())
            self._window, self._checked = max(1, WINDOW_PER_THREAD * threads), now
        return self._window

    def submit(self, task, *args):
        fut = self.client.submit(timed, task, *args, pure=True)
        self.pending.add(fut)
        return fut

    def next_done(self):
        fut = next(self.pending)
        try:
            build, seconds, result = fut.result()
        except Exception as err:
            if type(err).__module__.startswith(("distributed", "concurrent", "asyncio")):
                raise ClusterError(f"--dask {self.where}: the cluster failed a chunk "
                                   f"({type(err).__name__}: {err})") from None
            raise
        if build != self.build:
            raise ClusterError(f"--dask {self.where}: a worker runs numberup {build}, this is "
                               f"{self.build}: its games could differ; stopped")
        return fut, seconds, result

    def close(self) -> None:
        pass


def check_workers(client, where: str, build: str) -> None:
    """Refuse a cluster without workers, or with a worker that runs another numberup build."""
    try:
        builds = client.run(worker_build)
    except Exception as err:
        raise ClusterError(f"--dask {where}: the workers cannot run numberup "
                           f"({type(err).__name__}: {err})") from None
    if not builds:
        raise ClusterError(f"--dask {where}: the cluster has no workers")
    for addr, b in sorted(builds.items()):
        if b != build:
            raise ClusterError(f"--dask {where}: worker {addr} runs numberup {b}, this is "
                               f"{build}: install the same numberup on every worker")


def connect(client, where: str) -> DaskBackend:
    """A :class:`DaskBackend` on ``client``'s cluster, once its workers are checked
    (:func:`check_workers`) and warmed up (:class:`WarmUp`, also on workers that join later)."""
    backend = DaskBackend(client, where)
    check_workers(client, where, backend.build)
    client.register_plugin(_warm_up_plugin())
    return backend


def local_cluster(workers: int):
    """A LocalCluster of ``workers`` processes with one thread each, lean (:data:`LEAN_WORKERS`),
    quiet and without a dashboard."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(LEAN_WORKERS):
        # The scheduler serves HTTP even without a dashboard; on port 8787 unless told
        # otherwise, which another cluster on the machine may hold (then it warns on stderr).
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=None, silence_logs=logging.ERROR,
                            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})


@contextmanager
def dask_backend(spec: str, *, timeout: float = 10.0):
    """A :class:`DaskBackend` on the cluster of ``spec`` (``--dask``): a new LocalCluster of N
    worker processes (one thread each) for ``local[:N]``, else the scheduler at the address.
    Checks the workers' builds and warms them up before yielding."""
    kind, value = parse_dask(spec)
    _import_distributed()
    from distributed import Client

    cluster = None
    try:
        if kind == "local":
            from .simulate import max_jobs

            cluster = local_cluster(value or max_jobs())
            client = Client(cluster)
        else:
            client = Client(value, timeout=f"{timeout}s")
    except Exception as err:  # an address dask cannot parse or reach, a cluster that fails
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"--dask {spec}: cannot reach a Dask scheduler there "
                           f"({type(err).__name__}: {' '.join(str(err).split())[:200]})") from None
    try:
        yield connect(client, spec)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
