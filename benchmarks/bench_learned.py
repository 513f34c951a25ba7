"""Games per second of the learned player on every level, against expectimax, and training
speed.

Input: games 0..N-1 of master seed 1 (play), games of seed 7 (training) on the levels given.
Variants: the learned player (the package's models) with k = 64 (its default) and k = 16 (as
in training), expectimax (depth 1, k = 64).
Reference: expectimax (the ratio), and rollout:n=200 for the issue's 20x target: timed here on
games 0..R-1 of seed 1, one thread (--rollout-games R), or without it its seconds per game in
results/summary.csv (1,000 games, seed 2026, measured with other runs on the machine).
Run: python benchmarks/bench_learned.py [--levels 1,8,16,18,19,20] [--seconds S] [--repeat K]
     [--train-games G] [--rollout-games R]
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from common import best_time, games_per_second, machine

from numberup.levels import get_level
from numberup.players import parse_player
from numberup.simulate import play_batch

SUMMARY = Path(__file__).resolve().parent.parent / "results" / "summary.csv"


def rollout_seconds() -> dict[int, float]:
    """rollout:n=200's seconds per game per level, from results/summary.csv."""
    out = {}
    with open(SUMMARY) as f:
        for row in csv.DictReader(f):
            if row["policy"] == "rollout:n=200":
                out[int(row["level"])] = float(row["seconds_per_game"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default=",".join(str(n) for n in range(1, 21)))
    ap.add_argument("--seconds", type=float, default=2.0, help="about this long per timing")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--train-games", type=int, default=2000, help="0: no training timing")
    ap.add_argument("--rollout-games", type=int, default=0,
                    help="time rollout:n=200 on this many games (0: read results/summary.csv)")
    args = ap.parse_args()
    rollout = rollout_seconds()
    print(f"# learned player: best of {args.repeat}, one thread ({machine()})")
    print("| level | learned games/s | learned:k=16 games/s | expectimax games/s | "
          "learned / expectimax | learned / rollout:n=200 | learned:k=16 / rollout:n=200 | "
          "training games/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        rates = []
        for spec in ("learned", "learned:k=16", "expectimax"):
            player = parse_player(spec)
            probe = best_time(lambda: play_batch(level, player, 1, 0, 4, 1), 1) / 4
            n = max(4, int(args.seconds / probe))
            rates.append(games_per_second(level, player, n, 1, args.repeat))
        if args.rollout_games:
            per_game = 1 / games_per_second(level, parse_player("rollout:n=200"),
                                            args.rollout_games, 1, args.repeat)
        else:
            per_game = rollout.get(lv, float("nan"))
        vs_rollout = [r * per_game for r in rates[:2]]
        train = float("nan")
        if args.train_games:
            from numberup.train import train_level

            train_level(lv, 10, seed=7, tune=1)  # compile
            t0 = time.perf_counter()
            train_level(lv, args.train_games, seed=7, tune=1)  # the choice of scale: 11 games
            train = args.train_games / (time.perf_counter() - t0)
        print(f"| {lv} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[2]:,.0f} | "
              f"{rates[0] / rates[2]:.1f}x | {vs_rollout[0]:,.0f}x | {vs_rollout[1]:,.0f}x | "
              f"{train:,.0f} |")


if __name__ == "__main__":
    main()
