#!/usr/bin/env bash
# Restores a backup made by scripts/backup.sh into a new place, then checks it with
# `runnect db check --images`.
#
#   scripts/restore.sh [--db URL] [--runnect PATH] BACKUP DEST
#
# BACKUP is the backup's folder or .tar file; its files are checked against its SHA256SUMS first.
# DEST is a new folder, made here:
#   SQLite:      DEST/courses.sqlite, DEST/courses-images/ (where `runnect serve --db
#                DEST/courses.sqlite` looks by default) and DEST/token-secret.
#   PostgreSQL:  DEST/images/ and DEST/token-secret; the store goes into the new database --db
#                names (a postgresql:// URL as a superuser, the database not there yet: it is made).
#                Roles of the backup's roles.sql that the server lacks are made (runners, the
#                server's role, with their passwords when the backup has them); roles it has are
#                left as they are. Then pg_restore in one transaction, `runnect db init` (the
#                database's connect rights, which a dump leaves out) and CONNECT for each runner.
# Nothing is replaced: DEST (and the database) must not exist. Everything is made under umask 077;
# give it to the server's user (chown -R) before serving it.
#
# Needs sha256sum, tar for a .tar, runnect (--runnect, else $RUNNECT_BIN, else PATH), and for
# PostgreSQL psql and pg_restore ($RUNNECT_PG_BIN, else the newest /usr/lib/postgresql/N/bin).
# Exit: 0 restored and checked, 64 usage, 65 the backup's files are damaged or the restored store
# fails its check (DEST is left to look at), 66 BACKUP missing, 69 a tool missing, 73 DEST (or the
# database) exists, 1 anything else.
set -euo pipefail
umask 077

usage() {
  echo "usage: scripts/restore.sh [--db URL] [--runnect PATH] BACKUP DEST" >&2
  exit 64
}

die() {
  local code=$1
  shift
  echo "restore.sh: error: $*" >&2
  exit "$code"
}

