"""Games per second of the learned player on every level, against rollout:n=200 (the issue's
20x target) and expectimax, and training speed.

Input: games 0..N-1 of master seed 1 (play; the same games in every round), games of seed 7
(training) on the levels given.
Variants: the learned player with its defaults (the package's models; on levels 6-10 it
looks at the next card), the same one move deep (``depth=1``), expectimax (depth 1, k = 64).
Reference: rollout:n=200 on games 0..R-1 of seed 1 (--rollout-games R), timed in the same
rounds: every round times each player once, in turn, on one thread, and each player's best
round counts (this shared machine's speed drifts by a third within minutes, so the players
are timed side by side, not one after the other).
Run: python benchmarks/bench_learned.py [--levels 1,8,16,18,19,20] [--seconds S] [--repeat K]
     [--rollout-games R] [--train-games G]
"""

from __future__ import annotations

import argparse
import time

from common import machine

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch

SPECS = ("learned", "learned:depth=1", "expectimax")


def _rate(level, player, n: int) -> float:
    """Games per second (this process's CPU time) of games 0..n-1 of seed 1, one thread."""
    t0 = time.process_time()
    play_batch(level, player, 1, 0, n, 1)
    return n / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(str(n) for n in range(1, 21)))
    ap.add_argument("--seconds", type=float, default=1.0, help="about this long per timing")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (the best counts)")
    ap.add_argument("--rollout-games", type=int, default=30,
                    help="games of rollout:n=200 per round")
    ap.add_argument("--train-games", type=int, default=0,
                    help="time training on this many games (0: not)")
    args = ap.parse_args()
    print(f"# learned player: best of {args.repeat} rounds, one thread, CPU time ({machine()})")
    print("| level | learned games/s | learned:depth=1 games/s | expectimax games/s | "
          "rollout:n=200 games/s | learned / rollout:n=200 | learned:depth=1 / rollout:n=200 "
          "| learned / expectimax | training games/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rollout = parse_player("rollout:n=200")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        players = [parse_player(s) for s in SPECS]
        sizes = []
        for player in players:
            play_batch(level, player, 1, 0, 2, 1)  # compile
            sizes.append(max(4, int(args.seconds * _rate(level, player, 4))))
        play_batch(level, rollout, 1, 0, 1, 1)
        best = [0.0] * (len(players) + 1)
        for _ in range(args.repeat):
            for q, player in enumerate(players):
                best[q] = max(best[q], _rate(level, player, sizes[q]))
            best[-1] = max(best[-1], _rate(level, rollout, args.rollout_games))
        train = float("nan")
        if args.train_games:
            from numberup.training.train import train_level

            train_level(lv, 10, seed=7, tune=1)  # compile
            t0 = time.perf_counter()
            train_level(lv, args.train_games, seed=7, tune=1)  # the choice of scale: 11 games
            train = args.train_games / (time.perf_counter() - t0)
        learned, one_move, expectimax, roll = best
        print(f"| {lv} | {learned:,.0f} | {one_move:,.0f} | {expectimax:,.0f} | {roll:,.1f} | "
              f"{learned / roll:,.1f}x | {one_move / roll:,.1f}x | {learned / expectimax:.1f}x "
              f"| {'-' if train != train else f'{train:,.0f}'} |", flush=True)


if __name__ == "__main__":
    main()
