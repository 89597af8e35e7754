#!/bin/sh
# Serial bisect against `-j N` on a scripted range: a git repository of COMMITS commits whose build
# (build.sh) takes BUILD_SECONDS and fails with a Swift 6 error from commit CULPRIT on. Prints, for
# each mode, the rounds (each a wait for one build, or for up to N builds at once), the steps run,
# the wall time and the culprit, then the projection for builds of PROJECT_MINUTES.
#
#   Benchmarks/bisect-parallel.sh [XCMEDIC] [COMMITS=64] [CULPRIT=41] [BUILD_SECONDS=2] [JOBS=4]
#
# Runs on a clone: needs git, sh, and an xcmedic binary (default .build/debug/xcmedic).
set -eu
XCMEDIC=$(cd "$(dirname "${1:-.build/debug/xcmedic}")" && pwd)/$(basename "${1:-.build/debug/xcmedic}")
COMMITS=${2:-64}
CULPRIT=${3:-41}
BUILD_SECONDS=${4:-2}
JOBS=${5:-4}
PROJECT_MINUTES=${PROJECT_MINUTES:-10}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo/Sources/App"
cd "$repo"
git init -q -b main
git config user.name "Bench"; git config user.email "bench@example.com"
cat > build.sh <<'SCRIPT'
#!/bin/sh
# Stand-in for `swift build`: takes BUILD_SECONDS, prints swiftc's error for a global `var sharedCounter`.
sleep "${BUILD_SECONDS:-2}"
echo "Building for debugging..."
if n=$(grep -n '^var sharedCounter' Sources/App/*.swift | head -n 1 | cut -d: -f2) && [ -n "$n" ]; then
  f=$(grep -l '^var sharedCounter' Sources/App/*.swift | head -n 1)
  echo "$PWD/$f:$n:5: error: var 'sharedCounter' is not concurrency-safe because it is nonisolated global shared mutable state; this is an error in the Swift 6 language mode"
  echo "error: emit-module command failed with exit code 1 (use -v to see invocation)"
  exit 1
fi
echo "Build complete!"
SCRIPT
chmod +x build.sh
echo "struct App {}" > Sources/App/App.swift
git add -A; git commit -q -m "Initial app"
good=$(git rev-parse HEAD)
i=1
while [ "$i" -le "$COMMITS" ]; do
  echo "struct Feature$i { let id = $i }" > "Sources/App/Feature$i.swift"
  if [ "$i" -eq "$CULPRIT" ]; then printf 'import Foundation\n\nvar sharedCounter = 0\n' > Sources/App/Counter.swift; fi
  git add -A; git commit -q -m "Feature $i"
  i=$((i + 1))
done
export BUILD_SECONDS

run() { # $1: label, then xcmedic arguments
  label=$1; shift
  rm -rf .git/xcmedic/cache
  start=$(date +%s.%N)
  "$XCMEDIC" bisect --no-config --no-cache --good "$good" --format json "$@" -- ./build.sh > "$work/$label.json" 2> "$work/$label.err" || { cat "$work/$label.err" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 - "$work/$label.json" "$label" "$start" "$end" "$BUILD_SECONDS" "$PROJECT_MINUTES" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
label, start, end, build, minutes = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
steps = [s for s in doc["steps"] if s["phase"] == "bisect"]
ends = [s for s in doc["steps"] if s["phase"] != "bisect"]
# The endpoints: one round when checked at once (-j 2 or more), two one after the other (serial).
end_rounds = 1 if doc["jobs"] > 1 else len(ends)
rounds = doc["rounds"] + end_rounds
print(f"{label:8} culprit {doc['culprit']['subject']:12} rounds {doc['rounds']:2} (+{end_rounds} for the endpoints)  steps {len(steps):2}  wall {end - start:6.1f}s  "
      f"projected with {minutes:.0f}-minute builds: {rounds * minutes:4.0f} min")
PY
}
echo "range: $COMMITS commits, culprit at $CULPRIT, build $BUILD_SECONDS s; $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores"
run serial
run "j$JOBS" -j "$JOBS"
