#!/usr/bin/env bash
# Fetch and build the "real" set of the validation corpus (corpus/README.md): third-party
# Fortran 77 programs from Debian source packages, built into target/corpus-real/ at benchmark
# time and never committed.
#
#   scripts/fetch-real.sh                # fetch (once), build, check, analyze (cached)
#   scripts/fetch-real.sh --no-analyze   # skip the opcost analyzer check
#   scripts/fetch-real.sh --force        # rebuild every program file and re-analyze
#
# Environment: FC (default gfortran), OPCOST (the opcost binary for the analyzer check; default
# target/release/opcost), ANALYZE_LIMIT (seconds, default 300).
#
# What it does:
#  1. a private apt configuration under target/corpus-real/apt/ (deb-src entries mirroring the
#     machine's Debian entries, its own lists and cache) so that `apt-get source` works without
#     touching the system's apt state; installs gfortran and dpkg-dev when missing (the only step
#     that needs root or sudo);
#  2. fetches the source packages into target/corpus-real/src/ (skipped when already there):
#       lapack  (Debian's reference BLAS/LAPACK 3.11.0, patched as Debian ships it): the level 2
#               and 3 BLAS test drivers with the reference BLAS;
#       jlapack (upstream tarball only: LAPACK 3.1.1 in Fortran 77, the source that jlapack
#               translates to Java): the LAPACK test and timing programs with their input files;
#  3. assembles each program into ONE fixed-form file target/corpus-real/<name>.f: the driver's
#     main program and exactly the program units it reaches (units split at their END lines,
#     dependencies found from the identifiers of each unit's code, the first definition in the
#     file order winning); no line of any unit is changed;
#  4. writes target/corpus-real/manifest.toml (atomically) with the programs that passed 5.;
#  5. checks each program: compiles with `$FC -O0` plus its flags, runs it under `timeout 60`,
#     needs exit 0 and its expected output; prints a summary; exits 1 when fewer than 10 are ready.
#  The analyzer check (`opcost analyze --dynamic`) is cached per program file, input, flags and
#  opcost binary; its failures go to target/corpus-real/analyze-failures.txt.
#
# Inputs are the packages' own input files; where a run would be too short or machine-timed,
# only values in the input file are changed (documented per program in the manifest).
set -euo pipefail

ANALYZE=1
FORCE=0
for a in "$@"; do
  case $a in
    --no-analyze) ANALYZE=0 ;;
    --force) FORCE=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $a (see --help)" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/target/corpus-real"
SRC="$OUT/src"
APTD="$OUT/apt"
WORK="$OUT/.work"
FC="${FC:-gfortran}"
ANALYZE_LIMIT="${ANALYZE_LIMIT:-300}"
MIN_READY=10
mkdir -p "$OUT" "$SRC" "$WORK"

log() { echo "fetch-real: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---------------------------------------------------------------------------------------------
# 1. tools and apt
# ---------------------------------------------------------------------------------------------
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
sys_updated=0
install_pkgs() {
  [ $# -gt 0 ] || return 0
  log "installing $* (system apt)"
  if [ $sys_updated -eq 0 ]; then $SUDO apt-get update -qq; sys_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" > /dev/null
}
need=()
command -v "$FC" > /dev/null 2>&1 || need+=(gfortran)
command -v dpkg-source > /dev/null 2>&1 || need+=(dpkg-dev)
command -v apt-get > /dev/null 2>&1 || die "apt-get is missing: this script needs a Debian-based machine"
command -v timeout > /dev/null 2>&1 || need+=(coreutils)
install_pkgs "${need[@]+"${need[@]}"}"

# The machine's Debian archive entries, as deb-src lines: "URI SUITE COMPONENTS [SIGNED-BY]".
system_debian_entries() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # one-line format: deb [opts] uri suite comps...
    awk '$1 == "deb" {
        sb = ""; i = 2
        if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) { if ($i ~ /signed-by=/) sb = $i; i++ }
                          if ($i ~ /signed-by=/) sb = $i; i++ }
        sub(/^\[?signed-by=/, "", sb); sub(/\]$/, "", sb)
        uri = $i; suite = $(i + 1); comps = ""
        for (j = i + 2; j <= NF && $j !~ /^#/; j++) comps = comps " " $j
        print uri, suite, comps, (sb == "" ? "-" : sb) }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 format: stanzas of Types/URIs/Suites/Components/Signed-By/Enabled
    awk 'function emit(   i, j, nu, ns, u, s) {
           if (types ~ /(^| )deb( |$)/ && enabled != "no") {
             nu = split(uris, u, " "); ns = split(suites, s, " ")
             for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++)
               print u[i], s[j], comps, (sb == "" ? "-" : sb) }
           types = uris = suites = comps = sb = enabled = "" }
         /^[ \t]*#/ { next }
         /^[ \t]*$/ { emit(); next }
         { k = tolower($1); v = $0; sub(/^[^:]*:[ \t]*/, "", v)
           if (k == "types:") types = v; else if (k == "uris:") uris = v
           else if (k == "suites:") suites = v; else if (k == "components:") comps = v
           else if (k == "signed-by:") sb = v; else if (k == "enabled:") enabled = tolower(v) }
         END { emit() }' "$f"
  done
}

