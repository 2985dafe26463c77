#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and the benchmarks: initdb in a new temporary
# folder, run by an unprivileged OS user, listening on a free port of 127.0.0.1 and on a Unix
# socket in that folder; stopping it removes the folder.
#
#   scripts/pg-cluster.sh start [--watch PID]   starts one; prints its settings as shell
#                                               assignments (eval "$(scripts/pg-cluster.sh start)").
#                                               --watch: stopped and removed once PID has exited.
#   scripts/pg-cluster.sh stop DIR              stops the cluster in DIR and removes DIR (only a
#                                               folder this script made: it holds its marker file).
#   scripts/pg-cluster.sh run CMD [ARG…]        starts one, runs CMD with the settings exported,
#                                               stops and removes it however CMD ends; CMD's status.
#   scripts/pg-cluster.sh crash-restart DIR     restarts the server in DIR the hard way
#                                               (pg_ctl restart -m immediate: a crash, recovered on
#                                               start), for the tests of what a client sees then.
#
# The settings: RUNNECT_PG_DIR (the folder, also the socket's), RUNNECT_PG_PORT, RUNNECT_PG_ADMIN
# (the superuser), RUNNECT_PG_PASSWORD (its password, for TCP), RUNNECT_PG_BIN (psql and pg_ctl
# are there) and RUNNECT_PG_URL (the superuser over the socket, database postgres).
#
# As root, the server runs as the system user runnect-pg, created (without a home or a shell)
# if there is none; PostgreSQL refuses to run as root. Otherwise it runs as the caller. Local
# socket connections are trusted (the folder is the cluster's alone), TCP ones need a password
# (scram-sha-256). fsync is off: nothing in a throwaway cluster has to outlive a power cut, while
# a crash of the server alone (pg_ctl -m immediate) still loses no committed transaction.
# RUNNECT_PG_SHARED_BUFFERS (a PostgreSQL size, e.g. 4GB) sets the server's shared_buffers; by
# default initdb's 128MB, enough for the tests. The benchmarks at a million courses set it as a
# server holding that much would be set (PostgreSQL's guide: a quarter of the memory).
# RUNNECT_PG_DURABLE=1 keeps fsync, full_page_writes and synchronous_commit on (PostgreSQL's
# defaults): for every write figure and every "stored" claim of the server benchmarks.
# Needs PostgreSQL 15 with PostGIS 3 (scripts/setup.sh --test installs them).
set -euo pipefail

marker=runnect-pg-cluster
os_user=runnect-pg
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

die() {
  echo "pg-cluster: $*" >&2
  exit 1
}

