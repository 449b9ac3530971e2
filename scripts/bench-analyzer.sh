#!/bin/sh
# Analyzer benchmarks (README "Benchmarks"):
#  (a) parse + count throughput in lines/s and the share of statements parsed on the
#      Fortran 77 sources of the Debian source packages arpack and minpack;
#  (b) run-time overhead of the analyzer's instrumented copy vs gcov --coverage at -O0,
#      for each program in fortran-samples/.
# Usage: scripts/bench-analyzer.sh [corpus|overhead|all]   (default: all)
# Needs: deb-src enabled (done here if missing, needs root), apt-get, gfortran, gcov.
set -eu
cd "$(dirname "$0")/.."
what=${1:-all}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -q -p analyzer --example analyzer-bench
BENCH=$CARGO_TARGET_DIR/release/examples/analyzer-bench
CORPUS=${OPCOST_CORPUS:-/tmp/opcost-f77-corpus}

fetch() {
    if [ -d "$CORPUS/arpack" ] && [ -d "$CORPUS/minpack" ]; then return; fi
    if ! apt-get source --print-uris arpack >/dev/null 2>&1; then
        # Enable deb-src next to the existing deb entries.
        if [ -f /etc/apt/sources.list.d/debian.sources ]; then
            sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
        else
            grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> /etc/apt/sources.list
        fi
        apt-get update -q
    fi
    mkdir -p "$CORPUS"
    for p in arpack minpack; do
        rm -rf "$CORPUS/$p" "$CORPUS/$p.tmp"
        mkdir -p "$CORPUS/$p.tmp"
        (cd "$CORPUS/$p.tmp" && apt-get source -q "$p" >/dev/null)
        mv "$CORPUS/$p.tmp" "$CORPUS/$p"
    done
}

if [ "$what" = corpus ] || [ "$what" = all ]; then
    fetch
    # Fixed-form Fortran 77 only (.f / .F); free-form .f90 files are not Fortran 77.
    find "$CORPUS/arpack" "$CORPUS/minpack" -type f \( -name '*.f' -o -name '*.F' \) | sort > "$CORPUS/files.txt"
    echo "corpus: $(wc -l < "$CORPUS/files.txt") files"
    "$BENCH" corpus "$CORPUS/files.txt"
fi
if [ "$what" = overhead ] || [ "$what" = all ]; then
    "$BENCH" overhead fortran-samples/*.f
fi
