"""The bounds that keep rows and columns sharing cards, per level: the colour supply
(numberup.analysis.supply: levels 1, 2, 4, 5; level 4 also with each line's two colours apart)
and the crossing bound (numberup.analysis.crossing: levels 6-10, a table look-up), against the
bounds without them.

Input: games 0..N-1 of master seed 2026. For each deal: the bound without the new ones (line
cap, row partition, design), the new bound alone, and the better of the two. Prints per level
the means and
the seconds per deal of the new bound (one thread; the first deal, which fills caches, excluded
from the mean and shown apart).
Run: python benchmarks/bench_bounds.py [--levels 1,2,4-10] [--deals 100]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import machine, parse_levels

from numberup.analysis import bounds, crossing, design, supply
from numberup.game.cards import deal
from numberup.game.levels import get_level


def _older(lv, deck) -> int:
    return min(b for b in (bounds.line_cap(lv, deck), bounds.row_partition(lv, deck),
                           design.bound(lv, deck)) if b is not None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="1,2,4-10")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    print(f"# row-and-column bounds: {args.deals} deals of seed {args.seed} ({machine()})")
    print("| level | bound | mean before | mean new bound | mean after | first deal s "
          "| s/deal |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for number in parse_levels(args.levels):
        lv = get_level(number)
        decks = [deal(lv, args.seed, g) for g in range(args.deals)]
        before = None
        runs = [("supply", supply.bound), ("crossing", crossing.bound),
                ("paired supply", supply.paired_bound)]
        for name, fn in runs:
            t = time.perf_counter()
            first = fn(lv, decks[0])  # fills the caches (None: no such bound on the level)
            first_s = time.perf_counter() - t
            if first is None:
                continue
            new, times = [first], []
            for d in decks[1:]:
                t = time.perf_counter()
                new.append(fn(lv, d))
                times.append(time.perf_counter() - t)
            before = before or [_older(lv, d) for d in decks]
            after = [min(b, n) for b, n in zip(before, new)]
            print(f"| {number} | {name} | {np.mean(before):.2f} | {np.mean(new):.2f} "
                  f"| {np.mean(after):.2f} | {first_s:.2f} | {np.mean(times or [first_s]):.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
