"""Paired comparison of two players of one compare run, level by level: the difference of
their means and of their P(gold) on the same decks, each with a 95% interval (normal, over the
decks), and their times per game.

    python results/paired.py RUN_DIR PLAYER BASELINE [--baseline-run DIR] [--csv OUT]

RUN_DIR is a ``numberup compare --out`` directory (its games.parquet and summary.csv); PLAYER
and BASELINE are two of its player specs, or BASELINE one of ``--baseline-run``'s, a run of the
same seed (its games are paired with PLAYER's by level and game number). "held" says whether both intervals reach zero or
above (PLAYER is not measurably worse on the mean nor on P(gold)); "speed" is BASELINE's
seconds per game over PLAYER's, both measured in the same run.
"""

import argparse
import json

import numpy as np
import pandas as pd

from numberup.game import levels as L


def paired(run: str, player: str, baseline: str, baseline_run: str | None = None) -> pd.DataFrame:
    other = baseline_run or run
    if json.loads(open(f"{other}/manifest.json").read())["seed"] != \
            json.loads(open(f"{run}/manifest.json").read())["seed"]:
        raise SystemExit(f"paired.py: {other} was played with another seed than {run}")
    columns = ["level", "policy", "game", "score"]
    mine = pd.read_parquet(f"{run}/games.parquet", columns=columns)
    theirs = pd.read_parquet(f"{other}/games.parquet", columns=columns)
    mine, theirs = mine[mine.policy == player], theirs[theirs.policy == baseline]
    seconds = {}  # (run, level, policy) -> seconds a game
    for d in {run, other}:
        for r in pd.read_csv(f"{d}/summary.csv").itertuples():
            seconds[d, r.level, r.policy] = r.seconds_per_game
    rows = []
    for level in sorted(set(mine.level) & set(theirs.level)):
        gold = int(L.PARAMS[level][L.P_GOLD])
        a = mine[mine.level == level].set_index("game").score
        b = theirs[theirs.level == level].set_index("game").score
        a, b = a.align(b, join="inner")
        n = len(a)
        if n == 0:  # a level only one of the two played
            continue
        diff = (a - b).to_numpy(float)
        gdiff = (a >= gold).to_numpy(float) - (b >= gold).to_numpy(float)
        half = lambda x: 1.96 * x.std(ddof=1) / np.sqrt(n)  # noqa: E731
        row = {"level": level, "decks": n, "mean": a.mean(), "baseline_mean": b.mean(),
               "diff": diff.mean(), "diff_lo": diff.mean() - half(diff),
               "diff_hi": diff.mean() + half(diff), "p_gold": (a >= gold).mean(),
               "baseline_p_gold": (b >= gold).mean(), "gold_diff": gdiff.mean(),
               "gold_diff_lo": gdiff.mean() - half(gdiff), "gold_diff_hi": gdiff.mean() + half(gdiff),
               "seconds": seconds[run, level, player],
               "baseline_seconds": seconds[other, level, baseline],
               "speed": seconds[other, level, baseline] / seconds[run, level, player]}
        row["held"] = bool(row["diff_hi"] >= 0 and row["gold_diff_hi"] >= 0)
        rows.append(row)
    return pd.DataFrame(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("player")
    ap.add_argument("baseline")
    ap.add_argument("--baseline-run", help="the run directory BASELINE's games are in "
                    "(default: RUN_DIR)")
    ap.add_argument("--csv", help="also write the table here")
    args = ap.parse_args()
    t = paired(args.run, args.player, args.baseline, args.baseline_run)
    print(f"{args.player} against {args.baseline}, paired on the same decks")
    print("| level | decks | mean | baseline | diff [95%] | P(gold) | baseline | diff [95%] | "
          "speed | held |")
    print("|---:|---:|---:|---:|---|---:|---:|---|---:|---|")
    for r in t.itertuples():
        print(f"| {r.level} | {r.decks} | {r.mean:.2f} | {r.baseline_mean:.2f} | "
              f"{r.diff:+.2f} [{r.diff_lo:+.2f}, {r.diff_hi:+.2f}] | {100 * r.p_gold:.1f}% | "
              f"{100 * r.baseline_p_gold:.1f}% | {100 * r.gold_diff:+.1f} [{100 * r.gold_diff_lo:+.1f}, "
              f"{100 * r.gold_diff_hi:+.1f}] | {r.speed:.1f}x | {'yes' if r.held else 'no'} |")
    print(f"held on {int(t.held.sum())} of {len(t)} levels; held at 20x the baseline's speed or "
          f"more on {int((t.held & (t.speed >= 20)).sum())}")
    if args.csv:
        t.to_csv(args.csv, index=False, float_format="%.6g")


if __name__ == "__main__":
    main()
