#!/usr/bin/env bash
# Makes the learned-evaluation models shipped in numberup/learned/models/ (one per level): `bash
# results/train.sh` from the repository root. Seed 7 (training decks), never the evaluation
# seed 2026 of results/make.sh. The same seed gives the same model bytes whatever --jobs.
# Its output, with each level's training time, is kept in results/train.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
numberup train --level all --seed 7 --jobs 2 --no-progress | tee results/train.txt
