#!/usr/bin/env bash
# Speed and memory of the released binary, side by side with its peers, on logs a clone makes itself.
#
#   Benchmarks/run.sh [--quick] [--gb] [--sizes LIST] [--shapes LIST] [--runs N] [--big-runs N]
#                     [--max-seconds S] [--xcbeautify PATH] [--instructions]
#
#   (default)      sizes 1 MB, 20 MB, 200 MB; shapes quiet, tests, errors, unknown, hugeline
#                  (Benchmarks/gen-logs.py makes them from Tests/Corpus: raw xcodebuild, xcbeautify,
#                  swift build and test output); 5 interleaved rounds up to 20 MB, 3 above
#   --quick        1 MB and 20 MB only, 3 rounds
#   --gb           also 1 GB
#   --sizes, --shapes, --runs, --big-runs, --max-seconds   passed to Benchmarks/matrix.py
#   --xcbeautify PATH  the xcbeautify to compare with (default: the one on the PATH, if any); it runs on
#                  logs up to 20 MB (it is two orders of magnitude slower), never on the one-line log
#   --instructions also: instructions per byte under valgrind's callgrind (repeatable on a busy
#                  machine): a scan of the quiet 20 MB log minus a scan of an empty one, over its size
#
# Each log is measured in rounds that run every command once, in rotating order (interleaved), against
# `rg -c -j1 --no-mmap -F -f LITERALS` and `grep -c -F -f LITERALS` (the catalog's prefilter literals),
# and pipe mode against `tee`. It prints a Markdown table (docs/performance.md) with medians and the
# median ratio of each peer's CPU time to xcmedic's. The binary measured is the one a release ships:
# scripts/release.sh builds it (on Linux the static one). Needs python3, GNU time, ripgrep
# (apt-get install ripgrep time). Generated logs stay in Benchmarks/out for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/Benchmarks/out"
mkdir -p "$out"

command_line="Benchmarks/run.sh${*:+ $*}"
matrix_args=()
instructions=0
xcbeautify=$(command -v xcbeautify || true)
sizes="1M,20M,200M"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) sizes="1M,20M"; matrix_args+=(--runs 3); shift ;;
    --gb) sizes="$sizes,1G"; shift ;;
    --sizes) sizes=$2; shift 2 ;;
    --shapes|--runs|--big-runs|--max-seconds) matrix_args+=("$1" "$2"); shift 2 ;;
    --xcbeautify) xcbeautify=$2; shift 2 ;;
    --instructions) instructions=1; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in python3 rg grep tee /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "run.sh: needs $tool (apt-get install ripgrep time python3)" >&2; exit 2; }
done

echo "building the release binary (scripts/release.sh)..." >&2
archive=$(scripts/release.sh --out "$out/dist" | grep -E '\.tar\.gz$' | head -n1)
rm -rf "${out:?}/bin"
mkdir -p "$out/bin"
tar -xzf "$archive" -C "$out/bin" --strip-components=1
bin="$out/bin/xcmedic"

echo "Command: $command_line"
echo
python3 Benchmarks/matrix.py --xcmedic "$bin" --sizes "$sizes" --out "$out" --json "$out/matrix.json" \
  ${xcbeautify:+--xcbeautify "$xcbeautify"} ${matrix_args[@]+"${matrix_args[@]}"}
if [ -n "$xcbeautify" ]; then
  echo
  echo "xcbeautify: $xcbeautify ($("$xcbeautify" --version 2>/dev/null || echo unknown version))"
fi

if [ "$instructions" = 1 ]; then
  command -v valgrind >/dev/null || { echo "run.sh: --instructions needs valgrind" >&2; exit 2; }
  log="$out/quiet-20000000.log"
  [ -f "$log" ] || python3 Benchmarks/gen-logs.py quiet 20000000 "$log"
  : >"$out/empty.log"
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" scan --no-config --format json --fail-on never "$1" 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $NF); print $NF}'; }
  base=$(count "$out/empty.log")
  full=$(count "$log")
  bytes=$(stat -c %s "$log")
  echo
  awk -v b="$base" -v f="$full" -v n="$bytes" 'BEGIN { printf "Instructions (callgrind): start-up %.0f M; scan %.2f per byte of the quiet 20 MB log\n", b / 1e6, (f - b) / n }'
fi
