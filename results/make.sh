#!/usr/bin/env bash
# Regenerates every file in results/ with fixed seeds: `bash results/make.sh` from the
# repository root (several hours on a 2-core machine: steps 8 and 8b alone take about 6; the
# steps give their times). Each step is one numberup command.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=2026
R=results
RUNS=$R/runs
mkdir -p "$RUNS"
# every run directory is made anew (numberup refuses to write over a run without --resume)
rm -rf "$RUNS"/candidates "$RUNS"/baseline "$RUNS"/learned "$RUNS"/rollout "$RUNS"/objective "$RUNS"/objective-rollout "$RUNS"/budget

# 1. greedy, random and expectimax on the same 2,000 decks of every level (paired with greedy)
numberup compare --level all -p greedy -p random -p expectimax --games 2000 --seed $SEED \
    --out $RUNS/baseline --no-progress --json > $RUNS/baseline.json

# 2. rollout (the strongest and slowest player) on the first 1,000 of those decks, paired
#    with greedy on the same decks
numberup compare --level all -p greedy -p rollout:n=200 --games 1000 --seed $SEED \
    --out $RUNS/rollout --no-progress --json > $RUNS/rollout.json

# 2b. the learned player (the models of numberup/learned/models/, made by results/train.sh on decks of
#     seed 7) on the same 2,000 decks, paired with greedy
numberup compare --level all -p greedy -p learned --games 2000 --seed $SEED \
    --out $RUNS/learned --no-progress --json > $RUNS/learned.json

# 3. playing for gold instead of for the mean, on the same decks: levels scored by the lowest
#    line (3, 20), where P(gold) steers every move, and summed levels (8, 14, 15), where it
#    steers the last cards only
numberup compare --level 3,8,14,15,20 -p expectimax -p expectimax:objective=gold --games 2000 \
    --seed $SEED --out $RUNS/objective --no-progress --json > $RUNS/objective.json
numberup compare --level 3,8,15 -p rollout:n=200 -p rollout:n=200,objective=gold --games 600 \
    --seed $SEED --out $RUNS/objective-rollout --no-progress --json > $RUNS/objective-rollout.json

# 4. one table: every level x player (learned from step 2b, rollout from step 2), with the paired difference
#    against greedy on the same decks
python - <<'PY'
import pandas as pd
base = pd.read_csv("results/runs/baseline/summary.csv")
roll = pd.read_csv("results/runs/rollout/summary.csv")
learned = pd.read_csv("results/runs/learned/summary.csv")
out = pd.concat([base, learned[learned.policy == "learned"], roll[roll.policy.str.startswith("rollout")]],
                ignore_index=True)
out = out.sort_values(["level", "games"], ascending=[True, False], kind="stable")
cols = ["level", "policy", "games", "mean", "sd", "p_lost", "p_bronze", "p_silver", "p_gold",
        "p_gold_lo", "p_gold_hi", "seconds_per_game", "vs", "diff_mean", "diff_lo", "diff_hi",
        "wins", "ties", "losses"]
out[cols].to_csv("results/summary.csv", index=False, float_format="%.6g")
PY
python - <<'PY'
import pandas as pd
frames = [pd.read_csv(f"results/runs/{d}/summary.csv") for d in ("objective", "objective-rollout")]
pd.concat(frames, ignore_index=True).to_csv("results/objective.csv", index=False, float_format="%.6g")
PY

# 4b. what the commands read from these results, as package data (numberup/data/: the summary
#     table, and the score counts per level and player of the baseline, learned and objective runs)
python results/package_data.py

# 4c. the learned player playing for gold, on the same decks (a setting `best` may play), and
#     the table behind `best`: every measured setting's strength (from the runs above and
#     results/runs/strongest/) and its cost, timed on one core (results/best.csv and its package
#     copy numberup/data/best.csv; about 20 minutes, most of it timing the rollout settings)
rm -rf "$RUNS"/learned-gold
numberup compare --level all -p learned:objective=gold --games 2000 --seed $SEED --jobs 1 \
    --out $RUNS/learned-gold --no-progress --json > $RUNS/learned-gold.json
# settings near the default budget that were measured on fewer decks, on 2,000 (level 20), and
# the level's strongest settings on the same decks (k=1024 costs twice the default budget)
numberup compare --level 20 -p expectimax:k=256,objective=gold -p learned:objective=gold,k=128 \
    -p learned:objective=gold,k=256 -p learned:objective=gold,k=512 \
    -p learned:objective=gold,k=1024 --games 2000 --seed $SEED \
    --jobs 1 --out $RUNS/candidates --no-progress --json > $RUNS/candidates.json
