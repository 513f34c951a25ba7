"""Playing a layout (numberup.analysis.realize), per level: how often the best layout of a deal's
values can be played in the deal's order, after how many arrangements of its rows and columns,
and how long the search takes beside the layout's solve.

Input: games 0..N-1 of master seed 2026, levels 6-10. For each deal: the layout solved within
--seconds of CP-SAT's deterministic time (the setup values on the centre, capped by the
package's bound), then realize.first_played: the arrangements tried until one is played (at most
realize.TRIES, each within realize.NODES decisions). Prints per level the share played, the
arrangements needed (median, largest), and the seconds of the solve and of the search per deal
(one thread; the first deal, which compiles and fills caches, left out of the times).
Run: python benchmarks/bench_realize.py [--levels 6-10] [--deals 20] [--seconds 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import machine, parse_levels

from numberup.analysis import bounds, design, realize
from numberup.game.cards import deal
from numberup.game.grid import geometry
from numberup.game.levels import get_level


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="6-10")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    print(f"# layouts played: {args.deals} deals of seed {args.seed}, layouts solved in "
          f"{args.seconds:g} s ({machine()})")
    print("| level | played | arrangements (median, max) | solve s/deal | search s/deal |")
    print("|---|---:|---|---:|---:|")
    for number in parse_levels(args.levels):
        lv = get_level(number)
        setup = len(geometry(lv.size).centre)
        played, tries, solve_s, search_s = 0, [], [], []
        for g in range(args.deals):
            deck = deal(lv, args.seed, g)
            placed = realize.values(lv, deck)
            t = time.perf_counter()
            d = design.solve(lv, design.counts(lv, deck), args.seconds,
                             at_most=bounds.bound(lv, deck), setup=placed[:setup])
            t1 = time.perf_counter()
            got = realize.first_played(d.grid, placed, lv.size, g)
            t2 = time.perf_counter()
            if g > 0:
                solve_s.append(t1 - t)
                search_s.append(t2 - t1)
            if got is not None:
                played += 1
                tries.append(got[0])
        shown = f"{int(np.median(tries))}, {max(tries)}" if tries else "-"
        print(f"| {number} | {played}/{args.deals} | {shown} | {np.mean(solve_s):.2f} | "
              f"{np.mean(search_s):.3f} |", flush=True)


if __name__ == "__main__":
    main()