write_private_sources() {
  local tmp="$APTD/sources.list.tmp" codename=""
  mkdir -p "$APTD/lists/partial" "$APTD/cache/archives/partial" "$APTD/parts"
  system_debian_entries | awk '$1 ~ /debian/ && $2 !~ /backports/' | sort -u |
    while read -r uri suite comps; do
      sb="${comps##* }"; comps="${comps% *}"
      if [ "$sb" != "-" ] && [ -f "$sb" ]; then opt="[signed-by=$sb] "; else opt=""; fi
      echo "deb-src ${opt}${uri} ${suite} ${comps}"
    done > "$tmp"
  if [ ! -s "$tmp" ]; then
    # no Debian entry found: the release's main archive
    codename="$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") 2> /dev/null || true)"
    [ -n "$codename" ] || die "cannot tell the Debian release (no Debian entry in /etc/apt, no VERSION_CODENAME)"
    echo "deb-src http://deb.debian.org/debian $codename main" > "$tmp"
  fi
  if cmp -s "$tmp" "$APTD/sources.list"; then rm -f "$tmp"; else mv "$tmp" "$APTD/sources.list"; rm -f "$APTD/lists/"*_Sources* 2> /dev/null || true; fi
}

APT_OPTS=()
apt_private() {
  APT_OPTS=(-o "Dir::Etc::SourceList=$APTD/sources.list" -o "Dir::Etc::SourceParts=$APTD/parts"
    -o "Dir::State::Lists=$APTD/lists" -o "Dir::Cache=$APTD/cache"
    -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "APT::Get::Only-Source=true")
  local have_lists=0
  ls "$APTD/lists/"*_Sources* > /dev/null 2>&1 && have_lists=1
  # refresh the source lists when missing or older than a day
  if [ $have_lists -eq 0 ] || [ -n "$(find "$APTD/lists" -maxdepth 1 -name '*_Sources*' -mtime +0 -print -quit)" ]; then
    log "apt-get update (private deb-src configuration in ${APTD#"$ROOT"/})"
    apt-get "${APT_OPTS[@]}" update -qq 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true
    ls "$APTD/lists/"*_Sources* > /dev/null 2>&1 || die "apt-get update found no source lists (see $APTD/sources.list)"
  fi
}

