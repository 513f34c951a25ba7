"""Games per second of the simple players, per level, on one and two threads.

Input: games 0..N-1 of master seed 1 (the same decks for every variant).
Variants: player random / greedy; jobs 1 / 2. Reference: jobs 1 (for the thread speed-up).
Run: python benchmarks/bench_engine.py [--levels 1,14] [--games N]
"""

from __future__ import annotations

import argparse
from common import games_per_second, machine

from numberup.game.levels import get_level
from numberup.players.registry import parse_player


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="1,2,3,5,8,14,16,18,20")
    ap.add_argument("--players", default="random,greedy")
    ap.add_argument("--games", type=int, default=0, help="games per timing (default: by player)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"# engine: games/s, best of {args.repeat} ({machine()})")
    print("| level | player | 1 job | 2 jobs | speed-up |")
    print("|---|---|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        for spec in args.players.split(","):
            player = parse_player(spec)
            n = args.games or (400_000 if spec == "random" else 50_000)
            rates = [games_per_second(level, player, n, jobs, args.repeat) for jobs in (1, 2)]
            print(f"| {lv} | {spec} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[1] / rates[0]:.2f}x |")


if __name__ == "__main__":
    main()
