"""Chunks as tasks on a Dask cluster (``--dask``): the same games as a local run, bit for bit;
a worker killed in the middle of a run costs nothing; workers of another build are refused.

One LocalCluster of 2 worker processes (one thread each) serves the module: starting one costs
seconds."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from numberup.runs.cluster import ClusterError, check_workers, connect, parse_dask  # noqa: E402
from numberup.players.registry import parse_player  # noqa: E402
from numberup.runs.chunks import play_chunk, play_ranges  # noqa: E402
from numberup.runs.loop import play_batch  # noqa: E402
from numberup.runs.simulate import run  # noqa: E402
from numberup.game.levels import get_level  # noqa: E402

from oracles.cli_checks import assert_one_line_error, invoke, run_main  # noqa: E402

FIELDS = ("seeds", "scores", "lines", "decks", "moves")


@pytest.fixture(scope="module")
def cluster():
    from numberup.runs.cluster import local_cluster

    with local_cluster(2) as lc, distributed.Client(lc) as client:
        yield lc, client, connect(client, "local:2")


class Collect:
    def __init__(self):
        self.batches = []

    def write(self, batch):
        self.batches.append(batch)

    def arrays(self):
        return {f: np.concatenate([getattr(b, f) for b in self.batches]) for f in FIELDS}


def assert_same_games(a, b):
    for f in FIELDS:
        assert a[f].dtype == b[f].dtype and np.array_equal(a[f], b[f]), f


@pytest.mark.parametrize("level, spec, games", [
    (1, "random", 400), (3, "greedy", 300), (13, "random", 300), (14, "expectimax:k=4", 120),
    (18, "greedy", 200), (20, "expectimax:k=2,objective=gold", 60),
])
def test_cluster_plays_the_games_of_local_threads(cluster, level, spec, games):
    _, _, backend = cluster
    player = parse_player(spec)
    remote, local = Collect(), Collect()
    r = run(level, player, games, 7, first=3, sinks=[remote], backend=backend)
    run(level, player, games, 7, first=3, jobs=2, chunk=37, sinks=[local])
    assert r.games == games and not r.interrupted
    assert len(remote.batches) > 1  # several chunks, run as several tasks
    assert_same_games(remote.arrays(), local.arrays())


def die_once(marker, level, spec, seed, first, n):
    """A chunk whose first run, anywhere, kills its own worker process mid-task."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return play_chunk(level, spec, seed, first, n)
    os.close(fd)
    os.kill(os.getpid(), 9)


def test_a_worker_killed_mid_run_loses_nothing(cluster, tmp_path):
    import cloudpickle

    _, client, backend = cluster
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        got = []
        played, cut = play_ranges(backend, die_once, (str(tmp_path / "died"), 8, "greedy", 4),
                                  [(0, 600)], chunk=50,
                                  on_ordered=lambda first, n, b: got.append(b))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert (tmp_path / "died").exists()  # a worker did die in a task
    assert played == 600 and not cut
    want = play_batch(get_level(8), parse_player("greedy"), 4, 0, 600, 1)
    assert [b.first for b in got] == list(range(0, 600, 50))
    assert_same_games({f: np.concatenate([getattr(b, f) for b in got]) for f in FIELDS},
                      {f: getattr(want, f) for f in FIELDS})
    client.wait_for_workers(2, timeout=120)  # the nanny restarts it for the next tests


def test_cli_on_a_cluster_address_writes_the_local_tables(cluster, tmp_path):
    lc, _, _ = cluster
    common = ["simulate", "-l", "2,16", "-p", "greedy", "-n", "150", "-s", "3", "--no-progress",
              "--json"]
    a = json.loads(invoke(common + ["--dask", lc.scheduler_address, "--out", str(tmp_path / "d"),
                                    "--log", str(tmp_path / "d.jsonl")]))
    b = json.loads(invoke(common + ["--jobs", "1", "--out", str(tmp_path / "t"),
                                    "--log", str(tmp_path / "t.jsonl")]))
    assert [r["mean"] for r in a] == [r["mean"] for r in b]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "d" / "games.parquet"),
                                  pd.read_parquet(tmp_path / "t" / "games.parquet"))
    assert (tmp_path / "d.jsonl").read_text() == (tmp_path / "t.jsonl").read_text()


def pretend_build(build):
    """On a worker: report ``build`` as numberup's build (None: the real one again)."""
    import numberup.runs.rundir as parts

    if not hasattr(parts, "_real_build_id"):
        parts._real_build_id = parts.build_id
    parts.build_id = (lambda: build) if build else parts._real_build_id


def test_workers_of_another_build_are_refused(cluster, tmp_path, capsys):
    lc, client, backend = cluster

    client.run(pretend_build, "0.0.0+other")
    try:
        with pytest.raises(ClusterError, match="0.0.0\\+other"):
            check_workers(client, "here", backend.build)
        code, out, err = run_main(["simulate", "-l", "1", "-p", "random", "-n", "10",
                                   "--dask", lc.scheduler_address, "--no-progress",
                                   "--out", str(tmp_path / "x")], capsys)
        assert_one_line_error(code, out, err, ["worker", "0.0.0+other", backend.build])
        assert not list(tmp_path.glob("x/parts/*.parquet"))
    finally:
        client.run(pretend_build, None)
    check_workers(client, "here", backend.build)


def test_parse_dask():
    assert parse_dask("local") == ("local", None) and parse_dask("local:3") == ("local", 3)
    assert parse_dask("tcp://10.0.0.1:8786") == ("address", "tcp://10.0.0.1:8786")


def test_unreachable_scheduler_is_one_line():
    from numberup.runs.cluster import dask_backend

    with pytest.raises(ClusterError, match="cannot reach"):
        with dask_backend("tcp://127.0.0.1:9", timeout=1):
            pass
