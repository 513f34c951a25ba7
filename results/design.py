"""The tables of chapter 2's count-vector bounds: every count vector of the placed values of a
level solved once, its proven bound kept, for the design bound (numberup/data/design.csv,
`numberup.analysis.design.solve`) or the crossing bound (numberup/data/crossing.csv,
`numberup.analysis.crossing.solve`).

    python results/design.py --level 8 --seconds 120 [--jobs 2]
    python results/design.py --bound crossing --level 9 --seconds 60 [--decks 100]

Rows already in the table for the level are kept (the same count vector and limit give the
same figure on any machine), so an interrupted run continues where it stopped.
Columns: level, counts (cards of each value, space-separated), bound (proven), best (design
only: the best layout's result found), optimal, seconds (the deterministic limit), work
(deterministic time used).
"""

import argparse
import csv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from numberup.analysis import crossing, design
from numberup.analysis.design import every_count

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--bound", choices=["design", "crossing"], default="design")
ap.add_argument("--level", type=int, required=True)
ap.add_argument("--seconds", type=float, default=120.0)
ap.add_argument("--jobs", type=int, default=1)
ap.add_argument("--decks", type=int, default=None,
                help="only the count vectors the first N decks of --seed place")
ap.add_argument("--seed", type=int, default=2026)
args = ap.parse_args()
solve = {"design": design.solve, "crossing": crossing.solve}[args.bound]
PATH = Path(f"numberup/data/{args.bound}.csv")
FIELDS = ["level", "counts", "bound"] + ["best"] * (args.bound == "design") + [
    "optimal", "seconds", "work"]

rows = list(csv.DictReader(PATH.open())) if PATH.exists() else []
done = {(int(r["level"]), r["counts"]) for r in rows}
todo = [c for c in every_count(args.level)
        if (args.level, " ".join(map(str, c))) not in done]
if args.decks is not None:
    from numberup.game.cards import deal

    placed = {design.counts(args.level, deal(args.level, args.seed, g)) for g in range(args.decks)}
    todo = [c for c in todo if c in placed]
print(f"level {args.level}: {len(todo)} count vectors to solve, {args.seconds} s each")


def write():
    rows.sort(key=lambda r: (int(r["level"]), [int(k) for k in r["counts"].split()]))
    tmp = PATH.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    tmp.replace(PATH)


with ThreadPoolExecutor(max_workers=args.jobs) as pool:
    for k, d in enumerate(pool.map(lambda c: solve(args.level, c, args.seconds), todo)):
        row = {"level": d.level, "counts": " ".join(map(str, d.counts)), "bound": d.bound,
               "optimal": int(d.optimal), "seconds": args.seconds, "work": round(d.work, 1)}
        if args.bound == "design":
            row["best"] = d.best
        rows.append(row)
        write()
        print(f"{k + 1}/{len(todo)} {d.counts}: bound {d.bound}"
              f"{f', best {d.best}' if args.bound == 'design' else ''}"
              f"{' (optimal)' if d.optimal else ''}", flush=True)