rm -rf "$RUNS"/level20-k
numberup compare --level 20 -p learned:objective=gold,k=1024,endgame=3 \
    -p learned:objective=gold,k=4096 --games 2000 --seed $SEED --jobs 2 --out $RUNS/level20-k \
    --no-progress --json > $RUNS/level20-k.json
# level 20's default with the exact endgame over the last 3 or 4 cells (paired; strongest.md)
rm -rf "$RUNS"/level20-endgame
numberup compare --level 20 -p learned:objective=gold,k=256 \
    -p learned:objective=gold,k=256,endgame=3 -p learned:objective=gold,k=256,endgame=4 \
    --games 2000 --seed $SEED --jobs 2 --out $RUNS/level20-endgame --no-progress --json > $RUNS/level20-endgame.json
# the learned player with its look at the next card (learned:depth=2; the default already on
# levels 6-10, not defined with a hand), playing for gold, on 1,000 decks of the other levels
rm -rf "$RUNS"/lookahead
numberup compare --level 2,3,11-17 -p learned:depth=2,objective=gold --games 1000 --seed $SEED \
    --jobs 2 --out $RUNS/lookahead --no-progress --json > $RUNS/lookahead.json
# the same look over a random sample of the next cards (sample=S), on the 6x6 levels where the
# whole look costs more than the default budget; and on levels 6 and 8 (where depth 0 looks
# already), the look at more of the best actions (width: results/learned.md; best.py leaves it
# out, as advise at 0.032 s would play it past its 2 s)
rm -rf "$RUNS"/sampled "$RUNS"/sampled-12 "$RUNS"/wide
numberup compare --level 12,15,17 -p learned:depth=2,objective=gold,sample=8 \
    -p learned:depth=2,objective=gold,sample=16 --games 1000 --seed $SEED --jobs 2 \
    --out $RUNS/sampled --no-progress --json > $RUNS/sampled.json
numberup compare --level 12,15,17 -p learned:depth=2,objective=gold,sample=12 --games 1000 \
    --seed $SEED --jobs 2 --out $RUNS/sampled-12 --no-progress --json > $RUNS/sampled-12.json
numberup compare --level 6,8 -p learned:objective=gold,width=6 -p learned:objective=gold,width=12 \
    --games 2000 --seed $SEED --jobs 2 --out $RUNS/wide --no-progress --json > $RUNS/wide.json
# on levels 6, 8 and 10, the same player with the exact endgame over the last 4 or 5 cells
# (paired with the default; results/learned.md), and over the last 3 or 4 on levels 18 and 19
# (a hand of five: 5 cells cost several times the default budget)
rm -rf "$RUNS"/learned-endgame "$RUNS"/learned-endgame-hand
numberup compare --level 6,8,10 -p learned:objective=gold -p learned:objective=gold,endgame=4 \
    -p learned:objective=gold,endgame=5 --games 2000 --seed $SEED --jobs 2 \
    --out $RUNS/learned-endgame --no-progress --json > $RUNS/learned-endgame.json
numberup compare --level 18,19 -p learned:objective=gold -p learned:objective=gold,endgame=3 \
    -p learned:objective=gold,endgame=4 --games 2000 --seed $SEED --jobs 2 \
    --out $RUNS/learned-endgame-hand --no-progress --json > $RUNS/learned-endgame-hand.json
# on levels 18-20 (streets of neighbouring cells), the same with each open line judged by the
# street chain instead of sampled completions (exact=2; results/learned.md)
rm -rf "$RUNS"/street-chain
numberup compare --level 18,19,20 -p learned:objective=gold,exact=2 \
    -p learned:objective=gold,exact=2,endgame=3 -p learned:objective=gold,exact=2,endgame=4 \
    --games 2000 --seed $SEED --jobs 2 --out $RUNS/street-chain --no-progress --json > $RUNS/street-chain.json
# on levels 18 and 19 (a hand of five: up to 100 actions a decision), greedy rollouts of the
# learned player's best actions only (top=K; results/strongest.md, round 3; about 25 minutes)
rm -rf "$RUNS"/rollout-top-18 "$RUNS"/rollout-top-19
numberup compare --level 18 -p rollout:n=40,top=3 -p rollout:n=60,top=4 -p rollout:n=200,top=4 \
    --games 2000 --seed $SEED --jobs 2 --out $RUNS/rollout-top-18 --no-progress --json > $RUNS/rollout-top-18.json
