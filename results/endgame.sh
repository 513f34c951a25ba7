#!/usr/bin/env bash
# The exact endgame's paired gains (results/endgame.md): `bash results/endgame.sh` from the
# repository root (about an hour on a busy 2-core machine). Each step is one numberup command.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=2026
OUT=results/runs
mkdir -p "$OUT"
LEVELS=8,14,16,17,18,19,20,3,13

# 1. expectimax with the exact endgame over its last 2, 3 and 4 cells, on the same 600 decks
numberup compare --level $LEVELS -p expectimax -p expectimax:endgame=2 -p expectimax:endgame=3 \
    -p expectimax:endgame=4 --games 600 --seed $SEED --no-progress --json > $OUT/endgame.json

# 2. the same when playing for gold (level 13 without endgame=4: 0.7 s a game)
numberup compare --level 8,14,16,17,18,19,20,3 -p expectimax:objective=gold \
    -p expectimax:objective=gold,endgame=3 -p expectimax:objective=gold,endgame=4 --games 600 \
    --seed $SEED --no-progress --json > $OUT/endgame-gold.json
numberup compare --level 13 -p expectimax:objective=gold -p expectimax:objective=gold,endgame=3 \
    --games 600 --seed $SEED --no-progress --json > $OUT/endgame-gold-13.json

# 3. rollouts (greedy base) with the exact endgame, on 200 decks of hard levels
numberup compare --level 16,18,19,20 -p rollout:n=200 -p rollout:n=200,endgame=3 \
    -p rollout:n=200,endgame=4 --games 200 --seed $SEED --no-progress --json \
    > $OUT/endgame-rollout.json
