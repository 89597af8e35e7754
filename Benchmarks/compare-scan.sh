#!/usr/bin/env bash
# Two xcmedic binaries scanning the same log, run in turn (A B A B …) so a drift in the machine's speed
# touches both alike; prints each run's wall seconds and the medians and their ratio.
#
#   Benchmarks/compare-scan.sh BINARY_A BINARY_B [LOG] [RUNS]
#
# LOG defaults to the corpus logs (Tests/Corpus/cases/*.log) concatenated 20 times (about 8 MB);
# RUNS to 11. Used for "scan without --record is exactly as fast as before" (docs/history.md): A is
# a build of this branch, B one of the commit before it.
set -euo pipefail
cd "$(dirname "$0")/.."
a=$1
b=$2
log=${3:-}
runs=${4:-11}
if [ -z "$log" ]; then
  mkdir -p Benchmarks/out
  log=Benchmarks/out/corpus-x20.log
  [ -s "$log" ] || for _ in $(seq 1 20); do cat Tests/Corpus/cases/*.log; done > "$log"
fi
ta=()
tb=()
one() {
  local start end
  start=$(date +%s.%N)
  "$1" scan --no-config --format json "$log" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", e - s }'
}
one "$a" >/dev/null; one "$b" >/dev/null   # warm the page cache
for _ in $(seq 1 "$runs"); do
  ta+=("$(one "$a")")
  tb+=("$(one "$b")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ma=$(median "${ta[@]}")
mb=$(median "${tb[@]}")
echo "log: $log ($(wc -c <"$log") bytes), $runs runs each, interleaved"
echo "A $a: median ${ma}s (runs: ${ta[*]})"
echo "B $b: median ${mb}s (runs: ${tb[*]})"
awk -v a="$ma" -v b="$mb" 'BEGIN { printf "A/B: %.3f\n", a / b }'
