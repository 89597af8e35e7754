#!/usr/bin/env bash
# Throughput and peak memory of `xcmedic scan --format json` with the full catalog, side by side with
# `rg -c -j1 -F -f LITERALS` (the catalog's own prefilter literals) and `grep -c error` on the same log.
#
#   Benchmarks/run.sh [--unit LOG] [--repeat N] [--runs N] [--big] [--quick]
#
#   --unit LOG    the log repeated to make the big one (default: the passing logs of Tests/Corpus,
#                 the repository's own real logs, concatenated: xcodebuild, xcbeautify, fastlane,
#                 swift build and CI output of builds that succeeded, warnings and all; the failing
#                 cases are denser in errors than any real log and measure something else)
#   --repeat N    copies of the unit log (default: as many as make about 212 MB)
#   --runs N      runs per tool; medians are reported (default 5)
#   --big         also: peak memory on a 1 GB log, and on a single 100 MB line
#   --quick       1 run each, repeat 8 (a smoke test of the script itself)
#   --instructions  also: instructions per byte under valgrind's callgrind (repeatable on a busy
#                 machine): a scan of the unit log x 10 minus a scan of an empty log, over its size
#
# Output: a Markdown table for docs/performance.md, with the machine noted. Needs GNU time
# (/usr/bin/time) and ripgrep (apt-get install ripgrep time).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/Benchmarks/out"
mkdir -p "$out"

unit=""
repeat=""
runs=5
big=0
instructions=0
while [ $# -gt 0 ]; do
  case "$1" in
    --unit) unit=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --big) big=1; shift ;;
    --instructions) instructions=1; shift ;;
    --quick) runs=1; repeat=8; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$unit" ]; then
  unit="$out/corpus-passing.log"
  awk -F '\t' 'NR > 1 && $2 == "none" { print $1 }' "$root/Tests/Corpus/labels.tsv" \
    | while read -r case; do cat "$root/Tests/Corpus/cases/$case"; done >"$unit"
fi
[ -f "$unit" ] || { echo "run.sh: $unit: no such file" >&2; exit 2; }
if [ -z "$repeat" ]; then
  unit_bytes=$(stat -c %s "$unit")
  repeat=$(( (212000000 + unit_bytes - 1) / unit_bytes ))
fi
for tool in rg /usr/bin/time; do command -v "$tool" >/dev/null || { echo "run.sh: needs $tool (apt-get install ripgrep time)" >&2; exit 2; }; done

echo "building release..." >&2
swift build -c release --product xcmedic >/dev/null
bin="$root/.build/release/xcmedic"

log="$out/big.log"
rm -f "$log"
for _ in $(seq "$repeat"); do cat "$unit"; done >"$log"
bytes=$(stat -c %s "$log")
"$bin" rules --no-config --literals >"$out/literals.txt"
literal_count=$(wc -l <"$out/literals.txt")

# A catalog four times larger: three more copies of every built-in rule as user rules, each copy's
# literals and regexes changed so they are distinct to the prefilter.
python3 - "$bin" "$out/rules-x4.yml" <<'PY'
import json, subprocess, sys
rules = json.loads(subprocess.check_output([sys.argv[1], "rules", "--no-config", "--format", "json"]))["rules"]
out = []
def q(s): return "'" + s.replace("'", "''") + "'"
for copy in (2, 3, 4):
    for r in rules:
        pats = []
        for p in r["patterns"]:
            lit = p["literal"]
            mid = len(lit) // 2
            lit2 = lit[:mid] + str(copy) + lit[mid:]
            pats.append(f"      - literal: {q(lit2)}\n        regex: {q(p['regex'].replace(lit, lit2) if lit in p['regex'] else p['regex'] + str(copy) + 'x')}")
        out.append(f"- id: {r['id']}-copy{copy}\n  title: copy\n  category: {r['category']}\n  severity: {r['severity']}\n  role: {r['role']}\n"
                   f"  patterns:\n" + "\n".join(pats) + f"\n  explanation: benchmark copy of {r['id']}\n  fixes: [none]\n"
                   f"  examples:\n    match: [{{line: {q('never')}, source: benchmark}}]")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY

