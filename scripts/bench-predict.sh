#!/usr/bin/env bash
# Characterizer and predictor benchmarks (docs/benchmarks.md): run on a quiet machine.
#  1. characterize this machine with gfortran -O0 (default settings) and time it;
#  2. characterize it again and compare the two runs parameter by parameter;
#  3. characterize the systems whose results are committed (gfortran -O0, -O1 and, if
#     installed, flang-new-16 -O0) with OPCOST_ROUNDS processes per test (default 5: the
#     host's speed wanders in phases of a fraction of a second to minutes, and more
#     processes sample more of them);
#  4. validate the ten samples on every system, all timed in the same rounds, OPCOST_RUNS
#     runs each (default 9; tables 6.1 / 7.2, CSV and SVG in results/);
#  5. compare the systems on the ten samples (which system runs each sample faster);
#  6. with OPCOST_HISTORY=DIR (an archive of old validation CSVs, kept out of the tree, one
#     folder per host), score the new -O0 file against the real runs kept in its newest folder
#     (validate --against: nothing is run; the spread over the sets is the host's share).
# Usage: scripts/bench-predict.sh          Results go to results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --quiet
bin=target/release/opcost
rounds="${OPCOST_ROUNDS:-5}"
runs="${OPCOST_RUNS:-9}"
mkdir -p results
echo "== 1. characterize gfortran -O0 (default settings) =="
/usr/bin/time -f "characterize wall %e s" $bin characterize --flags "-O0" --out /tmp/opcost-first-O0.json | tail -n 25
echo "== 2. a second run, compared with the first =="
$bin characterize --flags "-O0" --no-xray --out /tmp/opcost-second-O0.json > /dev/null
$bin compare /tmp/opcost-first-O0.json /tmp/opcost-second-O0.json | grep -E "median \|difference\|"
echo "== 3. the committed systems, $rounds processes per test =="
$bin characterize --flags "-O0" --rounds "$rounds" > /dev/null
o0=$(ls -t results/*--gfortran-O0.json | head -n 1)
$bin characterize --flags "-O1" --rounds "$rounds" --no-xray > /dev/null
o1=$(ls -t results/*--gfortran-O1.json | head -n 1)
systems=("$o0" "$o1")
if command -v flang-new-16 >/dev/null 2>&1; then
  $bin characterize --compiler flang-new-16 --flags "-O0 -L/usr/lib/llvm-16/lib" --rounds "$rounds" --no-xray > /dev/null
  systems+=("$(ls -t results/*--flang-new-16-O0*.json | head -n 1)")
fi
echo "== 4. validation (all systems in the same rounds, $runs runs each) =="
args=()
for s in "${systems[@]}"; do args+=(--machine "$s"); done
$bin validate --runs "$runs" "${args[@]}"
echo "== 5. comparison =="
$bin compare "${systems[@]}" --programs fortran-samples/*.f --plot results/compare --json results/compare/compare.json
# Only -O0 runs: the new file is an -O0 characterization.
# A folder of the archive holds one host's runs; the newest is this host's.
latest=""
if [ -n "${OPCOST_HISTORY:-}" ]; then
  latest=$(ls -d "${OPCOST_HISTORY%/}"/*/ 2>/dev/null | sort | tail -n 1)
fi
if [ -n "$latest" ] && compgen -G "${latest}gfortran-O0-*.csv" > /dev/null; then
  echo "== 6. the new -O0 file against the real runs in $latest =="
  against=()
  for f in "${latest}"gfortran-O0-*.csv; do against+=(--against "$f"); done
  $bin validate --machine "$o0" "${against[@]}"
fi
