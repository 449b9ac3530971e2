#!/usr/bin/env bash
# Where a prediction is off, loop by loop: each innermost loop's predicted time (the hot-loops
# table of `opcost predict`) against its share of perf's samples times the program's CPU time.
#
#   scripts/bench-loops.sh --machine M.json [--out DIR] [--stdin FILE] PROGRAM.f...
#
# Each program (one source file) is built with the characterization's compiler and flags plus
# -g, run once plainly for its CPU time and once under `perf record -g` (a software clock: a
# guest without hardware counters will do), and every sample is given to each loop whose lines
# one of its frames lies in: a loop's share includes the procedures it calls, as its
# prediction does. Writes DIR/loops.csv (program, loop, bound, predicted_s, real_s, ratio)
# and prints, per bound, how many loops and the median real/predicted, over the loops of
# 0.02 s or more whose program's frames perf could walk. With --stdin, every run of every
# program (and its counting run) reads FILE, as a test driver reads its input deck. perf
# cannot walk back out of a library built without frame pointers (libm, libgfortran): a
# sample inside SIN or a formatted WRITE is lost to its loop, so loops that call them read
# short.
#
# Needs perf (Debian: linux-perf), jq, and a frame-pointer build (gfortran keeps them at -O0).
set -euo pipefail

usage() {
  local text="usage: scripts/bench-loops.sh --machine M.json [--out DIR] [--stdin FILE] PROGRAM.f..."
  if [ "${1:-2}" = 0 ]; then echo "$text"; else echo "$text" >&2; fi
  exit "${1:-2}"
}
machine="" out="" stdin=/dev/null progs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --machine) machine="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --stdin) stdin="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "bench-loops: unknown option $1" >&2; usage ;;
    *) progs+=("$1"); shift ;;
  esac
done
[ -n "$machine" ] && [ ${#progs[@]} -gt 0 ] || usage
for tool in perf jq; do
  command -v "$tool" >/dev/null || { echo "bench-loops: $tool is missing (Debian: apt-get install ${tool/perf/linux-perf})" >&2; exit 1; }
done
root="$(cd "$(dirname "$0")/.." && pwd)"
opcost="${OPCOST:-$root/target/release/opcost}"
[ -x "$opcost" ] || (cd "$root" && cargo build --release -q)
machine="$(realpath "$machine")"
[ -r "$stdin" ] || { echo "bench-loops: cannot read the input file $stdin" >&2; exit 1; }
stdin="$(realpath "$stdin")"
input=()
[ "$stdin" = /dev/null ] || input=(--stdin "$stdin")
compiler="$(jq -r '.compiler.path' "$machine")"
read -r -a flags <<<"$(jq -r '.compiler.flags | join(" ")' "$machine")"
out="$(realpath -m "${out:-$root/target/bench-loops}")"
mkdir -p "$out"
csv="$out/loops.csv"
echo "program,loop,bound,predicted_s,real_s,ratio" >"$csv"

for src in "${progs[@]}"; do
  [ -f "$src" ] || { echo "$src: no such file, skipped" >&2; continue; }
  src="$(realpath "$src")"
  name="$(basename "$src" .f)"
  base="$(basename "$src")"
  work="$out/$name"
  mkdir -p "$work"
  if ! "$compiler" "${flags[@]}" -g -o "$work/$name" "$src" 2>"$work/build.log"; then
    echo "$name: does not build (see $work/build.log), skipped" >&2
    continue
  fi
  if ! "$opcost" predict --machine "$machine" "${input[@]}" "$src" --json "$work/prediction.json" >/dev/null 2>"$work/predict.log"; then
    echo "$name: predict failed (see $work/predict.log), skipped" >&2
    continue
  fi
  cpu="$(cd "$work" && { TIMEFORMAT='%U %S'; time "./$name" <"$stdin" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}')"
  (cd "$work" && perf record -q -g -e task-clock -F 2000 -o perf.data "./$name" <"$stdin" >/dev/null 2>&1)
  perf script -i "$work/perf.data" -F ip,srcline 2>/dev/null >"$work/frames.txt"
  jq -r --arg base "$base" '.loops[] | select((.file | split("/") | last) == $base)
    | "\(.first_line) \(.last_line) \(.bound) \(.time_s)"' "$work/prediction.json" >"$work/loops.txt"
  # One sample is a paragraph of (ip, source line) pairs; its lines in this file, once each.
  awk -v base="$base" -v cpu="$cpu" -v name="$name" '
    FNR == NR { first[++n] = $1; last[n] = $2; bound[n] = $3; pred[n] = $4; next }
    /^$/ { if (inside) flush(); next }
    { inside = 1 }
    index($1, base ":") == 1 { split($1, f, ":"); lines[f[2] + 0] = 1 }
    function flush(   i, l) {
      samples++
      for (i = 1; i <= n; i++)
        for (l in lines) if (l + 0 >= first[i] && l + 0 <= last[i]) { hits[i]++; break }
      delete lines; inside = 0
    }
    END {
      if (inside) flush()
      for (i = 1; i <= n; i++) {
        real = samples ? cpu * hits[i] / samples : 0
        printf "%s,%s:%d-%d,%s,%.4f,%.4f,%.3f\n", name, base, first[i], last[i], bound[i], pred[i], real, (pred[i] > 0 ? real / pred[i] : 0)
      }
    }' "$work/loops.txt" "$work/frames.txt" >>"$csv"
  echo "$name: $(grep -c "^$name," "$csv") loops, CPU $cpu s" >&2
done

echo "bound,loops,median_real_over_predicted"
awk -F, 'NR > 1 && ($4 >= 0.02 || $5 >= 0.02) && $4 > 0 { print $3, $6 }' "$csv" | sort -k1,1 -k2,2g |
  awk '{ r[$1, ++c[$1]] = $2 }
       END { for (b in c) { k = c[b]; m = (k % 2) ? r[b, (k + 1) / 2] : (r[b, k / 2] + r[b, k / 2 + 1]) / 2; printf "%s,%d,%.2f\n", b, k, m } }' | sort
echo "per loop: $csv" >&2
