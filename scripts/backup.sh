#!/usr/bin/env bash
# Backs up a Runnect server's store, its images folder and its token secret into one new folder
# (or one new .tar file), while the server runs and writes, or while it is stopped.
#
#   scripts/backup.sh [--db PATH|URL] [--images DIR] [--token-secret-file FILE | --no-secret] TARGET
#
# --db, --images and --token-secret-file default to RUNNECT_DB, RUNNECT_IMAGES and
# RUNNECT_TOKEN_SECRET_FILE, as `runnect serve` reads them (the images folder of a SQLite store
# NAME.sqlite defaults to NAME-images beside it, as the server's does). TARGET must not exist: a
# folder is made, or a .tar file when TARGET ends in .tar. Nothing is ever replaced or removed
# but what this script made (its unfinished folder, when it fails).
#
# What the backup holds:
#   courses.sqlite   SQLite: `VACUUM INTO` of the store, one read transaction, so a snapshot of
#                    every write committed before it began, taken while the server goes on writing.
#   store.dump       PostgreSQL: `pg_dump -Fc` in a snapshot exported by a session that also reads
#   roles.sql        the image names; `pg_dumpall --roles-only`: the runners' and the server's roles.
#   images/          the images folder, copied before the snapshot and again after it (the new
#                    files): the server writes an image before the row naming it commits, so every
#                    image the snapshot names is there, unless its course was made and deleted
#                    while the backup ran; then the script takes a new snapshot and copies again,
#                    up to 5 times in all.
#   token-secret     the secret file (mode 0600; the whole backup is made under umask 077).
#   manifest.json    when, from where, the schema version and counts, the database's and the
#                    secret's SHA-256.
#   SHA256SUMS       every file's SHA-256 (`sha256sum -c SHA256SUMS`); restore.sh checks it.
#
# Needs sqlite3 (SQLite) or pg_dump, pg_dumpall and psql of the server's major version or newer
# (PostgreSQL: $RUNNECT_PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH), and
# sha256sum. Run it as the store's owner (the server's user): a SQLite client makes the -wal and
# -shm files beside a stopped store as its own user, and removes them when it ends.
# Exit: 0 done, 64 usage, 66 an input missing, 69 a tool missing, 73 TARGET exists or cannot be
# made, 75 images kept vanishing (run it again), 1 anything else.
set -euo pipefail
umask 077

usage() {
  echo "usage: scripts/backup.sh [--db PATH|URL] [--images DIR] [--token-secret-file FILE | --no-secret] TARGET" >&2
  exit 64
}

die() {
  local code=$1
  shift
  echo "backup.sh: error: $*" >&2
  exit "$code"
}

