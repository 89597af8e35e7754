#!/usr/bin/env bash
# What the history store costs a scan that does not record: `xcmedic scan` of a 2-line log, release
# builds with the Swift runtime linked in statically (as shipped), three side by side:
#   split    this checkout's xcmedic; the store lives in xcmedic-history, which xcmedic does not link
#   linked   REV's xcmedic, which linked the store (default c3fd329: main before the split)
#   never    REV's xcmedic with the store taken out (Benchmarks/store-cost-unlink.patch removes the
#            history command and --record, nothing else): that scan as if the store had never been added
# then Benchmarks/startup.py --callgrind over the three (instructions, and CPU and wall time in
# interleaved rounds; it stops if the three do not print the same report byte for byte).
#
#   Benchmarks/store-cost.sh [--rounds N] [--rev REV] [--work DIR]
#
# Builds go under DIR (default .build-storecost), reused when run again; a release build takes
# minutes (REV's "linked" one builds SwiftNIO and BoringSSL). Needs git, valgrind, python3, rg.
# "split" and "never" compare like with like while this checkout's scan code is REV's, as when the
# figures in docs/history.md were measured; later scan changes move "split" for their own reasons.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
rounds=30
rev=c3fd329
work="$root/.build-storecost"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "store-cost.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in git valgrind python3 rg; do
  command -v "$tool" >/dev/null || { echo "store-cost.sh: needs $tool" >&2; exit 2; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)

build() { # DIR: the release build of xcmedic there, as scripts/release.sh makes it (without the static zlib)
  echo "store-cost.sh: swift build -c release --static-swift-stdlib --product xcmedic in $1" >&2
  (cd "$1" && swift build -c release --static-swift-stdlib --product xcmedic >&2)
  echo "$1/.build/release/xcmedic"
}

tree() { # NAME: REV's files in work/NAME, once
  if [ ! -f "$work/$1/Package.swift" ]; then
    rm -rf "${work:?}/$1"
    mkdir -p "$work/$1"
    git -C "$root" archive "$rev" | tar -x -C "$work/$1"
    if [ "$1" = never ]; then (cd "$work/$1" && patch -s -p1 -E <"$root/Benchmarks/store-cost-unlink.patch"); fi
  fi
}

tree linked
tree never
linked=$(build "$work/linked")
never=$(build "$work/never")
echo "store-cost.sh: swift build -c release --static-swift-stdlib --product xcmedic --scratch-path $work/split-build" >&2
swift build -c release --static-swift-stdlib --product xcmedic --scratch-path "$work/split-build" >&2
split="$work/split-build/release/xcmedic"

echo "Binaries (bytes): split $(wc -c <"$split"), linked $(wc -c <"$linked"), never $(wc -c <"$never"); REV $(git -C "$root" rev-parse --short "$rev"), this checkout $(git -C "$root" rev-parse --short HEAD)"
python3 "$root/Benchmarks/startup.py" --callgrind --rounds "$rounds" split="$split" never="$never" linked="$linked"
