#!/bin/sh
# Analyzer benchmarks (docs/benchmarks.md):
#  (a) parse + count throughput in lines/s and the share of statements parsed on the
#      Fortran 77 sources of the Debian source packages arpack and minpack (and lapack, a
#      larger corpus; a package whose source the mirror does not serve is reported and
#      left out);
#  (b) run-time overhead of the analyzer's instrumented copy vs gcov --coverage at -O0,
#      for each program in fortran-samples/;
#  (c) the same as instructions executed (valgrind), free of noise and code placement.
# Usage: scripts/bench-analyzer.sh [corpus|overhead|instructions|all]   (default: all)
# Needs: deb-src enabled (done here if missing, needs root), apt-get, gfortran, gcov,
# valgrind (installed here if missing, needs root).
set -eu
cd "$(dirname "$0")/.."
what=${1:-all}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -q -p analyzer --example analyzer-bench
BENCH=$CARGO_TARGET_DIR/release/examples/analyzer-bench
CORPUS=${OPCOST_CORPUS:-/tmp/opcost-f77-corpus}

PACKAGES="arpack minpack lapack"

fetch() {
    if ! apt-get source --print-uris minpack >/dev/null 2>&1; then
        # Enable deb-src next to the existing deb entries.
        if [ -f /etc/apt/sources.list.d/debian.sources ]; then
            sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
        else
            grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> /etc/apt/sources.list
        fi
        apt-get update -q
    fi
    mkdir -p "$CORPUS"
    for p in $PACKAGES; do
        [ -d "$CORPUS/$p" ] && continue
        rm -rf "$CORPUS/$p.tmp"
        mkdir -p "$CORPUS/$p.tmp"
        if (cd "$CORPUS/$p.tmp" && apt-get source -q "$p" >/dev/null 2>&1); then
            mv "$CORPUS/$p.tmp" "$CORPUS/$p"
        else
            echo "warning: apt-get source $p failed (the mirror does not serve it); left out" >&2
            rm -rf "$CORPUS/$p.tmp"
        fi
    done
}

if [ "$what" = corpus ] || [ "$what" = all ]; then
    fetch
    for p in $PACKAGES all; do
        if [ "$p" = all ]; then
            rm -f "$CORPUS/files-all.txt"
            for q in $PACKAGES; do
                [ -f "$CORPUS/files-$q.txt" ] && cat "$CORPUS/files-$q.txt"
            done > "$CORPUS/files-all.txt.tmp"
            mv "$CORPUS/files-all.txt.tmp" "$CORPUS/files-all.txt"
        else
            [ -d "$CORPUS/$p" ] || continue
            # Fixed-form sources only (.f, .F); free-form .f90 is not Fortran 77.
            find "$CORPUS/$p" -type f \( -name '*.f' -o -name '*.F' \) | sort > "$CORPUS/files-$p.txt"
        fi
        echo "== $p"
        "$BENCH" corpus "$CORPUS/files-$p.txt"
    done
fi
if [ "$what" = overhead ] || [ "$what" = all ]; then
    "$BENCH" overhead fortran-samples/*.f
fi
if [ "$what" = instructions ] || [ "$what" = all ]; then
    command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null
    "$BENCH" instructions fortran-samples/*.f
fi