# The newest PostgreSQL's binaries: $RUNNECT_PG_BIN, else /usr/lib/postgresql/N/bin, else PATH.
bin_dir() {
  if [[ -n "${RUNNECT_PG_BIN:-}" && -x "$RUNNECT_PG_BIN/initdb" ]]; then
    echo "$RUNNECT_PG_BIN"
    return
  fi
  local dirs=(/usr/lib/postgresql/*/bin/initdb)
  if [[ -x "${dirs[0]}" ]]; then
    printf '%s\n' "${dirs[@]%/initdb}" | sort -V | tail -n 1
    return
  fi
  local initdb
  initdb=$(command -v initdb || true)
  [[ -n "$initdb" ]] || die "initdb not found: install PostgreSQL (scripts/setup.sh --test)"
  dirname "$(readlink -f "$initdb")"
}

# Runs a command as the cluster's OS user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "$os_user" -- "$@"
  else
    "$@"
  fi
}

ensure_os_user() {
  [[ $(id -u) -eq 0 ]] || return 0
  [[ -z "$(getent passwd "$os_user" || true)" ]] || return 0
  useradd --system --user-group --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin --comment "Runnect throwaway PostgreSQL clusters" "$os_user"
}

free_port() {
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
    2>&1 || true)
  [[ "$port" =~ ^[0-9]+$ ]] || port=$((20000 + RANDOM % 40000))
  echo "$port"
}

# Closes every file descriptor but standard input, output and error (and bash's own script
# descriptor, 255), so that the server and the watchdog keep nothing of the caller's open:
# Foundation's Process, say, learns that its child exited when a socket it handed down closes,
# and a daemon holding that socket made the caller wait for the cluster to stop.
close_inherited_fds() {
  local fd
  for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    if [[ "$fd" =~ ^[0-9]+$ ]] && ((fd > 2 && fd != 255)); then eval "exec $fd>&-"; fi
  done
}

stop() {
  local dir="${1:?stop needs the cluster folder}"
  [[ -d "$dir" ]] || return 0
  [[ -f "$dir/$marker" ]] || die "$dir was not made by pg-cluster.sh (no $marker file); left alone"
  local bin
  bin=$(cat "$dir/bin")
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" stop -m fast -w -t 20 >>"$dir/pg_ctl.log" 2>&1 \
      || as_owner "$bin/pg_ctl" -D "$dir/data" stop -m immediate -w -t 20 >>"$dir/pg_ctl.log" 2>&1 \
      || true
  fi
  # The watchdog of `start --watch`, unless this is it.
  if [[ -f "$dir/watchdog.pid" ]]; then
    local watchdog
    watchdog=$(cat "$dir/watchdog.pid")
    # It may have ended already: its "no such process" goes to the log about to be removed.
    if [[ "$watchdog" != "$$" ]]; then kill "$watchdog" 2>>"$dir/pg_ctl.log" || true; fi
  fi
  rm -rf -- "$dir"
}

start() {
  local watch=""
  if [[ "${1:-}" == "--watch" ]]; then watch="${2:?--watch needs a process id}"; fi
  # Checked before anything is made.
  local buffers=""
  if [[ -n "${RUNNECT_PG_SHARED_BUFFERS:-}" ]]; then
    [[ "$RUNNECT_PG_SHARED_BUFFERS" =~ ^[0-9]+(kB|MB|GB)$ ]] \
      || die "RUNNECT_PG_SHARED_BUFFERS: a size such as 512MB or 4GB, not $RUNNECT_PG_SHARED_BUFFERS"
    buffers=" -c shared_buffers=$RUNNECT_PG_SHARED_BUFFERS"
  fi
  local durability=" -c fsync=off -c full_page_writes=off"
  if [[ "${RUNNECT_PG_DURABLE:-}" == 1 ]]; then
    durability=" -c fsync=on -c full_page_writes=on -c synchronous_commit=on"
  fi
  close_inherited_fds
  local bin
  bin=$(bin_dir)
  ensure_os_user
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/runnect-pg.XXXXXX")
  # Until the server is up, any exit (a failure, a signal) removes what was made.
  pending="$dir"
  trap '[[ -z "${pending:-}" ]] || stop "$pending" >&2 || true' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  touch "$dir/$marker"
  echo "$bin" >"$dir/bin"
  # The watchdog's own copy of this script: the checkout it ran from may be gone by the time the
  # watched process ends (seen: a check's clone removed first, its cluster's folder left behind).
  cp -- "$self" "$dir/pg-cluster.sh"
  head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$dir/password"
  if [[ $(id -u) -eq 0 ]]; then chown -R "$os_user:" "$dir"; fi
  chmod 700 "$dir"
  # Plain characters only: the settings are printed unquoted, and a socket path has a length limit.
  [[ "$dir" =~ ^[A-Za-z0-9/._-]+$ && ${#dir} -lt 90 ]] \
    || die "$dir: set TMPDIR to a shorter folder of plain characters (letters, digits, / . _ -)"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/password" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
    || die "initdb failed: $(tail -n 5 "$dir/initdb.log")"
  local port attempt
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 30 start -o \
      "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir$durability$buffers" \
      >>"$dir/pg_ctl.log" 2>&1; then
      break
    fi
    # Another process may have taken the port between the probe and the start: try another.
    ((attempt < 5)) || die "the server did not start: $(tail -n 5 "$dir/postgres.log")"
  done
  if [[ -n "$watch" ]]; then
    # `exec`: the stop runs as the watchdog's own process, which it then does not kill; from the
    # folder's copy of this script (bash reads on from the file it opened as the folder goes).
    setsid bash -c 'while kill -0 "$1"; do sleep 1; done; exec bash "$2" stop "$3"' \
      watchdog "$watch" "$dir/pg-cluster.sh" "$dir" </dev/null >"$dir/watchdog.log" 2>&1 &
    echo $! >"$dir/watchdog.pid"
  fi
  pending=""
  echo "RUNNECT_PG_DIR=$dir"
  echo "RUNNECT_PG_PORT=$port"
  echo "RUNNECT_PG_ADMIN=postgres"
  echo "RUNNECT_PG_PASSWORD=$(cat "$dir/password")"
  echo "RUNNECT_PG_BIN=$bin"
  echo "RUNNECT_PG_URL='postgresql://postgres@/postgres?host=$dir&port=$port'"
}

crash_restart() {
  local dir="${1:?crash-restart needs the cluster folder}"
  [[ -f "$dir/$marker" ]] || die "$dir was not made by pg-cluster.sh (no $marker file); left alone"
  # The new server must hold nothing of the caller's open (see close_inherited_fds).
  close_inherited_fds
  local bin
  bin=$(cat "$dir/bin")
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 restart -m immediate \
    >>"$dir/pg_ctl.log" 2>&1 || die "the restart failed: $(tail -n 5 "$dir/postgres.log")"
}

run() {
  (($# > 0)) || die "run needs a command"
  local settings
  settings=$(start) || die "could not start a cluster"
  eval "$settings"
  export RUNNECT_PG_DIR RUNNECT_PG_PORT RUNNECT_PG_ADMIN RUNNECT_PG_PASSWORD RUNNECT_PG_BIN RUNNECT_PG_URL
  trap 'stop "$RUNNECT_PG_DIR"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  local status=0
  "$@" || status=$?
  return "$status"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  run) shift; run "$@" ;;
  crash-restart) shift; crash_restart "$@" ;;
  *) die "usage: pg-cluster.sh start [--watch PID] | stop DIR | run CMD [ARG…] | crash-restart DIR" ;;
esac