# ---------------------------------------------------------------------------------------------
# 2. source packages
# ---------------------------------------------------------------------------------------------
# fetch PKG MODE: MODE "full" = apt-get source (Debian's patches applied by dpkg-source);
# MODE "tar" = the upstream tarball only (apt checks it against the signed Sources index).
# Sets FETCHED to the extracted directory; skips the download when the stamp says it is there.
declare -A PKG_VERSION=()
FETCHED=""
fetch() {
  local pkg=$1 mode=$2 stamp="$SRC/.$1.fetched" dir ver tarball
  if [ -f "$stamp" ] && [ -d "$SRC/$(sed -n 1p "$stamp")" ]; then
    PKG_VERSION[$pkg]="$(sed -n 2p "$stamp")"
    FETCHED="$SRC/$(sed -n 1p "$stamp")"
    return 0
  fi
  if [ ${#APT_OPTS[@]} -eq 0 ]; then write_private_sources; apt_private; fi
  # the version apt chooses (the newest in the lists), from the name of its .dsc
  ver="$(apt-get "${APT_OPTS[@]}" --print-uris source "$pkg" 2> /dev/null |
    awk -v p="$pkg" '$2 ~ /\.dsc$/ { f = $2; sub("^" p "_", "", f); sub(/\.dsc$/, "", f); print f; exit }')"
  [ -n "$ver" ] || die "source package $pkg not found in the lists of $APTD/sources.list"
  local tmpd
  tmpd="$(mktemp -d "$SRC/.fetch-$pkg.XXXXXX")"
  dir=""
  if [ "$mode" = full ]; then
    log "fetching $pkg $ver (apt-get source)"
    (cd "$tmpd" && apt-get "${APT_OPTS[@]}" source -qq "$pkg" 2>&1 |
      grep -v '^W: Download is performed unsandboxed\|^gpgv:\|^dpkg-source: warning: cannot verify\|^dpkg-source: info' >&2) || true
    dir="$(find "$tmpd" -mindepth 1 -maxdepth 1 -type d | head -1)"
    if [ -z "$dir" ]; then
      log "apt-get source $pkg failed: falling back to the upstream tarball (without Debian's patches)"
      rm -rf "${tmpd:?}"/*
      mode=tar
    fi
  fi
  if [ "$mode" = tar ]; then
    log "fetching $pkg $ver (upstream tarball: apt-get source --tar-only)"
    (cd "$tmpd" && apt-get "${APT_OPTS[@]}" source -qq --tar-only "$pkg" 2>&1 |
      grep -v '^W: Download is performed unsandboxed' >&2) || true
    tarball="$(find "$tmpd" -maxdepth 1 -name "${pkg}_*.orig.tar.*" | head -1)"
    [ -n "$tarball" ] || { rm -rf "$tmpd"; die "apt-get source --tar-only $pkg failed"; }
    mkdir "$tmpd/x"
    tar -xf "$tarball" -C "$tmpd/x"
    dir="$(find "$tmpd/x" -mindepth 1 -maxdepth 1 -type d | head -1)"
    [ -n "$dir" ] || { rm -rf "$tmpd"; die "unexpected layout of $tarball"; }
  fi
  rm -rf "${SRC:?}/$(basename "$dir")"
  mv "$dir" "$SRC/"
  rm -rf "$tmpd"
  printf '%s\n%s\n' "$(basename "$dir")" "$ver" > "$stamp"
  PKG_VERSION[$pkg]="$ver"
  FETCHED="$SRC/$(basename "$dir")"
}

fetch lapack full
LAPACK="$FETCHED"
fetch jlapack tar
JL_TOP="$FETCHED"
JL="$(find "$JL_TOP" -maxdepth 2 -type d -name 'jlapack-3*' | head -1)/src"
[ -d "$JL/testing/lin" ] || die "unexpected layout of the jlapack tarball ($JL_TOP)"
[ -d "$LAPACK/BLAS/TESTING" ] || die "unexpected layout of the lapack source ($LAPACK)"

# ---------------------------------------------------------------------------------------------
# 3. assembling one program file from program units
# ---------------------------------------------------------------------------------------------
# split.awk: split fixed-form files into program units; metadata on stdout:
#   U <id> <kind> <file> <names...>   and   T <id> <identifier>  (identifiers of the unit's code,
#   strings, comments and columns 1-6 left out)
SPLIT_AWK='
function stmt(line,   s, i, c, out, q) {
  if (substr(line, 1, 1) == "\t") s = substr(line, 2); else s = substr(line, 7, 66)
  out = ""; q = 0
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "'"'"'") { q = !q; out = out " "; continue }
    if (c == "!" && !q) break
    out = out (q ? " " : c)
  }
  return toupper(out)
}
function iscomment(line,   c) {
  c = substr(line, 1, 1)
  if (c == "c" || c == "C" || c == "*" || c == "!" || c == "#") return 1
  return line ~ /^[ \t]*$/
}
function reset() { buf = ""; started = 0; kind = ""; names = ""; split("", toks) }
function flush(   k, f) {
  if (!started) return
  id++
  f = D "/" id ".f"
  printf "%s", buf > f; close(f)
  printf "U %d %s %s %s\n", id, kind, FILENAME, names
  for (k in toks) printf "T %d %s\n", id, k
  reset()
}
function header(s,   t, m, t2) {
  t = s; gsub(/[ \t]+/, " ", t); sub(/^ /, "", t)
  if (t ~ /^PROGRAM /) { kind = "PROGRAM"; split(t, m, /[ (]/); names = m[2]; return }
  if (t ~ /^BLOCK ?DATA/) { kind = "BLOCKDATA"; t2 = t; sub(/^BLOCK ?DATA ?/, "", t2); split(t2, m, /[ (]/); names = m[1]; return }
  if (match(t, /^(RECURSIVE )?((INTEGER|REAL|LOGICAL|COMPLEX|CHARACTER|DOUBLE ?PRECISION|DOUBLE ?COMPLEX)(\*[0-9]+|\*\([^)]*\))? )?(RECURSIVE )?(SUBROUTINE|FUNCTION) ?[A-Z][A-Z0-9_$]*/)) {
    t = substr(t, RSTART, RLENGTH)
    kind = (t ~ /SUBROUTINE/) ? "SUBROUTINE" : "FUNCTION"
    sub(/.*(SUBROUTINE|FUNCTION) ?/, "", t); names = t; return
  }
  kind = "MAIN"; names = ""
}
FNR == 1 { if (NR > 1) flush(); reset() }
{
  line = $0; sub(/\r$/, "", line)
  buf = buf line "\n"
  if (iscomment(line)) next
  s = stmt(line)
  cont = (substr(line, 1, 1) != "\t" && length(line) >= 6 && substr(line, 6, 1) != " " && substr(line, 6, 1) != "0")
  t = s; gsub(/[ \t]/, "", t)
  if (!started) { started = 1; header(s) }
  else if (!cont && t ~ /^ENTRY[A-Z]/) { e = s; sub(/^[ \t]*ENTRY[ \t]*/, "", e); split(e, m, /[ (]/); names = names " " m[1] }
  n = split(s, w, /[^A-Z0-9_$]+/)
  for (i = 1; i <= n; i++) if (w[i] ~ /^[A-Z]/) toks[w[i]] = 1
  if (!cont && (t == "END" || t ~ /^END(SUBROUTINE|FUNCTION|PROGRAM|BLOCKDATA)/)) flush()
}
END { flush() }'
# closure.awk: the units the main program reaches (first definition of a name wins), in order.
CLOSURE_AWK='
$1 == "U" { id = $2; kind[id] = $3; nid = id
  if (firstfile == "") firstfile = $4
  for (i = 5; i <= NF; i++) if (!($i in def)) def[$i] = id
  if (root == "" && (kind[id] == "MAIN" || kind[id] == "PROGRAM")) root = id
  if (kind[id] == "BLOCKDATA" && $4 == firstfile) bd[id] = 1
  next }
$1 == "T" { tok[$2] = tok[$2] " " $3 }
END {
  if (root == "") { print "no main program found" > "/dev/stderr"; exit 1 }
  need[root] = 1; q[++qn] = root
  for (b in bd) if (!(b in need)) { need[b] = 1; q[++qn] = b }
  for (h = 1; h <= qn; h++) {
    n = split(tok[q[h]], w, " ")
    for (i = 1; i <= n; i++) if (w[i] in def) { v = def[w[i]]; if (!(v in need)) { need[v] = 1; q[++qn] = v } }
  }
  for (i = 1; i <= nid; i++) if (i in need) print i
}'

# assemble OUT.f FILE... : the first file holds the main program; later files are libraries in
# priority order. Prints "<units used> of <units>".
assemble() {
  local out=$1 d
  shift
  d="$(mktemp -d "$WORK/units.XXXXXX")"
  awk -v D="$d" "$SPLIT_AWK" "$@" > "$d/meta"
  awk "$CLOSURE_AWK" "$d/meta" > "$d/ids"
  while read -r i; do cat "$d/$i.f"; done < "$d/ids" > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "$(wc -l < "$d/ids") of $(grep -c '^U' "$d/meta")"
  rm -rf "$d"
}

# BLAS test input: the package's file with the lists of N (and for level 2 of K) replaced.
blat_input() { # SRC.in "N VALUES" "K VALUES or empty"
  awk -v ns="$2" -v ks="$3" '
    function cnt(s,  a) { return split(s, a, " ") }
    /NUMBER OF VALUES OF N/ { printf "%-17s NUMBER OF VALUES OF N\n", cnt(ns); next }
    /VALUES OF N/ { printf "%-17s VALUES OF N\n", ns; next }
    ks != "" && /NUMBER OF VALUES OF K/ { printf "%-17s NUMBER OF VALUES OF K\n", cnt(ks); next }
    ks != "" && /VALUES OF K/ { printf "%-17s VALUES OF K\n", ks; next }
    { print }' "$1"
}
# LAPACK timing input: the package's file with the minimum time per measurement set to 0, so
# that every operation is timed exactly once (the work no longer depends on the machine's speed).
timmin0_input() { sed -E 's/^[0-9.]+([[:space:]]+Minimum time in seconds)/0.0\1/' "$1"; }

# ---------------------------------------------------------------------------------------------
# the programs
# ---------------------------------------------------------------------------------------------
# A source: SRCNAME -> files (first holds the main program). Several programs may share one.
declare -A SOURCE_FILES=() SOURCE_PKG=()
declare -a PROGRAMS=()
declare -A P_SOURCE=() P_INPUT=() P_CHECKFILE=() P_CHECK=() P_DESC=() P_NOTE=()

LI="$LAPACK/INSTALL"
for p in s d c z; do
  for l in 2 3; do
    SOURCE_FILES[${p}blat$l]="$LAPACK/BLAS/TESTING/${p}blat$l.f $LAPACK/BLAS/SRC/*.f"
    SOURCE_PKG[${p}blat$l]=lapack
  done
done
# jlapack's LAPACK 3.1.1: its DSECND/SECOND call ETIME as an EXTERNAL, which gfortran's runtime
# does not provide; the reference LAPACK's CPU_TIME versions (INSTALL/, same interface) come first.
JTIMERS="$LI/dsecnd_INT_CPU_TIME.f $LI/second_INT_CPU_TIME.f"
SOURCE_FILES[lapack-lin-d]="$JL/testing/lin/lintest.f $JL/testing/lin/xerbla.f $JTIMERS $JL/testing/matgen/matgen.f $JL/lapack/lapack.f $JL/blas/blas.f"
SOURCE_FILES[lapack-lin-s]="$JL/testing/slin/slintest.f $JL/testing/slin/xerbla.f $JTIMERS $JL/testing/smatgen/smatgen.f $JL/lapack/lapack.f $JL/blas/blas.f"
SOURCE_FILES[lapack-eig-d]="$JL/testing/eig/eigtest.f $JL/testing/eig/xerbla.f $JTIMERS $JL/testing/matgen/matgen.f $JL/lapack/lapack.f $JL/blas/blas.f"
SOURCE_FILES[lapack-eig-s]="$JL/testing/seig/seigtest.f $JL/testing/seig/xerbla.f $JTIMERS $JL/testing/smatgen/smatgen.f $JL/lapack/lapack.f $JL/blas/blas.f"
# The timing programs' own lsamen.f is jlapack's Java variant (it assigns to its argument N);
# LAPACK's LSAMEN of lapack.f is used instead (the timing directory's file is not listed).
SOURCE_FILES[lapack-time-lin-d]="$JL/timing/lin/lintime.f $JL/timing/lin/linsrc/linsrc.f $JTIMERS $JL/testing/matgen/matgen.f $JL/lapack/lapack.f $JL/blas/blas.f $JL/error_reporting/err.f"
SOURCE_FILES[lapack-time-lin-s]="$JL/timing/slin/slintime.f $JL/timing/slin/linsrc/slinsrc.f $JTIMERS $JL/testing/smatgen/smatgen.f $JL/lapack/lapack.f $JL/blas/blas.f $JL/error_reporting/err.f"
for s in lapack-lin-d lapack-lin-s lapack-eig-d lapack-eig-s lapack-time-lin-d lapack-time-lin-s; do
  SOURCE_PKG[$s]=jlapack
done

# program NAME SOURCE "DESCRIPTION" CHECK-FILE CHECK-REGEX "NOTE" INPUT-COMMAND...
# (CHECK-FILE "-" = standard output; otherwise a file the program writes in its directory;
# INPUT-COMMAND prints the program's standard input)
program() {
  PROGRAMS+=("$1"); P_SOURCE[$1]=$2; P_DESC[$1]=$3; P_CHECKFILE[$1]=$4; P_CHECK[$1]=$5; P_NOTE[$1]=$6
  local n=$1
  shift 6
  P_INPUT[$n]="$(printf '%q ' "$@")"
}
NS="0 1 2 3 5 9 17 33 65"
KS="0 1 2 4 8 16 32"
for p in s d c z; do
  case $p in s) t=REAL ;; d) t="DOUBLE PRECISION" ;; c) t=COMPLEX ;; z) t=COMPLEX*16 ;; esac
  program ${p}blat2 ${p}blat2 "test of the $t level 2 BLAS (reference BLAS)" "${p}blat2.out" "END OF TESTS" \
    "input: the package's ${p}blat2.in with N = $NS and K = $KS (package: N = 0 1 2 3 5 9, K = 0 1 2 4); the summary goes to the file ${p}blat2.out in the run directory" \
    blat_input "$LAPACK/BLAS/TESTING/${p}blat2.in" "$NS" "$KS"
  program ${p}blat3 ${p}blat3 "test of the $t level 3 BLAS (reference BLAS)" "${p}blat3.out" "END OF TESTS" \
    "input: the package's ${p}blat3.in with N = $NS (package: N = 0 1 2 3 5 9); the summary goes to the file ${p}blat3.out in the run directory" \
    blat_input "$LAPACK/BLAS/TESTING/${p}blat3.in" "$NS" ""
