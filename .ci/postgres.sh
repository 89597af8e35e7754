#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the history store's tests and prints the URL they read
# (XCMEDIC_TEST_POSTGRES_URL). Debian's package; a data folder in a temporary directory, a random
# port on 127.0.0.1, SCRAM password authentication over TCP (so the tests use real credentials).
# fsync is off (a test server; XCMEDIC_PG_FSYNC=on for benchmarks). As root the server runs as the `postgres` user (PostgreSQL refuses root). Stop it with
#   .ci/postgres.sh stop DATADIR
set -euo pipefail

run_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ "${1:-}" = stop ]; then
  [ -n "$bin" ] && [ -d "${2:-}" ] && run_as "$bin/pg_ctl" -D "$2" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "${2:-/nonexistent}"
  # The data folder's parent holds the server's and initdb's logs: it goes too when it is the one made below.
  parent=$(dirname "${2:-/nonexistent}")
  case "$parent" in /tmp/xcmedic-pg.*) rm -rf "$parent" ;; esac
  exit 0
fi

if [ -z "$bin" ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null 2>&1 || true
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi
[ -n "$bin" ] || { echo "postgres.sh: PostgreSQL is not installed and could not be" >&2; exit 1; }

dir=$(mktemp -d /tmp/xcmedic-pg.XXXXXX)
chmod 755 "$dir"
password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)
printf '%s\n' "$password" > "$dir/pw"
if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir"; fi
run_as "$bin/initdb" -D "$dir/data" -U xcmedic --pwfile="$dir/pw" --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
rm -f "$dir/pw"
for attempt in 1 2 3 4 5; do
  port=$(( 20000 + RANDOM % 20000 ))
  if run_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
       -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=${XCMEDIC_PG_FSYNC:-off} -c max_connections=60" start >/dev/null 2>&1; then
    run_as "$bin/createdb" -h "$dir" -p "$port" -U xcmedic xcmedic_test
    echo "postgres://xcmedic:$password@127.0.0.1:$port/xcmedic_test?sslmode=disable $dir/data"
    exit 0
  fi
done
cat "$dir/server.log" >&2
exit 1
