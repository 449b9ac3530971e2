#!/usr/bin/env bash
# The accuracy benchmark: characterize this machine afresh, fetch and build the real set, then
# validate every set of the corpus (tune, check, holdout, real) several times and print one table —
# set, n, failed, within 5/10/15/20 %, mean |error|, RMS — each figure the median over the
# validations; written as JSON too.
#
#   scripts/bench-corpus.sh                     # gfortran -O0, 3 validations
#   VALIDATIONS=1 RUNS=3 scripts/bench-corpus.sh
#   MACHINE=results/x.json scripts/bench-corpus.sh    # reuse a characterization
#   OUT=/tmp/bench FLAGS=-O2 scripts/bench-corpus.sh
#   COMPILER=flang-new-16 FLAGS=-O2 scripts/bench-corpus.sh  # another compiler
#   SETS="tune check holdout" scripts/bench-corpus.sh  # skip the real set (no apt-get source)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
OUT="${OUT:-target/bench-corpus}"
FLAGS="${FLAGS:--O0}"
COMPILER="${COMPILER:-}"
VALIDATIONS="${VALIDATIONS:-3}"
RUNS="${RUNS:-3}"
SETS="${SETS:-tune check holdout real}"
mkdir -p "$OUT"
scripts/install-deps.sh
cargo build --release --quiet
bin="$repo/target/release/opcost"

machine="${MACHINE:-}"
if [ -z "$machine" ]; then
  machine="$OUT/machine$(echo "$FLAGS" | tr -c 'A-Za-z0-9' '_' | sed 's/_*$//').json"
  echo "== characterizing this machine (${COMPILER:-gfortran} $FLAGS) into $machine ==" >&2
  compiler_args=()
  [ -n "$COMPILER" ] && compiler_args=(--compiler "$COMPILER")
  "$bin" characterize "${compiler_args[@]}" --flags "$FLAGS" --out "$machine" \
    --cache-dir "$OUT/cache"
fi

manifests=(--manifest corpus/manifest.toml)
if [[ " $SETS " == *" real "* ]]; then
  echo "== fetching and building the real set ==" >&2
  # validate analyzes every program itself: the fetch script's own analyzer check is skipped.
  if scripts/fetch-real.sh --no-analyze; then
    manifests+=(--manifest target/corpus-real/manifest.toml)
  else
    echo "warning: the real set could not be built; it is left out" >&2
  fi
fi
set_args=()
for s in $SETS; do set_args+=(--set "$s"); done

jsons=()
for i in $(seq 1 "$VALIDATIONS"); do
  echo "== validation $i of $VALIDATIONS ==" >&2
  json="$OUT/validation-$i.json"
  rm -f "$json"   # a file left by an earlier run must not pass for this one's
  # A failed program is reported inside the JSON; the exit status only says some failed.
  "$bin" validate --machine "$machine" "${manifests[@]}" "${set_args[@]}" --runs "$RUNS" \
    --no-profile --csv "$OUT/validation-$i.csv" --plot "$OUT/validation-$i.svg" \
    --json "$json" --cache-dir "$OUT/cache" > "$OUT/validation-$i.txt" || true
  [ -s "$json" ] || { echo "validation $i wrote no results (see $OUT/validation-$i.txt)" >&2; exit 1; }
  jsons+=("$json")
done
"$bin" validate --combine "${jsons[@]}" --json "$OUT/accuracy.json"
echo "wrote $OUT/accuracy.json (per validation: $OUT/validation-N.{txt,csv,json,svg})" >&2
