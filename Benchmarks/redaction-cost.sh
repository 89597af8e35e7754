#!/usr/bin/env bash
# What redaction costs a report: `xcmedic scan --format json` with and without `--no-redact` on a log of
# 5,000 distinct errors (the most findings a report keeps), once with a `token=…` on every line (each
# text triggers the secret shapes) and once without, interleaved, CPU seconds (user), medians.
#
#   Benchmarks/redaction-cost.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/Benchmarks/out/redaction"
mkdir -p "$out"
runs=5
[ "${1:-}" = "--runs" ] && runs=$2

echo "building release..." >&2
swift build -c release --product xcmedic >/dev/null
bin="$root/.build/release/xcmedic"

python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
with open(f"{out}/tokens.log", "w") as a, open(f"{out}/plain.log", "w") as b:
    for i in range(5000):
        line = f"/Users/runner/work/app/Sources/Feature{i}/View{i}.swift:{i % 300 + 1}:7: error: cannot find 'value{i}' in scope"
        a.write(f"{line}; token={i:08x}abcdef\n")
        b.write(line + "\n")
    a.write("** BUILD FAILED **\n")
    b.write("** BUILD FAILED **\n")
PY

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
declare -A cpu
for _ in $(seq "$runs"); do
  for log in tokens plain; do
    for mode in redact no-redact; do
      flag=(); [ "$mode" = no-redact ] && flag=(--no-redact)
      /usr/bin/time -f "%U" -o "$out/time.txt" "$bin" scan --no-config --fail-on never --format json "${flag[@]}" "$out/$log.log" >/dev/null
      cpu[$log-$mode]+="$(cat "$out/time.txt") "
    done
  done
done

echo "5,000 findings; $runs runs each, interleaved; CPU seconds (user), medians."
echo
echo "| log | report | with --no-redact | redaction |"
echo "|---|---:|---:|---:|"
for log in tokens plain; do
  r=$(printf '%s\n' ${cpu[$log-redact]} | median)
  n=$(printf '%s\n' ${cpu[$log-no-redact]} | median)
  awk -v l="$log" -v r="$r" -v n="$n" 'BEGIN { printf "| %s | %.2f | %.2f | %.2f |\n", l, r, n, r - n }'
done
