#!/usr/bin/env bash
# Each backend's schema as a freshly migrated database has it: what Schema/current.sql shows and
# the tests (SQLiteSchemaDumpTests, PostgresSchemaDumpTests) compare with a new database's.
#
#   scripts/dump-schema.sh                 builds runnect, migrates a new SQLite store and a new
#                                          PostgreSQL database (on a throwaway cluster,
#                                          scripts/pg-cluster.sh), and writes both current.sql files:
#                                          Sources/RunnectStore/SQLite/Schema/current.sql and
#                                          Sources/RunnectPostgres/Schema/current.sql.
#   scripts/dump-schema.sh sqlite FILE     prints the schema of the SQLite file (sqlite3 .schema,
#                                          then its user_version).
#   scripts/dump-schema.sh postgres URL    prints the schema of the PostgreSQL database (pg_dump
#                                          --schema-only --no-owner, privileges included), without
#                                          the lines that change from one dump to the next (the
#                                          server's and pg_dump's versions, the \restrict key).
#
# Needs sqlite3, and PostgreSQL 15's pg_dump ($RUNNECT_PG_BIN, else the newest
# /usr/lib/postgresql/N/bin, else PATH): scripts/setup.sh --test installs both.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
self="$root/scripts/$(basename "$0")"

die() {
  echo "dump-schema: $*" >&2
  exit 1
}

pg_dump_bin() {
  if [[ -n "${RUNNECT_PG_BIN:-}" && -x "$RUNNECT_PG_BIN/pg_dump" ]]; then
    echo "$RUNNECT_PG_BIN/pg_dump"
    return
  fi
  local dumps=(/usr/lib/postgresql/*/bin/pg_dump)
  if [[ -x "${dumps[0]}" ]]; then
    printf '%s\n' "${dumps[@]}" | sort -V | tail -n 1
    return
  fi
  command -v pg_dump || die "pg_dump not found: install PostgreSQL (scripts/setup.sh --test)"
}

dump_sqlite() {
  command -v sqlite3 >/dev/null || die "sqlite3 not found (scripts/setup.sh --test installs it)"
  [[ -f "$1" ]] || die "no SQLite file $1"
  sqlite3 -readonly "$1" .schema
  echo "PRAGMA user_version = $(sqlite3 -readonly "$1" 'PRAGMA user_version');"
}

dump_postgres() {
  "$(pg_dump_bin)" --schema-only --no-owner --dbname="$1" \
    | grep -v -e '^-- Dumped from database version' -e '^-- Dumped by pg_dump version' \
      -e '^\\restrict ' -e '^\\unrestrict '
}

# Run by `pg-cluster.sh run`, with the cluster's settings: a new database, initialised, dumped.
write_postgres() {
  local database="schema_dump_$$"
  "$RUNNECT_PG_BIN/psql" -q -X -d "$RUNNECT_PG_URL" -c "CREATE DATABASE $database"
  local url="postgresql://$RUNNECT_PG_ADMIN@/$database?host=$RUNNECT_PG_DIR&port=$RUNNECT_PG_PORT"
  "$runnect" db init --db "$url" >/dev/null
  dump_postgres "$url" >"$root/Sources/RunnectPostgres/Schema/current.sql"
}

case "${1:-}" in
  sqlite)
    [[ $# -eq 2 ]] || die "usage: $0 sqlite FILE"
    dump_sqlite "$2"
    ;;
  postgres)
    [[ $# -eq 2 ]] || die "usage: $0 postgres URL"
    dump_postgres "$2"
    ;;
  --write-postgres)
    runnect="$2" write_postgres
    ;;
  "")
    cd "$root"
    swift build --product runnect >/dev/null
    runnect="$(swift build --show-bin-path)/runnect"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    # A store is made by its first import; a course's rows are data, not schema.
    "$runnect" import SampleTracks/seokchon_lake_tapped.json --db "$work/new.sqlite" >/dev/null
    dump_sqlite "$work/new.sqlite" >Sources/RunnectStore/SQLite/Schema/current.sql
    scripts/pg-cluster.sh run "$self" --write-postgres "$runnect"
    echo "wrote Sources/RunnectStore/SQLite/Schema/current.sql and Sources/RunnectPostgres/Schema/current.sql"
    ;;
  *)
    die "usage: $0 [sqlite FILE | postgres URL]"
    ;;
esac
