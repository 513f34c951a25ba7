"""Write the table behind the player spec ``best``: every measured setting of every level, with
its strength from the runs in results/ and its cost measured here on one core.

    python results/best.py            # from the repository root (results/make.sh step 4c)
    python results/best.py --keep-costs   # time only the settings results/best.csv lacks
    python results/best.py --keep-costs --retime 19 --rounds 5   # and level 19's again, the
                                          # median of 5 rounds

Strength (games, mean, medal odds) comes from the committed runs, all on decks 0..N-1 of seed
2026: results/summary.csv, results/objective.csv, results/runs/learned-gold/summary.csv and the
JSON of results/runs/strongest/ (the runs of results/strongest.md; a file that continued
another's spec on later decks is pooled with it), results/runs/candidates/summary.csv (settings
near the default budget, measured on 2,000 decks to choose among them) and
results/runs/level20-k/summary.csv (level 20's strongest settings on the same decks),
results/runs/level20-endgame/summary.csv (level 20's default with the exact endgame),
results/runs/lookahead/summary.csv (the learned player with its look at the next card, playing
for gold, on 1,000 decks of the levels without a hand where it is not the default),
results/runs/sampled/ and results/runs/sampled-12/ (the same look over a sample of the next
cards, on 1,000 decks of the 6x6 levels where the whole look costs more than the default
budget), results/runs/learned-endgame/ and results/runs/learned-endgame-hand/ (the learned
player playing for gold with the exact endgame, levels 6, 8 and 10, and 18 and 19, 2,000
decks), results/runs/street-chain/ (the same with the street chain, ``exact=2``, levels 18-20,
2,000 decks) and the JSON of the runs against ``rollout:n=800`` on
600 decks of every level (:data:`PAIRED`, results/learned.md).
The settings of results/runs/strongest/ with a learned base were played with the learned
models of feature version 3, which the package no longer ships: they are left out, and the
JSON of results/runs/recheck/ (the same or like settings with today's models, on decks 0..N-1
or on the fresh decks ``--first`` names) stands for them; its folder version4/ keeps the
rechecks of a model since replaced (level 19's, by feature version 5), which are left out too.
Where a setting was measured more than once, the run with the most games counts.

Cost: the seconds a game of each setting on one core, timed here (``--jobs 1``, after its
compile) over the first games of seed 2026 until at least ``MIN_SECONDS`` have passed; with
``--rounds N`` the settings to time are timed in N rounds, each once a round in turn, and keep
the median (the machine's speed drifts over minutes: benchmarks/README.md, "The costs in
`best`'s table"). Writes results/best.csv and its package copy numberup/data/best.csv.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

from numberup.game.levels import get_level
from numberup.players.best import COLUMNS
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.stats import wilson

SEED = 2026
MIN_SECONDS, MIN_GAMES = 2.0, 3
STRONGEST = Path("results/runs/strongest")
RECHECK = Path("results/runs/recheck")
# files that played the spec of another file on the decks after it (--first), per strongest.md
CONTINUES = {"r10b": "r10", "r16b": "r16", "q19": "p19", "q16": "p16", "q10": "p10",
             "n6": "g6", "n8": "h8", "l10-fresh-b-2026-12-06": "l10-fresh-2026-12-06",
             "p19-2026-12-07b": "p19-2026-12-07",
             "l16-bk16-fresh-b-2026-12-08": "l16-bk16-fresh-2026-12-07"}
# results/runs/strongest/: a learned base there was version 3's model (see the module doc), and
# bases16.json's base=learned was expectimax with the learned evaluation, a setting no spec
# plays now: left out
STALE = "base=learned"
# run directories of results/runs/ whose summary.csv holds measured settings (make.sh 4c)
RUNS = ("learned-gold", "candidates", "level20-k", "level20-endgame", "lookahead", "sampled",
        "sampled-12", "learned-endgame", "learned-endgame-hand", "street-chain", "rollout-top-18",
        "rollout-top-19")
# the runs of every level against rollout:n=800, 600 decks (results/learned.md; make.sh 4c)
PAIRED = [Path("results/runs/learned-vs-rollout-800.json"),
          Path("results/runs/learned-gold-vs-rollout-800.json")]


def rows_of(frame: pd.DataFrame, source: str) -> list[dict]:
    return [{"level": int(r.level), "spec": parse_player(r.policy).spec, "games": int(r.games),
             "gold": round(r.p_gold * r.games), "mean": r["mean"], "p_bronze": r.p_bronze,
             "p_silver": r.p_silver, "source": source} for _, r in frame.iterrows()]


def strongest_rows() -> list[dict]:
    """The rows of the JSON of results/runs/strongest/ (without its learned bases), of
    results/runs/recheck/ and of :data:`PAIRED`."""
    runs: dict[tuple, dict] = {}
    paths = sorted(STRONGEST.glob("*.json")) + sorted(RECHECK.glob("*.json")) + PAIRED
    for path in paths:
        for r in json.loads(path.read_text()):
            if path.parent == STRONGEST and STALE in r["policy"]:
                continue
            key = (r["level"], parse_player(r["policy"]).spec, CONTINUES.get(path.stem, path.stem))
            row = {"level": r["level"], "spec": key[1], "games": r["games"],
                   "gold": round(r["p_gold"] * r["games"]), "sum": r["mean"] * r["games"],
                   "bronze": r["p_bronze"] * r["games"], "silver": r["p_silver"] * r["games"],
                   "source": str(path.relative_to("results"))}
            if key in runs:  # a continuation on later decks: pool the games
                a = runs[key]
                for k in ("games", "gold", "sum", "bronze", "silver"):
                    a[k] += row[k]
                a["source"] += f" + {path.name}"
            else:
                runs[key] = row
    return [{"level": a["level"], "spec": a["spec"], "games": a["games"], "gold": a["gold"],
             "mean": a["sum"] / a["games"], "p_bronze": a["bronze"] / a["games"],
             "p_silver": a["silver"] / a["games"], "source": a["source"]} for a in runs.values()]


def cost(level: int, spec: str) -> float:
    """Seconds a game on one core, over the first games of the seed."""
    lv, player = get_level(level), parse_player(spec)
    play_batch(lv, player, SEED, 0, 0, 1)  # compile (or load) first
    games, start = 0, time.perf_counter()
    while games < MIN_GAMES or time.perf_counter() - start < MIN_SECONDS:
        play_batch(lv, player, SEED, games, 1, 1)
        games += 1
    return (time.perf_counter() - start) / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep-costs", action="store_true",
                    help="keep the costs results/best.csv has; time only the settings it lacks")
    ap.add_argument("--retime", type=int, action="append", default=[], metavar="LEVEL",
                    help="with --keep-costs, time this level's settings again (repeatable)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="time each setting this many times, in turn, and keep the median")
    a = ap.parse_args()
    kept = {}
    if a.keep_costs:
        old = pd.read_csv("results/best.csv")
        kept = {(int(r.level), r.spec): float(r.seconds_per_game) for r in old.itertuples()
                if int(r.level) not in a.retime}
    found = rows_of(pd.read_csv("results/summary.csv"), "summary.csv")
    found += rows_of(pd.read_csv("results/objective.csv"), "objective.csv")
    for run in RUNS:
        found += rows_of(pd.read_csv(f"results/runs/{run}/summary.csv"), f"runs/{run}")
    found += strongest_rows()
    best: dict[tuple, dict] = {}
    for r in found:  # the same setting on the same decks: the run with the most games
        key = (r["level"], r["spec"])
        if key not in best or r["games"] > best[key]["games"]:
            best[key] = r
    timed: dict[tuple, list] = {key: [] for key in sorted(best) if not kept.get(key)}
    for _ in range(a.rounds):  # round-robin: a drift of the machine touches every setting alike
        for level, spec in timed:
            timed[level, spec].append(cost(level, spec))
    out = []
    for (level, spec), r in sorted(best.items()):
        lo, hi = wilson(r["gold"], r["games"])
        seconds = kept.get((level, spec)) or statistics.median(timed[level, spec])
        print(f"level {level:2d} {spec:70s} {r['games']:5d} games  P(gold) "
              f"{100 * r['gold'] / r['games']:5.1f}%  {seconds:.4f} s a game", file=sys.stderr)
        out.append({"level": level, "spec": spec, "games": r["games"], "mean": r["mean"],
                    "p_bronze": r["p_bronze"], "p_silver": r["p_silver"],
                    "p_gold": r["gold"] / r["games"], "p_gold_lo": lo, "p_gold_hi": hi,
                    "seconds_per_game": seconds, "source": r["source"]})
    frame = pd.DataFrame(out, columns=list(COLUMNS))
    for path in ("results/best.csv", "numberup/data/best.csv"):
        frame.to_csv(path, index=False, float_format="%.6g")
    print(f"results/best.csv, numberup/data/best.csv: {len(frame)} settings", file=sys.stderr)


if __name__ == "__main__":
    main()