done
program lapack-lin-d lapack-lin-d "LAPACK 3.1.1 test of the DOUBLE PRECISION linear equation routines and drivers" \
  - "End of tests" "input: the package's dtest.in" cat "$JL/testing/lin/dtest.in"
program lapack-lin-s lapack-lin-s "LAPACK 3.1.1 test of the REAL linear equation routines and drivers" \
  - "End of tests" "input: the package's stest.in" cat "$JL/testing/slin/stest.in"
program lapack-eig-d-svd lapack-eig-d "LAPACK 3.1.1 test of the DOUBLE PRECISION singular value decomposition (DBD, DGESVD, DGESDD)" \
  - "End of tests" "input: the package's svd.in" cat "$JL/testing/eig/svd.in"
program lapack-eig-d-sep lapack-eig-d "LAPACK 3.1.1 test of the DOUBLE PRECISION symmetric eigenproblem (DST)" \
  - "End of tests" "input: the package's sep.in" cat "$JL/testing/eig/sep.in"
program lapack-eig-d-dsg lapack-eig-d "LAPACK 3.1.1 test of the DOUBLE PRECISION symmetric generalized eigenproblem (DSG)" \
  - "End of tests" "input: the package's dsg.in" cat "$JL/testing/eig/dsg.in"
program lapack-eig-s-svd lapack-eig-s "LAPACK 3.1.1 test of the REAL singular value decomposition (SBD, SGESVD, SGESDD)" \
  - "End of tests" "input: the package's svd.in" cat "$JL/testing/seig/svd.in"
