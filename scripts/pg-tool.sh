# Sourced by scripts/backup.sh and scripts/restore.sh (not run on its own): pg_tool NAME prints
# the path of PostgreSQL's NAME (pg_dump, pg_restore, psql, …): $RUNNECT_PG_BIN's, else the
# newest /usr/lib/postgresql/N/bin's, else PATH's; the caller's `die` otherwise (exit 69).
pg_tool() {
  local name=$1 dir
  if [[ -n "${RUNNECT_PG_BIN:-}" && -x "$RUNNECT_PG_BIN/$name" ]]; then
    echo "$RUNNECT_PG_BIN/$name"
    return
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x "$dir/$name" ]] && echo "$dir/$name" && return
  done
  command -v "$name" || die 69 "$name is not installed (Debian: postgresql-client of the server's version)"
}