numberup compare --level 19 -p rollout:n=15,top=3 -p rollout:n=25,top=3 -p rollout:n=100,top=4 \
    --games 2000 --seed $SEED --jobs 2 --out $RUNS/rollout-top-19 --no-progress --json > $RUNS/rollout-top-19.json
# the one-move learned player, both ways of playing, against rollout:n=800 on 600 decks of every
# level (results/learned.md; about an hour on 2 cores); best.py reads both JSON files
for P in learned learned:objective=gold; do
    D=learned-vs-rollout-800
    [ "$P" = learned ] || D=learned-gold-vs-rollout-800
    rm -rf "$RUNS/$D"
    numberup compare --level all -p rollout:n=800 -p $P --games 600 --seed $SEED --jobs 2 \
        --out $RUNS/$D --no-progress --json > $RUNS/$D.json
    python results/paired.py $RUNS/$D $P rollout:n=800 --csv $R/$D.csv
done
python results/best.py
# 4d. `best` itself, the default player, on the same 2,000 decks (its games are those of the
#     setting it plays on each level; the bars of medals.png and the README's headline)
rm -rf "$RUNS"/best
numberup compare --level all -p best --games 2000 --seed $SEED --jobs 2 --out $RUNS/best \
    --no-progress --json > $RUNS/best.json

# 5. plots
numberup plot medals --from $RUNS/baseline --from $RUNS/learned --from $RUNS/rollout \
    --from $RUNS/best --output $R/medals.png
numberup plot dist --from $RUNS/baseline --level 14 --output $R/dist-level14.png
numberup plot dist --from $RUNS/baseline --level 8 --output $R/dist-level8.png
numberup plot budget --level 14 -p greedy -p expectimax:k=16 -p expectimax -p expectimax:k=256 \
    -p rollout:n=50 -p rollout:n=200 -p rollout:n=800 --games 400 --seed $SEED \
    --out $RUNS/budget --no-progress --output $R/budget-curves-level14.png
# every player of the summary table (step 4), on a summed level and a hard one
numberup plot budget --summary $R/summary.csv --level 14 --output $R/budget-level14.png
numberup plot budget --summary $R/summary.csv --level 17 --output $R/budget-level17.png

# 6. the campaign: every level played 3 times, its best result counting
numberup campaign --from $RUNS/baseline --policy expectimax --attempts 3 > $R/campaign.txt
numberup campaign --from $RUNS/baseline --policy expectimax --attempts 3 --json > $R/campaign.json

# 7. the medal-odds table of the main README (markdown, from summary.csv and best.csv): every
#    player of summary.csv, what `best` plays at the default budget (the default player), and
#    the strongest setting measured at any cost
python - <<'PY'
import pandas as pd
from numberup.game.levels import LEVELS
from numberup.players import best as B
s = pd.read_csv("results/summary.csv")
rows = B.read_table(open("results/best.csv").read(), "results/best.csv")
players = ["random", "greedy", "expectimax", "learned", "rollout:n=200"]
cols = [f"{p}: mean, P(>=B) / P(>=S) / P(G)" for p in players]
cols += ["best (the default; 50 ms a game): setting, s/game, P(G)",
         "strongest measured: setting, s/game, games, P(G)"]
head = "| level | bronze/silver/gold | " + " | ".join(cols) + " |\n|---|---|" + "---|" * len(cols) + "\n"
out = []
for lv in LEVELS:
    cells = []
    for p in players:
        r = s[(s.level == lv.number) & (s.policy == p)]
        if r.empty:
            cells.append("-")
            continue
        r = r.iloc[0]
        cells.append(f"{r['mean']:.1f}, {100 * r.p_bronze:.0f}% / {100 * r.p_silver:.0f}% / "
                     f"{100 * r.p_gold:.1f}%")
    d = B.choose(rows, lv.number, B.DEFAULT_BUDGET)
    top = B.choose(rows, lv.number, float("inf"))
    cells.append(f"`{d['spec']}`, {d['seconds_per_game']:.3f}, {100 * d['p_gold']:.1f}%")
    cells.append(f"`{top['spec']}`, {top['seconds_per_game']:.2f}, {top['games']}, "
                 f"{100 * top['p_gold']:.1f}%")
    out.append(f"| {lv.number} | {'/'.join(map(str, lv.medals))} | " + " | ".join(cells) + " |")