program lapack-eig-s-sep lapack-eig-s "LAPACK 3.1.1 test of the REAL symmetric eigenproblem (SST)" \
  - "End of tests" "input: the package's sep.in" cat "$JL/testing/seig/sep.in"
program lapack-time-lin-d lapack-time-lin-d "LAPACK 3.1.1 timing of the DOUBLE PRECISION linear equation routines (square matrices)" \
  - "Total time used" "input: the package's dtime.in with the minimum time 0.0 (package: 0.05), so each operation runs once" \
  timmin0_input "$JL/timing/lin/dtime.in"
program lapack-time-lin-s lapack-time-lin-s "LAPACK 3.1.1 timing of the REAL linear equation routines (square matrices)" \
  - "Total time used" "input: the package's stime.in with the minimum time 0.0 (package: 0.05), so each operation runs once" \
  timmin0_input "$JL/timing/slin/stime.in"

# ---------------------------------------------------------------------------------------------
# build: the program files, their inputs and binaries (each only when out of date)
# ---------------------------------------------------------------------------------------------
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
declare -A S_FLAGS=() S_UNITS=() S_EXE=() S_STATUS=()
BUILD="$WORK/build"
mkdir -p "$BUILD" "$WORK/stamps"
for s in $(printf '%s\n' "${!SOURCE_FILES[@]}" | sort); do
  f="$OUT/$s.f"
  # shellcheck disable=SC2086 # the file lists are word lists (with globs)
  files=(${SOURCE_FILES[$s]})
  key="$(printf '%s\n' "${files[@]}" | sha256sum | cut -c1-16)"
  stamp="$WORK/stamps/$s.assembled"
  if [ $FORCE -eq 1 ] || [ ! -s "$f" ] || [ "$(sed -n 1p "$stamp" 2> /dev/null)" != "$key" ]; then
    units="$(assemble "$f" "${files[@]}")"
    printf '%s\n%s\n' "$key" "$units" > "$stamp"
  fi
  S_UNITS[$s]="$(sed -n 2p "$stamp")"
  # the fewest extra flags that compile it
  exe="$BUILD/$s"
  fkey="$(cat "$f" <("$FC" --version 2>&1 | head -1) | sha256sum | cut -c1-16)"
  if [ $FORCE -eq 0 ] && [ -x "$exe" ] && [ "$(sed -n 1p "$exe.stamp" 2> /dev/null)" = "$fkey" ]; then
    S_FLAGS[$s]="$(sed -n 2p "$exe.stamp")"; S_STATUS[$s]=ok
  else
    S_STATUS[$s]=failed; rm -f "$exe" "$exe.stamp"
    for flags in "" "-std=legacy" "-std=legacy -fallow-argument-mismatch"; do
      # shellcheck disable=SC2086
      if "$FC" -O0 $flags -w "$f" -o "$exe" > "$exe.log" 2>&1; then
        S_FLAGS[$s]="$flags"; S_STATUS[$s]=ok
        printf '%s\n%s\n' "$fkey" "$flags" > "$exe.stamp"
        break
      fi
    done
    [ "${S_STATUS[$s]}" = ok ] || log "$s: does not compile: $(grep -m1 -i error "$exe.log" || tail -1 "$exe.log")"
  fi
  S_EXE[$s]="$exe"
  log "$s: ${S_UNITS[$s]} program units (${SOURCE_PKG[$s]} ${PKG_VERSION[${SOURCE_PKG[$s]}]}), flags: ${S_FLAGS[$s]:-none}"
