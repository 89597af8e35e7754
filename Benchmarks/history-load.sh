#!/usr/bin/env bash
# The history store under load: BUILDS builds recorded by WRITERS concurrent writers (each with its own
# connection, as separate CI jobs), then p50/p99 of each `xcmedic history` question on the full store.
# Runs on a fresh SQLite file and on a fresh PostgreSQL database (a throwaway server started by
# .ci/postgres.sh with fsync on, or XCMEDIC_BENCH_POSTGRES_URL).
#
#   Benchmarks/history-load.sh [BUILDS] [WRITERS] [CONFIG]     (defaults: 100000 16 release)
#
# The builds are made from the repository's own corpus logs (Tests/Corpus/cases): 5 repositories, 21
# branches, 90 days, 30% passing, 15% failing a test (of 60), failures skewed towards a few causes,
# 1 build in 20 a re-run of the previous commit.
set -euo pipefail
cd "$(dirname "$0")/.."
builds=${1:-100000}
writers=${2:-16}
config=${3:-release}
out=Benchmarks/out/history
mkdir -p "$out"

swift build -c "$config" --product xcmedic-history-load 2>&1 | grep -E "error|warning: " || true
bin="$(swift build -c "$config" --show-bin-path)/xcmedic-history-load"

echo "## $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $config build, $builds builds, $writers writers"
echo
echo "### SQLite"
rm -f "$out/load.sqlite" "$out/load.sqlite-wal" "$out/load.sqlite-shm"
"$bin" --store "$out/load.sqlite" --builds "$builds" --writers "$writers"
echo "size: $(du -h "$out/load.sqlite" | cut -f1)"

url=${XCMEDIC_BENCH_POSTGRES_URL:-}
pgdata=""
if [ -z "$url" ]; then
  pg=$(XCMEDIC_PG_FSYNC=on bash .ci/postgres.sh) || { echo "(no PostgreSQL server: skipped)"; exit 0; }
  url="${pg%% *}"
  pgdata="${pg#* }"
  trap 'bash .ci/postgres.sh stop "$pgdata"' EXIT
fi
echo
echo "### PostgreSQL $(psql "$url" -Atc 'SHOW server_version' 2>/dev/null || true) (fsync $(psql "$url" -Atc 'SHOW fsync' 2>/dev/null || echo '?'))"
"$bin" --store "$url" --builds "$builds" --writers "$writers"
