"""Time per game and per move of the searchers, 5x5 and 6x6, one and two threads.

Input: games 0..N-1 of master seed 1 on levels 1 and 14 (5x5) and 5 and 15 (6x6).
Variants: expectimax depth 1 (k = 16, 64), expectimax depth 2 (sample 6), rollout (n = 50,
200); threads 1 / 2. Reference: one thread (for the thread speed-up).
Target: expectimax depth 1 >= 200 games/s per core on 5x5 levels.
Run: python benchmarks/bench_search.py [--levels 1,5] [--seconds S] [--repeat K]
"""

from __future__ import annotations

import argparse
from common import best_time, games_per_second, machine

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch

SEARCHERS = ("expectimax:k=16", "expectimax", "expectimax:depth=2,sample=6",
             "rollout:n=50", "rollout")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="1,14,5,15")
    ap.add_argument("--seconds", type=float, default=4.0, help="about this long per timing")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    print(f"# searchers: best of {args.repeat} ({machine()})")
    print("| level | grid | player | games/s, 1 thread | ms/game | ms/move | games/s, 2 threads | speed-up |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        moves = level.cells + level.discards
        for spec in SEARCHERS:
            player = parse_player(spec)
            probe = best_time(lambda: play_batch(level, player, 1, 0, 4, 1), 1) / 4
            n = max(4, int(args.seconds / probe))
            rates = [games_per_second(level, player, n, jobs, args.repeat) for jobs in (1, 2)]
            ms = 1000 / rates[0]
            print(f"| {lv} | {level.size}x{level.size} | {spec} | {rates[0]:,.0f} | {ms:.2f} | "
                  f"{ms / moves:.3f} | {rates[1]:,.0f} | {rates[1] / rates[0]:.2f}x |")


if __name__ == "__main__":
    main()
