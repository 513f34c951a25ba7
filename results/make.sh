#!/usr/bin/env bash
# Regenerates every file in results/ with fixed seeds: `bash results/make.sh` from the
# repository root (about 40 minutes on a 2-core machine). Each step is one numberup command.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=2026
R=results
RUNS=$R/runs
mkdir -p "$RUNS"

# 1. random, greedy and expectimax on the same 2,000 decks of every level
numberup compare --level all -p random -p greedy -p expectimax --games 2000 --seed $SEED \
    --out $RUNS/baseline --no-progress --json > $RUNS/baseline.json

# 2. rollout (the strongest and slowest player) on the first 1,000 of those decks, paired
#    with greedy on the same decks
numberup compare --level all -p greedy -p rollout:n=200 --games 1000 --seed $SEED \
    --out $RUNS/rollout --no-progress --json > $RUNS/rollout.json

# 3. playing for gold instead of for the mean
numberup compare --level 8,14,15 -p expectimax -p expectimax:objective=gold --games 2000 \
    --seed $SEED --out $RUNS/objective --no-progress --json > $RUNS/objective.json
