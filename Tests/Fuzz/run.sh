#!/usr/bin/env bash
# Builds the libFuzzer targets (Swift on Linux, -sanitize=fuzzer,address) and runs each for a bounded time.
#
#   Tests/Fuzz/run.sh [SECONDS_PER_TARGET] [scan|rules|slf ...]
#
# Crashes are written to Tests/Fuzz/out/<target>/ (crash-*); turn each into a regression test in
# Tests/XCMedicKitTests/FuzzRegressionTests.swift. Seeds come from the rules' own examples and Examples/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scan rules slf)
scratch="$root/.build-fuzz"
out="$root/Tests/Fuzz/out"
mkdir -p "$out"

# The library with coverage instrumentation and AddressSanitizer; executables are linked by hand below.
swift build -c release --scratch-path "$scratch" --target XCMedicKit \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >/dev/null
bin="$scratch/release"
objects=$(find "$bin/XCMedicKit.build" "$bin/Yams.build" "$bin/CYaml.build" -name '*.o' | sort)

for target in "${targets[@]}"; do
  case "$target" in
    scan) source=Tests/Fuzz/ScanFuzzTarget.swift ;;
    rules) source=Tests/Fuzz/RulesFuzzTarget.swift ;;
    slf) source=Tests/Fuzz/SLFFuzzTarget.swift ;;
    *) echo "run.sh: unknown target $target (scan, rules, slf)" >&2; exit 2 ;;
  esac
  exe="$bin/fuzz-$target"
  # shellcheck disable=SC2086
  swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$bin/Modules" -I "$scratch/checkouts/Yams/Sources/CYaml/include" -I "$root/Sources/CZlib" \
    $objects "$source" -lz -o "$exe" 2>&1 | grep -v "Cannot export local symbol" || true
  corpus="$out/$target/corpus"
  mkdir -p "$corpus" "$out/$target"
  if [ "$target" = scan ]; then
    cp Examples/*.log "$corpus/" 2>/dev/null || true
    "$root/.build/debug/xcmedic" rules --no-config --format json 2>/dev/null | python3 -c '
import json, sys, os
for r in json.load(sys.stdin)["rules"]:
    for i, e in enumerate(r["examples"]["match"]):
        name = r["id"] + "-" + str(i) + ".log"
        open(os.path.join(sys.argv[1], name), "w").write(e["line"] + "\n")' "$corpus" || true
  fi
  if [ "$target" = slf ]; then
    # Seeds: SLF bodies (the header is added by the target) of the benchmark's generator, cut small.
    python3 Benchmarks/slf-gen.py 0.01 "$out/slf/seed.slf" && tail -c +5 "$out/slf/seed.slf" | head -c 8000 > "$corpus/steps" && rm "$out/slf/seed.slf"
  fi
  echo "fuzzing $target for ${seconds}s..."
  # Leak checking is off: Foundation's NSRegularExpression on Linux loses 2,356 bytes in 4 allocations
  # once per process when the catalog is compiled (_CFRegularExpressionCreate), which LeakSanitizer
  # reports at exit (and libFuzzer on the first input). Crashes, ASan memory errors and timeouts
  # still stop the run.
  if ! (cd "$out/$target" && ASAN_OPTIONS=detect_leaks=0 "$exe" -max_total_time="$seconds" -max_len=65536 -timeout=10 -detect_leaks=0 -print_final_stats=1 "$corpus" 2>&1 | tail -n 12); then
    echo "fuzz target $target FAILED: see the crash-* file in $out/$target"
    failed=1
  fi
done
exit "${failed:-0}"