# median of a list of numbers
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# measure NAME CMD...: prints "seconds rss_kb" medians over $runs runs
measure() {
  local name=$1; shift
  local times=() rss=()
  for _ in $(seq "$runs"); do
    # Output to a file, not /dev/null: GNU grep stops at its first match when it sees /dev/null.
    /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >"$out/$name.out" 2>"$out/$name.stderr" || true
    read -r t m <"$out/time.txt"
    times+=("$t"); rss+=("$m")
  done
  echo "$(printf '%s\n' "${times[@]}" | median) $(printf '%s\n' "${rss[@]}" | median)"
}

row() { # name seconds rss_kb
  awk -v n="$1" -v s="$2" -v m="$3" -v b="$bytes" 'BEGIN { printf "| %s | %.2f | %.0f | %.1f |\n", n, s, (s > 0 ? b / 1e6 / s : 0), m / 1024 }'
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "Log: $(basename "$unit") x $repeat = $((bytes / 1000000)) MB, $literal_count prefilter literals; $runs runs each, medians."
echo "Machine: $(nproc) cores, $cpu; $(uname -sr); $(swift --version 2>/dev/null | head -1)"
echo
echo "| command | seconds | MB/s | peak RSS (MB) |"
echo "| --- | --- | --- | --- |"
read -r s m < <(measure xcmedic "$bin" scan --no-config --format json --fail-on never "$log")
row "xcmedic scan --format json" "$s" "$m"
"$bin" scan --no-config --format json --fail-on never "$log" >"$out/findings.json"
read -r s m < <(measure xcmedic4x "$bin" scan --no-config --rules "$out/rules-x4.yml" --format json --fail-on never "$log")
row "xcmedic scan, catalog x4 ($(( $(grep -c '^- id:' "$out/rules-x4.yml") )) extra rules)" "$s" "$m"
read -r s m < <(measure rg rg -c -j1 -F -f "$out/literals.txt" "$log")
row "rg -c -j1 -F -f LITERALS" "$s" "$m"
read -r s m < <(measure grep grep -c error "$log")
row "grep -c error" "$s" "$m"
echo
python3 -c "
import json; d = json.load(open('$out/findings.json'))
print(f\"xcmedic found {len(d['findings'])} distinct findings, {sum(f['count'] for f in d['findings'])} occurrences in {d['inputs'][0]['lines']} lines.\")"

if [ "$big" = 1 ]; then
  gig="$out/1g.log"
  rm -f "$gig"
  n=$(( (1000000000 + bytes - 1) / bytes ))
  for _ in $(seq "$n"); do cat "$log"; done >"$gig"
  gbytes=$(stat -c %s "$gig")
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$bin" scan --no-config --format json --fail-on never "$gig" >/dev/null
  read -r t m <"$out/time.txt"
  echo "1 GB log ($((gbytes / 1000000)) MB): $t s, peak RSS $((m / 1024)) MB"
  rm -f "$gig"
  line="$out/longline.log"
  python3 -c "
import sys
with open('$line', 'wb') as f:
    f.write(b'x' * (100 * 1000 * 1000))
    f.write(b' error: the end of a very long line\n')"
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$bin" scan --no-config --format json --fail-on never "$line" >/dev/null
  read -r t m <"$out/time.txt"
  echo "single 100 MB line: $t s, peak RSS $((m / 1024)) MB"
  rm -f "$line"
fi
if [ "$instructions" = 1 ]; then
  command -v valgrind >/dev/null || { echo "run.sh: --instructions needs valgrind" >&2; exit 2; }
  # valgrind cannot read the toolchain's debug info; a copy without it profiles the same code.
  objcopy --strip-debug "$bin" "$out/xcmedic-nodebug"
  : >"$out/empty.log"
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/xcmedic-nodebug" scan --no-config --format json --fail-on never "$1" 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $NF); print $NF}'; }
  base=$(count "$out/empty.log")
  for _ in $(seq 10); do cat "$unit"; done >"$out/unit10.log"
  full=$(count "$out/unit10.log")
  ubytes=$(stat -c %s "$out/unit10.log")
  awk -v b="$base" -v f="$full" -v n="$ubytes" 'BEGIN { printf "instructions: start-up %.0f M, scan %.1f per byte of the unit log x 10 (%.1f MB)\n", b / 1e6, (f - b) / n, n / 1e6 }'
fi
rm -f "$log"
