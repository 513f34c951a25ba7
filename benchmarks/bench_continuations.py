"""Where a continuation's time goes: what one continuation of advise's player costs from
positions ever further into a game, against the count advise makes of it
(:func:`numberup.analysis.advise.continuation_seconds`), and the table of shares advise counts
with (``numberup/data/continuations.csv``, written with ``--write``).

Input: for each level, the positions of games ``--first``.. of seed 1 (``numberup play``'s
deals; benchmarks/bench_advice.py times game 0), played by the player's own choices, one
decision in ``--every`` from the first. At each, the action the player itself picks gets
``M + 1`` continuations and then 1, on one thread, and the difference of this process's CPU
time, over ``M``, is one continuation's cost. Reported per level: the table's cost of a game,
and at each position (empty cells; the mean over the games) the measured cost and advise's
count of it, both as shares of the table's cost (``empty: measured/counted``). A measured share
above the counted one means advise plays more work there than its budget says.

``--write FILE``: the measured shares, smoothed into one share for every count of empty cells
(0 to the grid's cells) per level, written as csv (level, spec, empty, share; the rows of
levels not measured now are kept). Smoothing: the mean over the games at each count, linear
between the counts measured and flat beyond them, then the closest non-decreasing sequence
(``scipy.optimize.isotonic_regression``, weighted by the positions measured): a continuation
from more empty cells plays every decision of one from fewer, so it cannot cost less.

    python benchmarks/bench_continuations.py [--levels 1-20] [--every 4] [--continuations 60]
        [--games 1] [--first 0] [--write numberup/data/continuations.csv]
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine  # noqa: E402


def smooth(cells: int, measured: dict[int, list[float]]) -> np.ndarray:
    """One share for every count of empty cells 0..``cells`` from ``measured`` ({empty: shares
    measured there}): see the module doc."""
    from scipy.optimize import isotonic_regression

    at = sorted(measured)
    mean = np.array([np.mean(measured[e]) for e in at])
    grid = np.arange(cells + 1)
    line = np.interp(grid, at, mean)
    weight = np.array([len(measured.get(e, ())) or 0.25 for e in grid], float)
    return np.maximum(isotonic_regression(line, weights=weight, increasing=True).x, 0.0)


def main() -> None:
    from numberup.analysis.advise import (DEFAULT_PLAYER, advice, continuation_seconds,
                                          game_seconds)
    from numberup.game.cards import format_card, parse_card
    from numberup.game.levels import get_level
    from numberup.interactive.session import Session
    from numberup.players.registry import at_level, parse_player

    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="1-20")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--continuations", type=int, default=60)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="the first game's number")
    ap.add_argument("--write", metavar="FILE")
    a = ap.parse_args()
    lo, _, hi = a.levels.partition("-")
    m = a.continuations
    print(f"# one continuation's CPU time as a share of the best table's cost of a game: measured/"
          f"advise's count, by empty cells ({machine()}; {DEFAULT_PLAYER}, 1 thread, {m} "
          f"continuations; one decision in {a.every} of games {a.first}-{a.first + a.games - 1} of seed 1)")
    print("| level | plays | table's s/game | empty cells: measured/counted |")
    print("|---|---|---:|---|")
    out = []
    for level in range(int(lo), int(hi or lo) + 1):
        lv = get_level(level)
        pl = at_level(parse_player(DEFAULT_PLAYER), level)
        cost = game_seconds(lv, pl)
        measured = defaultdict(list)
        for game in range(a.first, a.first + a.games):
            s = Session(lv, "play", 1, game)

            def cpu(n):
                t0 = time.process_time()
                got = advice(lv, s.grid_text(), s._hand_text(),
                             " ".join(format_card(c) for c in s.discarded), s.discards_left,
                             DEFAULT_PLAYER, seed=7, candidates=1, continuations=n, jobs=1)
                return time.process_time() - t0, next(x for x in got["actions"] if x["chosen"])

            cpu(2)  # warm up
            k = 0
            while not s.done:
                one, chosen = cpu(1)  # the player's own choice
                if k % a.every == 0 and len(s.legal_actions()) > 1:
                    empty = s.grid_text().split().count(".")
                    measured[empty].append((cpu(m + 1)[0] - one) / m / cost)
                cell = chosen["cell"]
                s.apply(parse_card(chosen["card"], lv),
                        -1 if cell is None else cell[0] * lv.size + cell[1])
                k += 1
        cells = [f"{e}: {np.mean(measured[e]):.2f}/"
                 f"{continuation_seconds(lv, pl, e) / cost:.2f}"
                 for e in sorted(measured, reverse=True)]
        print(f"| {level} | {pl.spec} | {cost:.4f} | {', '.join(cells)} |", flush=True)
        out += [(level, pl.spec, e, share) for e, share in enumerate(smooth(lv.cells, measured))]
    if a.write:
        done = {row[0] for row in out}
        if os.path.exists(a.write):  # keep the levels not measured now
            with open(a.write, newline="") as f:
                out += [(int(r["level"]), r["spec"], int(r["empty"]), float(r["share"]))
                        for r in csv.DictReader(f) if int(r["level"]) not in done]
        out.sort(key=lambda row: (row[0], row[2]))
        with open(a.write, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(("level", "spec", "empty", "share"))
            w.writerows((lv, spec, e, f"{share:.4f}") for lv, spec, e, share in out)
        print(f"wrote {a.write}: {len(out)} rows")


if __name__ == "__main__":
    main()