db=""
runnect="${RUNNECT_BIN:-runnect}"
positional=()
while (($#)); do
  case "$1" in
    --db | --runnect)
      (($# >= 2)) || usage
      if [[ "$1" == --db ]]; then db=$2; else runnect=$2; fi
      shift 2
      ;;
    --db=*) db=${1#*=} && shift ;;
    --runnect=*) runnect=${1#*=} && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    --) shift && positional+=("$@") && break ;;
    -*) usage ;;
    *) positional+=("$1") && shift ;;
  esac
done
((${#positional[@]} == 2)) || usage
backup=${positional[0]}
dest=${positional[1]}

[[ -e "$backup" ]] || die 66 "no backup at $backup"
[[ ! -e "$dest" && ! -L "$dest" ]] || die 73 "$dest exists; name a new folder (a restore never replaces anything)"
[[ -d "$(dirname -- "$dest")" ]] || die 73 "the folder $(dirname -- "$dest") does not exist"
command -v sha256sum >/dev/null || die 69 "sha256sum is not installed (coreutils)"
command -v "$runnect" >/dev/null || die 69 "runnect is not at $runnect: pass --runnect PATH (or RUNNECT_BIN)"

# shellcheck source=scripts/pg-tool.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/pg-tool.sh"

staging=""
cleanup() {
  if [[ -n "$staging" ]]; then rm -rf -- "$staging"; fi
}
trap cleanup EXIT

if [[ -d "$backup" ]]; then
  source=$backup
else
  # A .tar is unpacked into a folder of this script's own beside DEST, removed at the end.
  command -v tar >/dev/null || die 69 "tar is not installed"
  staging="$(dirname -- "$dest")/.$(basename -- "$dest").restoring.$$"
  mkdir -- "$staging" || die 73 "cannot make $staging"
  tar -xf "$backup" -C "$staging" || die 65 "cannot read $backup as a tar file"
  source=$staging
fi
[[ -f "$source/manifest.json" && -f "$source/SHA256SUMS" ]] || die 65 "$backup is not a backup of backup.sh (no manifest.json or SHA256SUMS)"
(cd "$source" && sha256sum --quiet --strict -c SHA256SUMS) >&2 \
  || die 65 "the backup's files do not match its SHA256SUMS: damaged or changed since"
mkdir -- "$dest" || die 73 "cannot make $dest"

manifest() { sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$source/manifest.json"; }
backend=$(manifest backend)
schema=$(manifest schema_version)

# Moved out of a staging folder of our own; copied out of a backup folder, which stays as it was.
take() {
  if [[ -n "$staging" ]]; then mv -T -- "$1" "$2"; else cp -R -p -T -- "$1" "$2"; fi
}

if [[ -f "$source/token-secret" ]]; then
  take "$source/token-secret" "$dest/token-secret"
  chmod 600 "$dest/token-secret"
  secret_note="--token-secret-file $dest/token-secret"
else
  secret_note="(the backup holds no secret: give the server the one it had)"
fi

case "$backend" in
  sqlite)
    [[ -z "$db" ]] || die 64 "--db is for a PostgreSQL backup; this one is SQLite's, restored to $dest/courses.sqlite"
    take "$source/courses.sqlite" "$dest/courses.sqlite"
    take "$source/images" "$dest/courses-images"
    store="$dest/courses.sqlite"
    images="$dest/courses-images"
    serve="runnect serve --db $store $secret_note"
    ;;
  postgresql)
    [[ -n "$db" ]] || die 64 "a PostgreSQL backup needs --db URL: the new database, as a superuser"
    shopt -s nocasematch
    [[ "$db" =~ ^(postgres(ql)?://[^/?]*)(/([^?]*))?(\?.*)?$ ]] || die 64 "--db $db: not a postgresql:// URL"
    shopt -u nocasematch
    prefix=${BASH_REMATCH[1]}
    name=${BASH_REMATCH[4]}
    query=${BASH_REMATCH[5]}
    [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die 64 "--db names no database, or one not of letters, digits and _: $name"
    maintenance="$prefix/postgres$query"
    psql=$(pg_tool psql)
    pg_restore=$(pg_tool pg_restore)
    sql() { "$psql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$@"; }
    [[ -z "$(sql "$maintenance" -c "SELECT 1 FROM pg_database WHERE datname = '$name'")" ]] \
      || die 73 "database $name exists; name a new one (a restore never replaces anything)"
    # Roles the server lacks, with what roles.sql says of them; the ones it has stay as they are.
    existing=$(sql "$maintenance" -c "SELECT quote_ident(rolname) FROM pg_roles")
    awk -v existing="$existing" '
      BEGIN { n = split(existing, names, "\n"); for (i = 1; i <= n; i++) have[names[i]] = 1 }
      /^CREATE ROLE / { role = substr($0, 13); sub(/;$/, "", role); if (!(role in have)) { made[role] = 1; print } next }
      /^ALTER ROLE / { role = $3; if (role in made) print; next }
      /^GRANT / {
        group = $2; member = $0; sub(/^GRANT .* TO /, "", member); sub(/ .*$/, "", member); sub(/;$/, "", member)
        if (group in made || member in made) print
      }
    ' "$source/roles.sql" >"$dest/roles-made.sql"
    made=$(grep -c '^CREATE ROLE ' "$dest/roles-made.sql" || true)
    sql "$maintenance" -f "$dest/roles-made.sql" || die 1 "the roles could not be made ($dest/roles-made.sql)"
    sql "$maintenance" -c "CREATE DATABASE \"$name\"" || die 1 "cannot create database $name"
    "$pg_restore" --single-transaction --exit-on-error -d "$db" "$source/store.dump" \
      || die 1 "pg_restore failed; database $name is left empty to look at (drop it before trying again)"
    "$runnect" db init --db "$db" >/dev/null || die 1 "runnect db init --db $db failed"
    sql "$db" -c "DO \$\$ DECLARE r text; BEGIN
        FOR r IN SELECT m.rolname FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member
                 WHERE a.roleid = 'runnect_runner'::regrole LOOP
          EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), r);
        END LOOP; END \$\$" || die 1 "cannot give the runners CONNECT on $name"
    take "$source/images" "$dest/images"
    store=$db
    images="$dest/images"
    serve="runnect serve --db <the server role's URL of $name> --images $images $secret_note"
    echo "made $made role(s) the server lacked (roles-made.sql), restored database $name"
    ;;
  *) die 65 "the manifest names no backend this script knows: $backend" ;;
esac

if ! "$runnect" db check --db "$store" --images "$images"; then
  die 65 "the restored store fails its check (above); $dest is left to look at"
fi
echo "restored a $backend backup (schema $schema) into $dest; serve it with: $serve"
