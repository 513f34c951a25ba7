"""A Dask LocalCluster against local threads, and what scheduling costs per chunk.

Input: games 0..N-1 of master seed 1 on one level by one player (the same games in every
variant: their tables are checked equal).
Variants: ``threads`` (simulate.run on J local threads, 0.5 s chunks) and ``dask`` (a
LocalCluster of J worker processes with one thread each, 2 s chunks, 2 chunks in flight per
worker); run alternately, ``--rounds`` times each, so that both see the same load.
Reference: threads (the ratio is dask / threads games/s). On a shared machine the wall-clock
ratio swings with the load, so each run also reports games per CPU-second: for threads the
CPU time of this process, for dask that of the workers plus this process (which also runs the
LocalCluster's scheduler and nannies) - the cost of the same games, whatever the load.
Scheduling cost: chunks of one game of ``random`` on level 1 (microseconds of work), run one at a
time (round trip: submit, run, result back) and with the usual window (throughput), against
the same chunks on the local backend.
Run: python benchmarks/bench_dask.py [--level 14] [--policy expectimax] [--games N] [--jobs 2]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import machine

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.chunks import LocalBackend, play_chunk, play_ranges
from numberup.runs.simulate import run


class Scores:
    def __init__(self):
        self.parts = []

    def write(self, batch):
        self.parts.append(batch.scores.copy())


class OneAtATime:
    """A backend seen through a window of one chunk: each chunk's full round trip."""

    window = 1

    def __init__(self, backend):
        self.backend = backend

    def submit(self, *args):
        return self.backend.submit(*args)

    def next_done(self):
        return self.backend.next_done()


def per_chunk_ms(backend, chunks: int) -> float:
    t0 = time.perf_counter()
    played, _ = play_ranges(backend, play_chunk, (1, "random", 1), [(0, chunks)], chunk=1)
    assert played == chunks
    return (time.perf_counter() - t0) / chunks * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--level", type=int, default=14)
    ap.add_argument("--policy", default="expectimax")
    ap.add_argument("--games", type=int, default=30_000, help="games per timed run (>= 20 s)")
    ap.add_argument("--jobs", type=int, default=2, help="threads, and worker processes")
    ap.add_argument("--rounds", type=int, default=2, help="0: the scheduling cost only")
    ap.add_argument("--chunks", type=int, default=2000, help="chunks for the scheduling cost")
    args = ap.parse_args()

    import distributed

    from numberup.runs.cluster import connect, local_cluster

    level, player = get_level(args.level), parse_player(args.policy)
    print(f"# dask vs threads: level {args.level}, {player.spec}, {args.games:,} games, "
          f"{args.jobs} threads / {args.jobs} worker processes ({machine()})")
    with local_cluster(args.jobs) as lc, distributed.Client(lc) as client:
        dask = connect(client, f"local:{args.jobs}")
        print("| round | variant | seconds | games/s | chunks | CPU s | games/CPU-s |")
        print("|---|---|---:|---:|---:|---:|---:|")
        rates = {"threads": [], "dask": []}
        per_cpu = {"threads": [], "dask": []}

        def cpu_seconds(with_workers):
            own = time.process_time()
            return own + (sum(client.run(time.process_time).values()) if with_workers else 0)

        tables = {}
        for k in range(args.rounds):
            for name in ("threads", "dask"):
                sink = Scores()
                kw = {"backend": dask} if name == "dask" else {"jobs": args.jobs}
                c0 = cpu_seconds(name == "dask")
                r = run(level, player, args.games, 1, sinks=[sink], **kw)
                cpu = cpu_seconds(name == "dask") - c0
                rates[name].append(args.games / r.seconds)
                per_cpu[name].append(args.games / cpu)
                tables[name] = np.concatenate(sink.parts)
                print(f"| {k + 1} | {name} | {r.seconds:.1f} | {args.games / r.seconds:,.0f} | "
                      f"{len(sink.parts)} | {cpu:.1f} | {args.games / cpu:,.0f} |", flush=True)
        if not args.rounds:  # --rounds 0: the scheduling cost only
            rates = {"threads": [1.0], "dask": [1.0]}
            per_cpu = rates
        assert np.array_equal(tables.get("threads", 0), tables.get("dask", 0)), "games differ"
        ratio = [d / t for d, t in zip(rates["dask"], rates["threads"])]
        print(f"\ndask / threads games/s per round: {', '.join(f'{x:.2f}x' for x in ratio)}; "
              f"best against best: {max(rates['dask']) / max(rates['threads']):.2f}x; "
              f"games per CPU-second, dask / threads: "
              f"{np.median(per_cpu['dask']) / np.median(per_cpu['threads']):.2f}x (medians)")

        local = LocalBackend(1)
        print(f"\n# scheduling cost per chunk ({args.chunks:,} chunks of 1 game of random, "
              f"level 1)")
        print("| backend | ms per chunk |")
        print("|---|---:|")
        print(f"| local, one thread | {per_chunk_ms(local, args.chunks):.3f} |")
        print(f"| dask, one chunk at a time (round trip) | "
              f"{per_chunk_ms(OneAtATime(dask), args.chunks):.3f} |")
        print(f"| dask, {dask.window} in flight (throughput) | "
              f"{per_chunk_ms(dask, args.chunks):.3f} |")
        local.close()


if __name__ == "__main__":
    main()
