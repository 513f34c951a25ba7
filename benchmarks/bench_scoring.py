"""Full-grid scores per second per level: the numba kernel against the plain-Python reference.

Input: 200,000 random full grids per level (a random sample of the level's deck, seed 0).
Reference: tests/oracles/reference.py (``ref_game``), timed on 2,000 of the same grids.
Variant: numberup.score_grids (one thread, JIT warm). Reports both rates and their ratio.
Run: python benchmarks/bench_scoring.py [--levels 1,14] [--grids N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from common import best_time, machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from oracles.reference import ref_game  # noqa: E402

from numberup.game.cards import deck  # noqa: E402
from numberup.game.levels import get_level  # noqa: E402
from numberup.game.scorecard import score_grids  # noqa: E402


def random_grids(level, n, rng):
    d = deck(level)
    lv = get_level(level)
    return np.stack([rng.permutation(d)[: lv.cells] for _ in range(n)]).astype(np.int8)


def as_reference(grid, size):
    cells = [None if c < 0 else (int(c) // 8 + 1, int(c) % 8) for c in grid]
    return [cells[r * size:(r + 1) * size] for r in range(size)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default=",".join(map(str, range(1, 21))))
    ap.add_argument("--grids", type=int, default=200_000)
    ap.add_argument("--ref-grids", type=int, default=2_000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"# scoring: full grids/s, one thread ({machine()})")
    print("| level | grid | numba grids/s | reference grids/s | ratio |")
    print("|---|---|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        grids = random_grids(lv, args.grids, rng)
        fast = args.grids / best_time(lambda: score_grids(lv, grids))
        ref_in = [as_reference(g, level.size) for g in grids[: args.ref_grids]]
        totals = score_grids(lv, grids[: args.ref_grids])
        assert [ref_game(lv, g) for g in ref_in] == totals.tolist(), "kernel disagrees with reference"
        slow = args.ref_grids / best_time(lambda: [ref_game(lv, g) for g in ref_in], 2)
        print(f"| {lv} | {level.size}x{level.size} | {fast:,.0f} | {slow:,.0f} | {fast / slow:,.0f}x |")


if __name__ == "__main__":
    main()