done

# ---------------------------------------------------------------------------------------------
# 5. check: run each program once (one at a time: the machine's cores are shared)
# ---------------------------------------------------------------------------------------------
declare -A P_USER=() P_OK=() P_WHY=()
for n in "${PROGRAMS[@]}"; do
  s="${P_SOURCE[$n]}"
  in="$OUT/$n.in"
  eval "${P_INPUT[$n]}" > "$in.tmp"
  if cmp -s "$in.tmp" "$in"; then rm -f "$in.tmp"; else mv "$in.tmp" "$in"; fi
  P_OK[$n]=failed; P_USER[$n]="-"
  if [ "${S_STATUS[$s]}" != ok ]; then P_WHY[$n]="does not compile"; continue; fi
  rd="$WORK/run/$n"
  rm -rf "$rd"; mkdir -p "$rd"
  set +e
  TIMEFORMAT=%U
  { time (cd "$rd" && timeout 60 "${S_EXE[$s]}" < "$in" > stdout.txt 2> stderr.txt); } 2> "$rd/user.txt"
  rc=$?
  set -e
  P_USER[$n]="$(tail -1 "$rd/user.txt")"
  if [ $rc -ne 0 ]; then
    P_WHY[$n]="exit status $rc: $(head -c 300 "$rd/stderr.txt" | tr '\n' ' ')"
    continue
  fi
  cf="$rd/stdout.txt"
  [ "${P_CHECKFILE[$n]}" = - ] || cf="$rd/${P_CHECKFILE[$n]}"
  if [ ! -f "$cf" ] || ! grep -q "${P_CHECK[$n]}" "$cf"; then
    P_WHY[$n]="no '${P_CHECK[$n]}' in its output"
    continue
  fi
  if grep -qi 'FATAL ERROR\|illegal value\|\*\*\*\*\*\* .*FAIL' "$cf"; then
    P_WHY[$n]="its output reports an error: $(grep -m1 -i 'FATAL ERROR\|illegal value\|FAIL' "$cf")"
    continue
  fi
  P_OK[$n]=ok
  # tests over the threshold are reported by the program itself, not a failure of the run
  nthr="$(grep -ci 'failed to pass the threshold' "$cf" || true)"
  [ "$nthr" = 0 ] || P_WHY[$n]="$nthr test line(s) over the threshold (reported by the program)"
