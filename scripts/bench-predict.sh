#!/usr/bin/env bash
# Characterizer and predictor benchmarks (README "Benchmarks"): run on a quiet machine.
#  1. characterize this machine with gfortran -O0 (default settings) and time it;
#  2. characterize it again and compare the two runs parameter by parameter;
#  3. characterize gfortran -O1 and, if installed, flang-new-16 -O0;
#  4. validate the ten samples on every system, all timed in the same rounds (tables 6.1 /
#     7.2, CSV and SVG in results/);
#  5. compare the systems on the ten samples (which system runs each sample faster).
# Usage: scripts/bench-predict.sh          Results go to results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --quiet
bin=target/release/opcost
mkdir -p results
echo "== 1. characterize gfortran -O0 =="
/usr/bin/time -f "characterize wall %e s" $bin characterize --flags "-O0" | tail -n 25
o0=$(ls -t results/*--gfortran-O0.json | head -n 1)
echo "== 2. a second run, compared with the first =="
$bin characterize --flags "-O0" --no-xray --out /tmp/opcost-second-O0.json > /dev/null
$bin compare "$o0" /tmp/opcost-second-O0.json | grep -E "median \|difference\|"
echo "== 3. other systems =="
$bin characterize --flags "-O1" --no-xray > /dev/null
o1=$(ls -t results/*--gfortran-O1.json | head -n 1)
systems=("$o0" "$o1")
if command -v flang-new-16 >/dev/null 2>&1; then
  $bin characterize --compiler flang-new-16 --flags "-O0 -L/usr/lib/llvm-16/lib" --no-xray > /dev/null
  systems+=("$(ls -t results/*--flang-new-16-O0*.json | head -n 1)")
fi
echo "== 4. validation (all systems in the same rounds) =="
args=()
for s in "${systems[@]}"; do args+=(--machine "$s"); done
$bin validate "${args[@]}"
echo "== 5. comparison =="
$bin compare "${systems[@]}" --programs fortran-samples/*.f --plot results/compare
