"""The costs of `best`'s table timed round-robin: are they steadier than one timing each?

`results/best.py` times each setting of `results/best.csv` once, one after the other, and the
machine's speed drifts over minutes (`benchmarks/README.md`, "The costs in `best`'s table").
Here the settings whose table cost lies within ``--band`` of a budget are timed in ``--rounds``
rounds, every setting once a round: each plays the same games every time (games 0..n-1 of seed
2026 on one core, ``n`` fixed in a first calibrating pass so that a turn takes about
``--seconds``: at the default 2 s about the games `results/best.py` times), and its cost is
the median over the rounds. A drift then touches every setting
alike. Reported per setting: the table's cost, the median, the least and most of the rounds;
then what `best` would play differently, at 0.05 s (its default) and 0.032 s (advise's), with
the medians in place of the table's costs.

    python benchmarks/bench_costs.py [--rounds 3] [--seconds 2] [--band 0.6]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine  # noqa: E402

SEED = 2026
BUDGETS = (0.05, 0.032)  # best's default, and advise's (numberup.players.best.QUICK)


def main() -> None:
    from numberup.game.levels import get_level
    from numberup.players.best import choose, read_table
    from numberup.players.registry import parse_player
    from numberup.runs.loop import play_batch

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="about how long a turn takes (2 s: about the games results/best.py "
                         "times, so the medians compare with the table)")
    ap.add_argument("--band", type=float, default=0.6,
                    help="time the settings whose table cost is within this share of a budget")
    ap.add_argument("--table", default="results/best.csv")
    a = ap.parse_args()

    rows = read_table(Path(a.table).read_text(), a.table)
    near = [r for r in rows
            if any(abs(r["seconds_per_game"] - b) <= a.band * b for b in BUDGETS)]
    items = []
    for r in near:
        lv, player = get_level(r["level"]), parse_player(r["spec"])
        play_batch(lv, player, SEED, 0, 1, 1)  # compile (or load), and a first game
        t = time.perf_counter()
        play_batch(lv, player, SEED, 0, 3, 1)
        n = max(3, math.ceil(a.seconds / ((time.perf_counter() - t) / 3)))
        items.append((r["level"], r["spec"], lv, player, n, r["seconds_per_game"]))
    times: list[list[float]] = [[] for _ in items]
    start = time.perf_counter()
    for rnd in range(a.rounds):
        for i, (_, _, lv, player, n, _) in enumerate(items):
            t = time.perf_counter()
            play_batch(lv, player, SEED, 0, n, 1)
            times[i].append((time.perf_counter() - t) / n)
        print(f"round {rnd + 1} of {a.rounds}: {time.perf_counter() - start:.0f} s",
              file=sys.stderr, flush=True)

    print(f"# best's costs round-robin ({machine()}; {len(items)} settings, {a.rounds} rounds,"
          f" {time.perf_counter() - start:.0f} s)")
    print("| level | setting | games | table s/game | median | least | most |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    medians = {}
    for (level, spec, _, _, n, cost), x in zip(items, times):
        med = medians[level, spec] = statistics.median(x)
        print(f"| {level} | `{spec}` | {n} | {cost:.4f} | {med:.4f} | {min(x):.4f} | "
              f"{max(x):.4f} |")
    # what best would play with the medians in place of the table's costs
    timed = [dict(r, seconds_per_game=medians.get((r["level"], r["spec"]),
                                                  r["seconds_per_game"])) for r in rows]
    changes = []
    for level in sorted({r["level"] for r in rows}):
        for b in BUDGETS:
            was, now = choose(rows, level, b)["spec"], choose(timed, level, b)["spec"]
            if was != now:
                changes.append(f"level {level} at {b:g} s: `{was}` -> `{now}`")
    print()
    print("\n".join(f"- {c}" for c in changes) if changes
          else "- with the medians `best` plays what it plays now, at both budgets")


if __name__ == "__main__":
    main()