open("results/medal-odds.md", "w").write(head + "\n".join(out) + "\n")
PY

# 7b. chapter 2's crossing bound, a table per count vector (package data, read by the bounds of
#     steps 8 and 8b; rows already in numberup/data/crossing.csv are kept, so this is quick
#     once the table is whole; from scratch every count vector closes: levels 6-8 and 10 in
#     18 s of the solver's deterministic time each, level 9 in 8 minutes)
for lv in 6 7 8 9 10; do
  python results/design.py --bound crossing --level $lv --seconds 60
done

# 8. hindsight: the best game found with the deck order known, on the first 500 decks of
#    every level (86 minutes on two threads beside other runs on 2026-12-08, so about 3 hours
#    here on one), each deal warm-started by best's own game on it (the search alone is kept
#    apart), beside the players on the same decks, best's own games and the strongest measured
#    setting of each level (results/best.csv)
numberup hindsight --level all --games 500 --seed $SEED --jobs 1 --out $RUNS/hindsight \
    --no-progress --json > $RUNS/hindsight.json
python - <<'PY'
import pandas as pd
from numberup.reports.hindsight import gold_plot, level_table
games = pd.concat([pd.read_parquet(f"results/runs/{d}/games.parquet") for d in ("baseline", "rollout", "objective", "objective-rollout", "learned")])
table = level_table(pd.read_csv("results/runs/hindsight/deals.csv"), games,
                    players=["expectimax", "rollout:n=200", "expectimax:objective=gold",
                             "rollout:n=200,objective=gold", "learned"],
                    strongest=pd.read_csv("results/best.csv"))
table.to_csv("results/hindsight.csv", index=False, float_format="%.6g")
gold_plot(table).save("results/hindsight-gold.png")
PY

# 8b. the bounds and the exact optima, on the first 100 decks: the rows-and-columns LP bound on
#     the levels whose cheap bound is loose (39 minutes on two threads), the exact model
#     (CP-SAT, --exact S: S seconds of its deterministic time a deal, one thread, so the same
#     figures on any machine) level by level (about 3.6 hours on one thread beside another
#     run), then the best of all these runs deal by deal
#     (the best legal game any run found, the tightest bound any run proved)
EXACT_LEVELS="1:10 2:10 3:10 4:30 6:10 7:10 8:10 13:10 18:20 20:10"
numberup hindsight --level 12,14-20 --games 100 --seed $SEED --jobs 2 --lp-passes 40 \
    --out $RUNS/hindsight-lp-100 --no-progress --json > $RUNS/hindsight-lp-100.json
for spec in $EXACT_LEVELS; do
  lv=${spec%%:*}; s=${spec##*:}; d=$RUNS/hindsight-exact/level-$(printf %02d "$lv")
  mkdir -p "$d"
  numberup hindsight --level "$lv" --games 100 --seed $SEED --jobs 1 --exact "$s" --out "$d" \
      --log "$d/games.jsonl" --no-progress --json > "$d/summary.json"
done
# level 6 again, started from the first exact run's games, 30 s a deal where still open
d=$RUNS/hindsight-exact/level-06-again; mkdir -p "$d"
numberup hindsight --level 6 --games 100 --seed $SEED --jobs 1 --exact 30 \
    --warm $RUNS/hindsight-exact/level-06/games.jsonl --out "$d" --log "$d/games.jsonl" \
    --no-progress --json > "$d/summary.json"
# levels 6-10: the best layout of each deal's cards, played in the deal's order (--layout S,
# S seconds of CP-SAT's deterministic time a deal; started from the exact runs' games where
# there are some; about 20 minutes a level on 5x5, 100 on level 9, two levels side by side)
for spec in "6 10 level-06-again" "7 10 level-07" "8 10 level-08" "9 20" "10 10"; do
  set -- $spec; d=$RUNS/hindsight-layout/level-$(printf %02d "$1"); mkdir -p "$d"
  warm=(); [ -n "${3:-}" ] && warm=(--warm "$RUNS/hindsight-exact/$3/games.jsonl")
  numberup hindsight --level "$1" --games 100 --seed $SEED --jobs 1 --layout "$2" "${warm[@]}" \
      --out "$d" --log "$d/games.jsonl" --no-progress --json > "$d/summary.json"
done
python results/hindsight_best.py --games 100 --out $R/hindsight-bounds.csv $RUNS/hindsight \
    $RUNS/hindsight-lp-100 $RUNS/hindsight-exact/level-* $RUNS/hindsight-layout/level-*