done

# ---------------------------------------------------------------------------------------------
# 4. manifest (programs that passed), written atomically
# ---------------------------------------------------------------------------------------------
toml_list() { local out="" x; for x in "$@"; do out+="${out:+, }\"$x\""; done; echo "[$out]"; }
{
  echo "# The real set of opcost's validation corpus, written by scripts/fetch-real.sh; do not edit."
  echo "# Sources: Debian source packages $(for p in lapack jlapack; do printf '%s %s; ' "$p" "${PKG_VERSION[$p]}"; done)"
  echo "# each program is one file assembled from the package's files (only the program units it reaches)."
  for n in "${PROGRAMS[@]}"; do
    [ "${P_OK[$n]}" = ok ] || continue
    s="${P_SOURCE[$n]}"
    echo
    echo "# ${P_DESC[$n]}"
    echo "# package: ${SOURCE_PKG[$s]} ${PKG_VERSION[${SOURCE_PKG[$s]}]}; ${S_UNITS[$s]} program units; ${P_NOTE[$n]}"
    echo "[[program]]"
    echo "name = \"$n\""
    echo "set = \"real\""
    echo "sources = [\"$s.f\"]"
    echo "stdin = \"$n.in\""
    # shellcheck disable=SC2086
    [ -z "${S_FLAGS[$s]}" ] || echo "flags = $(toml_list ${S_FLAGS[$s]})"
  done
} > "$OUT/manifest.toml.tmp"
mv "$OUT/manifest.toml.tmp" "$OUT/manifest.toml"

