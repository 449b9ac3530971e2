#!/usr/bin/env bash
# The main job, end to end: install what is missing, build opcost, characterize this machine
# (gfortran -O0), then predict and validate the ten sample programs against real runs.
# Results land in results/, or in the folder OPCOST_RESULTS names (made if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --quiet
bin=target/release/opcost
results="${OPCOST_RESULTS:-results}"
$bin characterize --results-dir "$results" "$@"
machine=$(ls -t "$results"/*--gfortran-O0.json | head -n 1)
echo "== predictions and validation against real runs, with $machine =="
$bin validate --machine "$machine" --results-dir "$results"
