#!/usr/bin/env bash
# Decoding speed and peak memory for .xcactivitylog (SLF): a synthetic log of SIZE MB of uncompressed
# SLF (Benchmarks/slf-gen.py: compile steps with compiler output and a warning each), read by
# `xcmedic decode` (decompress + decode + render as text, output to /dev/null) and by `xcmedic scan`.
#
#   Benchmarks/slf.sh [--size MB] [--runs N] [--no-gzip]
#
#   --size MB    uncompressed SLF to generate (default 200)
#   --runs N     runs per measurement; the median is reported (default 3)
#   --no-gzip    skip the gzip-compressed variant (what Xcode writes)
#
# Every run is pinned to one core (taskset) when taskset exists. MB/s are of uncompressed SLF per
# second of CPU time (user + system), which a shared machine's load does not inflate; the median
# wall-clock time is shown beside it with the load average.
# Needs python3 and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/Benchmarks/out"
mkdir -p "$out"
size=200
runs=3
gz=1
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --no-gzip) gz=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "slf.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in python3 /usr/bin/time; do command -v "$tool" >/dev/null || { echo "slf.sh: needs $tool" >&2; exit 2; }; done
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

echo "building release..." >&2
swift build -c release --product xcmedic >/dev/null
bin="$root/.build/release/xcmedic"

slf="$out/big.slf"
if [ ! -f "$slf" ] || [ "$(cat "$out/big.slf.size" 2>/dev/null)" != "$size" ]; then
  echo "generating $size MB of SLF..." >&2
  python3 Benchmarks/slf-gen.py "$size" "$slf"
  echo "$size" > "$out/big.slf.size"
  rm -f "$out/big.xcactivitylog"
fi
if [ "$gz" = 1 ] && [ ! -f "$out/big.xcactivitylog" ]; then
  echo "compressing..." >&2
  gzip -6 -c "$slf" > "$out/big.xcactivitylog"
fi
bytes=$(wc -c < "$slf")
cat "$slf" > /dev/null # page cache

# measure LABEL COMMAND...: median CPU seconds (user + system), median wall seconds, largest peak RSS.
measure() {
  local label=$1; shift
  local cpus=() walls=() rss=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$out/time.txt" "${pin[@]}" "$@" >/dev/null 2>"$out/stderr.txt" || true
    local cpu wall kb
    cpu=$(awk -F': ' '/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 } END { print u + s }' "$out/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$out/time.txt")
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/time.txt")
    cpus+=("$cpu")
    walls+=("$wall")
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local cpu wall
  cpu=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  wall=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  awk -v l="$label" -v c="$cpu" -v w="$wall" -v b="$bytes" -v r="$rss" \
    'BEGIN { printf "| %s | %.2f s | %.0f MB/s | %.2f s | %.1f MB |\n", l, c, (b / 1e6) / c, w, r / 1024 }'
}

echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), one used); $(swift --version 2>/dev/null | head -n 1)"
echo "Input: $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1e6 }') MB of uncompressed SLF, $("$bin" decode "$slf" | wc -l) decoded lines"
echo
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
echo
echo "| run | CPU time (median of $runs) | uncompressed SLF per CPU second | wall (median) | peak RSS |"
echo "|---|---|---|---|---|"
measure "decode, uncompressed SLF" "$bin" decode "$slf"
[ "$gz" = 1 ] && measure "decode, gzip (.xcactivitylog, $(awk -v b="$(wc -c < "$out/big.xcactivitylog")" 'BEGIN { printf "%.0f MB", b / 1e6 }'))" "$bin" decode "$out/big.xcactivitylog"
measure "scan --format json, uncompressed SLF" "$bin" scan --no-config --format json "$slf"
[ "$gz" = 1 ] && measure "scan --format json, gzip" "$bin" scan --no-config --format json "$out/big.xcactivitylog"
exit 0
