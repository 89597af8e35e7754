#!/usr/bin/env bash
# What a hostile `.xcmedic.yml` costs a scan: `xcmedic scan --format json` on one large log, run from a
# repository without a rules file and from repositories whose `.xcmedic.yml` holds a rule that backtracks,
# interleaved, medians. A user rule is switched off after 3 timeouts, or when the user rules together have
# taken more than the rest of the scan plus 500 ms (docs/security.md), so no such file should make a scan
# take more than about twice its normal time.
#
#   Benchmarks/hostile-rules.sh [--mb N] [--runs N] [--quick]
#
#   --mb N     size of the log in MB (default 200; 1024 for the issue's 1 GB): the passing logs of
#              Tests/Corpus repeated, each copy followed by one line the hostile rules' literal picks out
#   --runs N   runs per configuration (default 5)
#   --quick    --mb 20 --runs 1 (a smoke test of the script itself)
#
# Configurations:
#   normal     no rules file
#   timeout    a rule whose regex (a*a*a*a*a*a*b) runs past the 100 ms budget on every line with `boom `
#   slow       a rule whose regex (\.swift.*.*.*@@) takes milliseconds on each of the many lines with `.swift`,
#              never reaching the per-line budget: only the total budget stops it
#   both       the two rules together
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/Benchmarks/out/hostile"
mkdir -p "$out"

mb=200
runs=5
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --quick) mb=20; runs=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "hostile-rules.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

echo "building release..." >&2
swift build -c release --product xcmedic >/dev/null
bin="$root/.build/release/xcmedic"

# The log: the corpus's passing logs, each copy followed by one line for the `boom ` rule.
unit="$out/unit.log"
awk -F '\t' 'NR > 1 && $2 == "none" { print $1 }' "$root/Tests/Corpus/labels.tsv" \
  | while read -r case; do cat "$root/Tests/Corpus/cases/$case"; done >"$unit"
printf 'boom %s\n' "$(head -c 3000 /dev/zero | tr '\0' a)" >>"$unit"
unit_bytes=$(stat -c %s "$unit")
repeat=$(( (mb * 1000000 + unit_bytes - 1) / unit_bytes ))
log="$out/big.log"
for _ in $(seq "$repeat"); do cat "$unit"; done >"$log"
bytes=$(stat -c %s "$log")
boom_lines=$repeat
swift_lines=$(( $(grep -c '\.swift' "$unit") * repeat ))

rule() { # id literal regex
  cat <<EOF
- id: $1
  title: Hostile rule $1
  category: phase-script-failed
  severity: error
  role: cause
  patterns:
    - literal: '$2'
      regex: '$3'
  explanation: A rule that backtracks.
  fixes:
    - summary: Do not write rules like this
  examples:
    match:
      - line: 'never'
        source: benchmark
EOF
}

# One repository per configuration, each with its own .xcmedic.yml (read without asking, as in CI).
for config in normal timeout slow both; do
  mkdir -p "$out/$config/.git"
  rm -f "$out/$config/.xcmedic.yml"
done
rule slow-timeout 'boom ' 'boom a*a*a*a*a*a*b' >"$out/timeout/.xcmedic.yml"
rule slow-total '.swift' '\.swift.*.*.*@@' >"$out/slow/.xcmedic.yml"
{ rule slow-timeout 'boom ' 'boom a*a*a*a*a*a*b'; rule slow-total '.swift' '\.swift.*.*.*@@'; } >"$out/both/.xcmedic.yml"

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A times
for _ in $(seq "$runs"); do
  for config in normal timeout slow both; do # interleaved: a busy machine slows every configuration alike
    start=$(date +%s.%N)
    (cd "$out/$config" && "$bin" scan --format json --fail-on never "$log" >"$out/$config.json" 2>"$out/$config.stderr")
    end=$(date +%s.%N)
    times[$config]+="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }') "
  done
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "Log: $((bytes / 1000000)) MB ($repeat copies of the passing corpus logs), $boom_lines lines with 'boom ', $swift_lines with '.swift'; $runs runs each, interleaved, medians."
echo "Machine: $(nproc) cores, $cpu; $(uname -sr)"
echo
echo "| .xcmedic.yml | seconds | x normal | switched off |"
echo "|---|---:|---:|---|"
normal=$(printf '%s\n' ${times[normal]} | median)
for config in normal timeout slow both; do
  t=$(printf '%s\n' ${times[$config]} | median)
  off=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(", ".join(f["captures"]["rule"] + " (" + ("timeouts" if "stopped" in f["message"] else "total budget") + ")" for f in d["findings"] if f["rule"] == "rule-switched-off") or "-")' "$out/$config.json")
  awk -v c="$config" -v t="$t" -v n="$normal" -v o="$off" 'BEGIN { printf "| %s | %.2f | %.2f | %s |\n", c, t, t / n, o }'
done
