#!/bin/sh
# Whole-file mutation fuzzing of the analyzer (docs/benchmarks.md, docs/reliability.md):
# INPUTS mutants (default 20000) of the .f files of corpus/tune, corpus/check, fortran-samples
# and analyzer/tests/fixtures, seed SEED (default 1), LIMIT seconds per input (default 5)
# before it counts as a hang. Prints "ran N inputs: P panics, H hangs, M with reported errors"
# and exits 1 on any panic or hang. Reproduce input I: add "--show I" to the example's
# arguments (it prints that mutant).
# Usage: INPUTS=20000 SEED=1 scripts/bench-fuzz.sh
set -eu
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -q -p analyzer --example mutation-fuzz
exec "$CARGO_TARGET_DIR/release/examples/mutation-fuzz" \
    --inputs "${INPUTS:-20000}" --seed "${SEED:-1}" --limit "${LIMIT:-5}"
