"""How long a hint (play) or a proposal (assist) takes, per level and searcher.

Input: for each level, the positions of game 0 of seed 1 (``numberup play``'s deal), played by
following the first searcher's advice, every ``--every``-th decision. Each searcher ranks
every action there through :meth:`numberup.interactive.session.Session.advice` (the call behind ``hint``
and the proposals), after one warm-up call (compile or load from cache). Reference: the target
of 1 s per answer. Reported: median and worst seconds per level, and the searcher's strength on
the level from results/summary.csv (mean, P(gold) of 2,000 games, seed 2026; rollout 1,000).

    python benchmarks/bench_hints.py [--levels 1-20] [--every 3]
        [--policies expectimax,rollout:n=200,rollout:n=4000]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def strength() -> dict:
    path = os.path.join(HERE, "..", "results", "summary.csv")
    with open(path) as f:
        return {(int(r["level"]), r["policy"]): r for r in csv.DictReader(f)}


def main() -> None:
    from numberup.game.levels import get_level
    from numberup.interactive.session import Session

    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="1-20")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--policies", default="expectimax,rollout:n=200,rollout:n=4000")
    a = ap.parse_args()
    lo, _, hi = a.levels.partition("-")
    levels = range(int(lo), int(hi or lo) + 1)
    specs = a.policies.split(",")
    table = strength()
    print(f"# hints: seconds per answer, warm cache ({machine()}; one decision in {a.every}, "
          "from the first, of game 0 of seed 1)")
    print("| level | " + " | ".join(f"{p}: median / worst s | mean, P(gold)" for p in specs) + " |")
    print("|---|" + "---:|---|" * len(specs))
    for level in levels:
        s = Session(get_level(level), "play", 1, 0)
        for spec in specs:  # warm up: compile or load the searcher's entry point
            s.advice(spec)
        times = {p: [] for p in specs}
        k = 0
        while not s.done:
            if k % a.every == 0:
                for spec in specs:
                    t0 = time.perf_counter()
                    s.advice(spec)
                    times[spec].append(time.perf_counter() - t0)
            best = s.advice(specs[0])[0]
            s.apply(best["card"], best["cell"])
            k += 1
        cells = []
        for p in specs:
            r = table.get((level, p))
            st = f"{float(r['mean']):.1f}, {float(r['p_gold']):.1%}" if r else "not in results/"
            cells.append(f"{statistics.median(times[p]):.3f} / {max(times[p]):.3f} | {st}")
        print(f"| {level} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