# ---------------------------------------------------------------------------------------------
# the analyzer check (cached), one program at a time
# ---------------------------------------------------------------------------------------------
declare -A P_AN=()
OPCOST="${OPCOST:-}"
if [ -z "$OPCOST" ]; then
  OPCOST="$ROOT/target/release/opcost"
fi
failures="$OUT/analyze-failures.txt"
if [ $ANALYZE -eq 1 ] && [ -x "$OPCOST" ]; then
  mkdir -p "$WORK/analyze"
  okey="$(hash_of "$OPCOST")"
  : > "$failures.tmp"
  for n in "${PROGRAMS[@]}"; do
    [ "${P_OK[$n]}" = ok ] || { P_AN[$n]="-"; continue; }
    s="${P_SOURCE[$n]}"
    fl="-O0${S_FLAGS[$s]:+ ${S_FLAGS[$s]}}"
    key="$(cat "$OUT/$s.f" "$OUT/$n.in" <(echo "$fl $okey") | sha256sum | cut -c1-16)"
    res="$WORK/analyze/$n"
    if [ $FORCE -eq 1 ] || [ "$(sed -n 1p "$res.key" 2> /dev/null)" != "$key" ]; then
      log "analyzing $n"
      set +e
      rm -rf "$WORK/analyze/cwd"; mkdir -p "$WORK/analyze/cwd"
      (cd "$WORK/analyze/cwd" && "$OPCOST" analyze --dynamic "$OUT/$s.f" --stdin "$OUT/$n.in" --flags "$fl" \
        --name "$n" --time-limit "$ANALYZE_LIMIT" > "$res.out" 2> "$res.err")
      rc=$?
      set -e
      printf '%s\n%s\n' "$key" "$rc" > "$res.key"
    fi
    if [ "$(sed -n 2p "$res.key")" = 0 ]; then
      P_AN[$n]=ok
    else
      P_AN[$n]=failed
      {
        echo "== $n ($s.f, stdin $n.in, flags \"$fl\")"
        echo "\$ opcost analyze --dynamic $s.f --stdin $n.in --flags \"$fl\"   # exit $(sed -n 2p "$res.key")"
        if [ -s "$res.err" ]; then cat "$res.err"; else tail -5 "$res.out"; fi
        echo
      } >> "$failures.tmp"
    fi
  done
  if [ -s "$failures.tmp" ]; then mv "$failures.tmp" "$failures"; else echo "no failures ($(date -u +%F))" > "$failures"; rm -f "$failures.tmp"; fi
else
  [ $ANALYZE -eq 0 ] || log "no opcost binary at $OPCOST: analyzer check skipped"
  for n in "${PROGRAMS[@]}"; do P_AN[$n]="skipped"; done
fi

# ---------------------------------------------------------------------------------------------
# summary
# ---------------------------------------------------------------------------------------------
ready=0
printf '\n%-20s %-8s %8s  %-6s  %-8s  %s\n' program package "user s" run analyze note
for n in "${PROGRAMS[@]}"; do
  s="${P_SOURCE[$n]}"
  [ "${P_OK[$n]}" = ok ] && ready=$((ready + 1))
  printf '%-20s %-8s %8s  %-6s  %-8s  %s\n' "$n" "${SOURCE_PKG[$s]}" "${P_USER[$n]}" "${P_OK[$n]}" \
    "${P_AN[$n]:--}" "${P_WHY[$n]:-}"
done
echo
echo "$ready of ${#PROGRAMS[@]} programs ready in ${OUT#"$ROOT"/}/manifest.toml"
[ $ANALYZE -eq 0 ] || [ ! -f "$failures" ] || echo "analyzer failures: ${failures#"$ROOT"/}"
if [ $ready -lt $MIN_READY ]; then
  echo "fewer than $MIN_READY programs are ready" >&2
  exit 1
fi