db="${RUNNECT_DB:-}"
images="${RUNNECT_IMAGES:-}"
secret="${RUNNECT_TOKEN_SECRET_FILE:-}"
no_secret=0
target=""
while (($#)); do
  case "$1" in
    --db | --images | --token-secret-file)
      (($# >= 2)) || usage
      case "$1" in
        --db) db=$2 ;;
        --images) images=$2 ;;
        --token-secret-file) secret=$2 ;;
      esac
      shift 2
      ;;
    --db=*) db=${1#*=} && shift ;;
    --images=*) images=${1#*=} && shift ;;
    --token-secret-file=*) secret=${1#*=} && shift ;;
    --no-secret) no_secret=1 && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    --) shift && { (($# == 1)) || usage; } && target=$1 && shift ;;
    -*) usage ;;
    *)
      [[ -z "$target" ]] || usage
      target=$1
      shift
      ;;
  esac
done
[[ -n "$target" ]] || usage
[[ -n "$db" ]] || die 64 "name the store: --db PATH|URL (or RUNNECT_DB)"

postgres=0
shopt -s nocasematch
[[ "$db" =~ ^postgres(ql)?:// ]] && postgres=1
shopt -u nocasematch

if [[ -z "$images" ]]; then
  ((postgres == 0)) || die 64 "with a PostgreSQL store, name the images folder: --images DIR (or RUNNECT_IMAGES)"
  # As the server: NAME-images beside NAME.sqlite.
  base=$(basename -- "$db")
  stem=${base%.*}
  [[ -n "$stem" ]] || stem=$base
  images="$(dirname -- "$db")/$stem-images"
fi
[[ -d "$images" ]] || die 66 "no images folder at $images; name the server's: --images DIR (or RUNNECT_IMAGES)"
if ((no_secret == 0)); then
  [[ -n "$secret" ]] || die 64 "name the token secret file: --token-secret-file FILE (or RUNNECT_TOKEN_SECRET_FILE), or pass --no-secret and keep the secret elsewhere"
  [[ -f "$secret" && -r "$secret" ]] || die 66 "cannot read the token secret file $secret"
fi
[[ ! -e "$target" && ! -L "$target" ]] || die 73 "$target exists; name a new folder or .tar file (a backup never replaces anything)"
parent=$(dirname -- "$target")
[[ -d "$parent" ]] || die 73 "the folder $parent does not exist"

need() {
  command -v "$1" >/dev/null || die 69 "$1 is not installed ($2)"
}
need sha256sum "coreutils"

# shellcheck source=scripts/pg-tool.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/pg-tool.sh"

# Everything is made in a folder of this script's own beside TARGET, renamed to TARGET at the end.
work="$(cd -- "$parent" && pwd)/.$(basename -- "$target").partial.$$"
mkdir -- "$work" || die 73 "cannot make $work"
made_work=1
cleanup() {
  if ((made_work)); then rm -rf -- "$work"; fi
  if [[ -n "${tar_part:-}" && -e "$tar_part" ]]; then rm -f -- "$tar_part"; fi
  if [[ -n "${snapshot_fd:-}" ]]; then exec {snapshot_fd}>&- || true; fi
}
trap cleanup EXIT
mkdir -- "$work/images"

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# The image names the snapshot holds, one a line, into $work/referenced.
snapshot_sqlite() {
  need sqlite3 "Debian: sqlite3"
  [[ -f "$db" ]] || die 66 "no SQLite store at $db"
  rm -f -- "$work/courses.sqlite"
  # One statement, one read transaction: WAL lets the server write meanwhile.
  local into="$work/courses.sqlite"
  sqlite3 -bail -cmd ".timeout 10000" "$db" "VACUUM INTO '${into//"'"/"''"}'" \
    || die 1 "sqlite3 could not take a snapshot of $db"
  sqlite3 -bail "$work/courses.sqlite" \
    "SELECT image FROM course WHERE image IS NOT NULL UNION SELECT image FROM deleted_course WHERE image IS NOT NULL" \
    >"$work/referenced"
}

psql_bin=""
snapshot_postgres() {
  psql_bin=$(pg_tool psql)
  local pg_dump
  pg_dump=$(pg_tool pg_dump)
  rm -f -- "$work/store.dump"
  # A session holds a snapshot open, exports it for pg_dump, and reads the image names in it.
  coproc SNAPSHOT { "$psql_bin" -X -q -A -t -v ON_ERROR_STOP=1 "$db" 2>&1; }
  snapshot_fd=${SNAPSHOT[1]}
  echo "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_export_snapshot();" >&"${SNAPSHOT[1]}"
  local id
  IFS= read -r -t 30 id <&"${SNAPSHOT[0]}" || die 1 "psql could not open a snapshot of the store"
  [[ "$id" =~ ^[0-9A-F-]+$ ]] || die 1 "psql could not open a snapshot of the store: $id"
  "$pg_dump" -Fc --snapshot="$id" -f "$work/store.dump" -d "$db" || die 1 "pg_dump failed"
  echo "SELECT image FROM course WHERE image IS NOT NULL UNION SELECT image FROM deleted_course WHERE image IS NOT NULL; SELECT 'runnect-backup-end'; COMMIT;" >&"${SNAPSHOT[1]}"
  : >"$work/referenced"
  local line
  while IFS= read -r -t 60 line <&"${SNAPSHOT[0]}"; do
    [[ "$line" == runnect-backup-end ]] && break
    echo "$line" >>"$work/referenced"
  done
  [[ "$line" == runnect-backup-end ]] || die 1 "psql did not read the image names: $line"
  exec {SNAPSHOT[1]}>&-
  snapshot_fd=""
  wait "$SNAPSHOT_PID" 2>/dev/null || true
}

copy_images() {
  # Regular files only, no temporary one (an upload or write in progress: *.part, or a hidden
  # file Foundation writes before renaming it); what is there already is kept.
  local list="$work/image-list" name
  find "$images" -mindepth 1 -maxdepth 1 -type f ! -name '.*' ! -name '*.part' -printf '%f\0' >"$list"
  (cd "$images" && xargs -0 -r cp -n -p -t "$work/images" -- <"$list") 2>"$work/copy-errors" || true
  # A file listed and not copied must have vanished since (a deleted course's image): the
  # snapshot's own images are checked below. Any other failure stops the backup.
  while IFS= read -r -d '' name; do
    if [[ ! -e "$work/images/$name" && -e "$images/$name" ]]; then
      die 1 "cannot copy $images/$name: $(head -n 3 "$work/copy-errors")"
    fi
  done <"$list"
  rm -f -- "$list" "$work/copy-errors"
}

# Images are copied before the snapshot too: an image the snapshot names was written before it
# began, so only a course made and deleted within the backup's own second can lose its image.
copy_images
attempt=1
while :; do
  if ((postgres)); then snapshot_postgres; else snapshot_sqlite; fi
  copy_images
  missing=()
  while IFS= read -r name; do
    [[ -z "$name" || "$name" == */* || -f "$work/images/$name" ]] || missing+=("$name")
  done <"$work/referenced"
  ((${#missing[@]} == 0)) && break
  ((attempt < 5)) || die 75 "images the store names vanished while they were copied (${missing[*]}): courses deleted meanwhile? run the backup again"
  echo "backup.sh: ${#missing[@]} image(s) vanished after the snapshot (a course deleted meanwhile); taking a new one" >&2
  attempt=$((attempt + 1))
done
referenced=$(grep -c . "$work/referenced" || true)
rm -f -- "$work/referenced"

if ((postgres)); then
  pg_dumpall=$(pg_tool pg_dumpall)
  # The roles' passwords need a superuser; without one, the roles are kept without them.
  if ! "$pg_dumpall" --roles-only -d "$db" -f "$work/roles.sql" 2>"$work/roles.err"; then
    "$pg_dumpall" --roles-only --no-role-passwords -d "$db" -f "$work/roles.sql" \
      || die 1 "pg_dumpall --roles-only failed: $(cat "$work/roles.err")"
    echo "backup.sh: roles kept without their passwords (not a superuser): $(head -n 1 "$work/roles.err")" >&2
  fi
  rm -f -- "$work/roles.err"
  counts=$("$psql_bin" -X -A -t -F ' ' -d "$db" -c "SELECT (SELECT max(version) FROM schema_version),
      (SELECT count(*) FROM course), (SELECT count(*) FROM deleted_course), (SELECT count(*) FROM record),
      (SELECT count(*) FROM scrap), (SELECT count(*) FROM runner)") || die 1 "psql could not count the rows"
  backend=postgresql
  database_file=store.dump
  source=$(sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#; s#([?&]password=)[^&]*#\1***#' <<<"$db")
  counted="after the dump, on the live store"
else
  counts=$(sqlite3 -bail -separator ' ' "$work/courses.sqlite" "SELECT (SELECT user_version FROM pragma_user_version),
      (SELECT count(*) FROM course), (SELECT count(*) FROM deleted_course), (SELECT count(*) FROM record),
      (SELECT count(*) FROM scrap), (SELECT count(*) FROM runner)")
  backend=sqlite
  database_file=courses.sqlite
  source=$db
  counted="in the snapshot"
fi
read -r schema courses deleted records scraps runners <<<"$counts"

if ((no_secret == 0)); then
  cp -- "$secret" "$work/token-secret"
  chmod 600 "$work/token-secret"
fi

json_string() {
  local text=${1//\\/\\\\}
  text=${text//\"/\\\"}
  printf '"%s"' "$text"
}
sha() { sha256sum -- "$1" | cut -d ' ' -f 1; }
image_files=$(find "$work/images" -mindepth 1 -maxdepth 1 -type f | wc -l)
{
  echo "{"
  echo "  \"format\": \"runnect-backup 1\","
  echo "  \"started_at\": \"$started\","
  echo "  \"finished_at\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
  echo "  \"backend\": \"$backend\","
  echo "  \"source\": $(json_string "$source"),"
  echo "  \"images_source\": $(json_string "$images"),"
  echo "  \"schema_version\": $schema,"
  echo "  \"counts\": {\"courses\": $courses, \"deleted_courses\": $deleted, \"records\": $records, \"scraps\": $scraps, \"runners\": $runners, \"images_named\": $referenced, \"image_files\": $image_files},"
  echo "  \"counted\": \"$counted\","
  echo "  \"database\": {\"file\": \"$database_file\", \"sha256\": \"$(sha "$work/$database_file")\"},"
  if ((no_secret == 0)); then
    echo "  \"token_secret\": {\"file\": \"token-secret\", \"sha256\": \"$(sha "$work/token-secret")\"},"
  else
    echo "  \"token_secret\": null,"
  fi
  echo "  \"attempts\": $attempt"
  echo "}"
} >"$work/manifest.json"
(cd "$work" && find . -type f ! -name SHA256SUMS -printf '%P\0' | sort -z | xargs -0 -r sha256sum -- >SHA256SUMS)

if [[ "$target" == *.tar ]]; then
  tar_part="$work.tar"
  tar -C "$work" -cf "$tar_part" . || die 73 "cannot write $tar_part"
  mv -n -T -- "$tar_part" "$target" || true
  [[ ! -e "$tar_part" ]] || die 73 "$target appeared meanwhile; the backup is left in $tar_part"
else
  mv -n -T -- "$work" "$target" || true
  [[ ! -e "$work" ]] || { made_work=0 && die 73 "$target appeared meanwhile; the backup is left in $work"; }
  made_work=0
fi
echo "backed up $backend store $source (schema $schema: $courses course(s), $records record(s)), $image_files image(s)$( ((no_secret)) && echo ", no secret" || echo " and the token secret") into $target"
