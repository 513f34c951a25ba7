"""Seconds per deal of the foresight search (numberup hindsight), per level, one thread.

Input: games 0..N-1 of master seed 1 on every level. Variants: the default beam width, and
half and twice it (with 3 x width greedy finishes per generation). Reference: the default.
Target: at most 2 s a deal on one core on every level (the results run sizes the width for
about 0.1 s).
Run: python benchmarks/bench_hindsight.py [--levels 1-20] [--deals N] [--repeat K]
"""

from __future__ import annotations

import argparse

import numpy as np
from common import best_time, machine

from numberup.analysis import hindsight as H


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default=",".join(str(n) for n in range(1, 21)))
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    H.search(1, H.deal(1, 1, 0), width=2)  # compile first
    print(f"# hindsight search: best of {args.repeat}, {args.deals} deals ({machine()})")
    print("| level | width | s/deal | mean found | s/deal, width/2 | mean | s/deal, 2 x width | mean |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        w = H.default_width(lv)
        decks = [H.deal(lv, 1, g) for g in range(args.deals)]
        cells = [f"{lv}", f"{w}"]
        for width in (w, max(1, w // 2), 2 * w):
            t = best_time(lambda: [H.search(lv, d, width=width) for d in decks], args.repeat)
            found = np.mean([H.search(lv, d, width=width)[0] for d in decks])
            cells += [f"{t / args.deals:.3f}", f"{found:.1f}"]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
