"""The partition LP bound (numberup.analysis.partition) against the older bound and the best
game found, per level.

Input: games 0..N-1 of master seed 2026 on levels 12 and 14-20. For each deal: the new bound
(column generation stopped after --seconds), the older bound (numberup.analysis.bounds.bound)
and the found result of the foresight search at its default width. Prints per level the means,
the ratio of the mean new bound to the mean found result, and seconds per deal of the new bound
(one thread; compile excluded).
Run: python benchmarks/bench_partition.py [--levels 12,14-20] [--deals 50] [--seconds 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import machine, parse_levels

from numberup.analysis import bounds, partition as P
from numberup.analysis.hindsight import search
from numberup.game.cards import deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="12,14-20")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    print(f"# partition bound: {args.deals} deals of seed {args.seed}, "
          f"{args.seconds:g} s limit ({machine()})")
    print("| level | mean bound (new) | mean old bound | mean found | bound/found "
          "| s/deal | max s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for lv in parse_levels(args.levels):
        decks = [deal(lv, args.seed, g) for g in range(args.deals)]
        P.partition_bound(lv, decks[0], seconds=0.01)  # compile first
        new, times = [], []
        for d in decks:
            t = time.perf_counter()
            new.append(P.partition_bound(lv, d, seconds=args.seconds))
            times.append(time.perf_counter() - t)
        old = [bounds.bound(lv, d) for d in decks]
        found = [search(lv, d)[0] for d in decks]
        for b, o, f in zip(new, old, found):
            assert f <= b <= o, (lv, b, o, f)
        nb, fm = float(np.mean(new)), float(np.mean(found))
        ratio = nb / fm if fm > 0 else float("nan")
        print(f"| {lv} | {nb:.1f} | {np.mean(old):.1f} | {fm:.1f} | {ratio:.2f} "
              f"| {np.mean(times):.2f} | {max(times):.2f} |", flush=True)


if __name__ == "__main__":
    main()
