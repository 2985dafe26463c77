#!/usr/bin/env bash
# `runnect serve` under load (issue 37; figures in Documentation/Benchmarks.md, "The server under
# load"): wrk from Debian on 127.0.0.1 against a release build serving the benchmark store of
# `runnect-bench serve-store` (100,000 shared courses of 1,000 app runners, with scraps and
# records), on SQLite and on PostgreSQL (a throwaway cluster with fsync, full_page_writes and
# synchronous_commit on). Every run is bounded by --seconds; the server, the cluster and the
# temporary folder are stopped and removed at the end, whatever happens.
#
#   scripts/bench-serve.sh [--backend sqlite|postgresql|both] [--seconds S] [--runs LIST]
#                          [--stores DIR] [--courses N] [--no-build]
#
#   --runs      comma-separated, of: feed,deep,detail,search,record,scrap,course,watchrun,
#               download,overload (default all, in that order: reads first, then writes, then
#               512 connections). watchrun posts 10 km GPX runs as watch files from 4 clients
#               (issue 38), each matched against every course of the store; download fetches the
#               GPX of the sample course SampleTracks/banpo_hangang_night_run.gpx (imported and
#               shared before the server starts) as a visitor, at 64 connections
#   --stores    keep the generated SQLite store in DIR/sqlite and reuse it on the next run (a
#               copy is served, so every run starts from the same store); PostgreSQL's store is
#               generated in each run's new cluster
#   --courses   shared courses in the store (default 100000)
#
# Prints one JSON line a run (wrk's figures, the server's peak resident memory so far and, for
# writes, what the store holds afterwards) and a table on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

backend=sqlite
seconds=10
runs=feed,deep,detail,search,record,scrap,course,watchrun,download,overload
stores=""
courses=100000
build=1
while (($# > 0)); do
  case "$1" in
    --backend) backend="${2:?}"; shift 2 ;;
    --seconds) seconds="${2:?}"; shift 2 ;;
    --runs) runs="${2:?}"; shift 2 ;;
    --stores) stores="${2:?}"; shift 2 ;;
    --courses) courses="${2:?}"; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "usage: scripts/bench-serve.sh [--backend sqlite|postgresql|both] [--seconds S] [--runs LIST] [--stores DIR] [--courses N] [--no-build]" >&2; exit 64 ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] && ((seconds >= 1 && seconds <= 120)) || { echo "bench-serve: --seconds takes 1 to 120" >&2; exit 64; }
command -v wrk >/dev/null || { echo "bench-serve: wrk is missing (apt-get install wrk)" >&2; exit 1; }

if ((build)); then
  swift build -c release --product runnect >&2
  swift build -c release --product runnect-bench >&2
fi
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/runnect-bench-serve.XXXXXX)"
server_pid=""
cluster_dir=""
sampler_pid=""
cleanup() {
  [[ -n "$sampler_pid" ]] && kill "$sampler_pid" 2>/dev/null || true
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  [[ -n "$cluster_dir" ]] && scripts/pg-cluster.sh stop "$cluster_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# A map snapshot as the app sends one: 390x300 PNG, a drawn course over a street grid.
python3 - "$work/map.png" <<'EOF'
import sys
from PIL import Image, ImageDraw
image = Image.new("RGB", (390, 300), (236, 233, 226))
draw = ImageDraw.Draw(image)
for x in range(0, 390, 23):
    draw.line([(x, 0), (x + 40, 300)], fill=(255, 255, 255), width=4)
for y in range(0, 300, 31):
    draw.line([(0, y), (390, y + 12)], fill=(250, 250, 245), width=3)
draw.rectangle([40, 160, 150, 260], fill=(200, 225, 190))
draw.line([(60, 240), (120, 80), (250, 60), (330, 180), (200, 250), (60, 240)], fill=(225, 60, 40), width=5)
image.save(sys.argv[1], optimize=True)
EOF

emit_table() {
  python3 -c '
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
print("%-10s %-9s %5s %9s %8s %8s %8s %7s  %s" % ("backend", "run", "conns", "req/s", "p50 ms", "p99 ms", "non-2xx", "RSS MB", "stored"))
for r in rows:
    print("%-10s %-9s %5d %9.1f %8.2f %8.2f %8d %7.1f  %s" % (r["backend"], r["mode"], r["connections"], r["rps"], r["p50_ms"], r["p99_ms"], r["non_2xx"], r["peak_rss_mb"], r.get("stored", "")))
' "$1" >&2
}

# The server's resident memory, sampled every 0.2 s: the peak goes to $work/rss.
sample_rss() {
  local pid="$1" peak=0 rss
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    ((rss > peak)) && peak=$rss && echo "$peak" >"$work/rss"
    sleep 0.2
  done
}

# How many rows a table has, in the store being served.
count_rows() {
  local table="$1"
  if [[ "$current" == sqlite ]]; then
    sqlite3 "$db" "SELECT count(*) FROM $table"
  else
    "$RUNNECT_PG_BIN/psql" -qAt "$admin_url" -c "SELECT count(*) FROM $table"
  fi
}
scrap_mismatches() {
  local sql="SELECT count(*) FROM course c WHERE c.scrap_count <> (SELECT count(*) FROM scrap s WHERE s.course_id = c.id)"
  if [[ "$current" == sqlite ]]; then sqlite3 "$db" "$sql"; else "$RUNNECT_PG_BIN/psql" -qAt "$admin_url" -c "$sql"; fi
}

# Records on the sample course with a course time (a run that matched nothing would make a
# course of its own instead).
count_sample_records() {
  local sql="SELECT count(*) FROM record WHERE course_id = $sample_course AND course_time_s > 0"
  if [[ "$current" == sqlite ]]; then sqlite3 "$db" "$sql"; else "$RUNNECT_PG_BIN/psql" -qAt "$admin_url" -c "$sql"; fi
}

run_wrk() {  # MODE CONNECTIONS [extra env…]
  local mode="$1" connections="$2"
  shift 2
  local threads=2
  ((connections < 2)) && threads=1
  env BENCH_MODE="$mode" BENCH_TOKENS="$store_dir/tokens.txt" BENCH_QUERIES="$store_dir/search.txt" \
    BENCH_FIRST="$first" BENCH_LAST="$last" BENCH_IMAGE="$work/map.png" \
    BENCH_RECORD_COURSES="$work/record-courses.txt" BENCH_RUN_POINTS="$work/run-points.txt" \
    BENCH_DOWNLOAD_COURSE="$sample_course" "$@" \
    wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s -s scripts/bench-serve.lua "$url" \
    | grep '^{' | tail -n 1
}

report() {  # JSON-FROM-WRK CONNECTIONS [STORED]
  local peak
  peak=$(cat "$work/rss" 2>/dev/null || echo 0)
  python3 -c '
import json, sys
row = json.loads(sys.argv[1])
row.update(backend=sys.argv[2], connections=int(sys.argv[3]), peak_rss_mb=round(int(sys.argv[4]) / 1024, 1))
if sys.argv[5]: row["stored"] = sys.argv[5]
print(json.dumps(row))
' "$1" "$current" "$2" "$peak" "${3:-}" | tee -a "$work/results"
}

bench_backend() {
  current="$1"
  store_dir="$work/store-$current"
  local kept="${stores:+$stores/$current}"
  if [[ "$current" == postgresql ]]; then
    local settings
    settings=$(RUNNECT_PG_DURABLE=1 scripts/pg-cluster.sh start --watch $$)
    eval "$settings"
    cluster_dir="$RUNNECT_PG_DIR"
    admin_url="$RUNNECT_PG_URL"
  fi
  # A kept SQLite store is served from a copy; PostgreSQL's is made anew in each new cluster.
  if [[ "$current" == sqlite && -n "$kept" && -f "$kept/store.json" ]]; then
    echo "bench-serve: reusing the store in $kept" >&2
    mkdir -p "$store_dir"
    cp "$kept/tokens.txt" "$kept/search.txt" "$kept/secret" "$kept/store.json" "$store_dir/"
    sqlite3 "$kept/courses.sqlite" ".backup '$store_dir/courses.sqlite'"
  else
    local args=(serve-store "$store_dir" --courses "$courses")
    [[ "$current" == postgresql ]] && args+=(--url "$admin_url")
    echo "bench-serve: generating the $current store ($courses courses)…" >&2
    "$bin/runnect-bench" "${args[@]}" >/dev/null
    if [[ "$current" == sqlite && -n "$kept" ]]; then
      mkdir -p "$kept"
      cp "$store_dir/tokens.txt" "$store_dir/search.txt" "$store_dir/secret" "$store_dir/store.json" "$kept/"
      sqlite3 "$store_dir/courses.sqlite" ".backup '$kept/courses.sqlite'"
    fi
  fi
  first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["firstCourse"])' "$store_dir/store.json")
  last=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lastCourse"])' "$store_dir/store.json")
  if [[ "$current" == sqlite ]]; then
    db="$store_dir/courses.sqlite"
  else
    db=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["db"])' "$store_dir/store.json")
    admin_url="${RUNNECT_PG_URL/@\/postgres?/@/runnect_serve_bench?}"
  fi
  local sql="SELECT id FROM course WHERE distance_m BETWEEN 3000 AND 42000 ORDER BY id LIMIT 5000"
  if [[ "$current" == sqlite ]]; then sqlite3 "$db" "$sql"; else "$RUNNECT_PG_BIN/psql" -qAt "$admin_url" -c "$sql"; fi \
    >"$work/record-courses.txt"
  local pages=$(((last - first + 1) / 10))

  # The sample 10 km course (3,425 points), imported and shared as the store's first runner
  # would, before the server starts: what the download run fetches and the watch runs follow.
  local store_url="$db"
  [[ "$current" == postgresql ]] && store_url="$admin_url"
  sample_course=$("$bin/runnect" import SampleTracks/banpo_hangang_night_run.gpx --no-match --json --db "$store_url" \
    | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["course_id"])')
  "$bin/runnect" upload "$sample_course" --title "반포 한강공원 달빛 러닝 10K" \
    --description "반포대교 달빛무지개분수에서 출발하는 야간 10K" --db "$store_url" >/dev/null
  python3 - SampleTracks/banpo_hangang_night_run.gpx "$work/run-points.txt" <<'EOF2'
import sys, xml.etree.ElementTree as ET
from datetime import datetime
ns = {"g": "http://www.topografix.com/GPX/1/1"}
with open(sys.argv[2], "w") as out:
    for p in ET.parse(sys.argv[1]).getroot().iterfind(".//g:trkpt", ns):
        when = datetime.strptime(p.find("g:time", ns).text, "%Y-%m-%dT%H:%M:%SZ")
        out.write("%s %s %s %d\n" % (p.get("lat"), p.get("lon"), p.find("g:ele", ns).text,
                                     (when - datetime(1970, 1, 1)).total_seconds()))
EOF2

  mkdir -p "$work/images-$current"
  "$bin/runnect" serve --db "$db" --port 0 --token-secret-file "$store_dir/secret" \
    --images "$work/images-$current" --writes-per-minute 0 --sign-ins-per-minute 0 \
    >"$work/serve.out" 2>"$work/serve-$current.log" &
  server_pid=$!
  for _ in $(seq 1 600); do
    grep -q '^listening on ' "$work/serve.out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve-$current.log" >&2; exit 1; }
    sleep 0.1
  done
  url=$(sed -n 's/^listening on //p' "$work/serve.out")
  # A kept store's access tokens may have expired since it was made: refreshed, as the app
  # refreshes them (GET /api/auth/getNewToken with the refresh token).
  python3 - "$url" "$store_dir/tokens.txt" <<'EOF2'
import json, sys, urllib.request
url, path = sys.argv[1], sys.argv[2]
pairs = [line.split() for line in open(path) if line.strip()]
fresh = []
for access, refresh in pairs:
    request = urllib.request.Request(url + "/api/auth/getNewToken", headers={"accessToken": access, "refreshToken": refresh})
    with urllib.request.urlopen(request) as answer:
        data = json.load(answer)["data"]
    fresh.append("%s %s\n" % (data["accessToken"], data["refreshToken"]))
open(path, "w").writelines(fresh)
EOF2
  rm -f "$work/rss"
  sample_rss "$server_pid" &
  sampler_pid=$!

  local IFS_old="$IFS" run before after line stored
  IFS=','
  for run in $runs; do
    IFS="$IFS_old"
    case "$run" in
      feed) report "$(run_wrk feed 64 BENCH_PAGES=10)" 64 ;;
      deep) line=$(run_wrk feed 64 BENCH_PAGES="$pages"); report "${line/\"mode\":\"feed\"/\"mode\":\"deep\"}" 64 ;;
      detail) report "$(run_wrk detail 64)" 64 ;;
      search) report "$(run_wrk search 64)" 64 ;;
      record)
        before=$(count_rows record)
        line=$(run_wrk record 8)
        sleep 1
        after=$(count_rows record)
        report "$line" 8 "records +$((after - before))" ;;
      scrap)
        line=$(run_wrk scrap 8)
        sleep 1
        report "$line" 8 "scrap counts off: $(scrap_mismatches)" ;;
      course)
        before=$(count_rows course)
        line=$(run_wrk course 8)
        sleep 1
        after=$(count_rows course)
        report "$line" 8 "courses +$((after - before)), image files $(find "$work/images-$current" -type f | wc -l)" ;;
      watchrun)
        before=$(count_rows record)
        local sample_before course_before
        sample_before=$(count_sample_records)
        course_before=$(count_rows course)
        line=$(run_wrk watchrun 4)
        sleep 1
        after=$(count_rows record)
        report "$line" 4 "records +$((after - before)), timed on the sample course +$(($(count_sample_records) - sample_before)), courses +$(($(count_rows course) - course_before))" ;;
      download) report "$(run_wrk download 64)" 64 ;;
      overload) report "$(run_wrk feed 512 BENCH_PAGES=10 BENCH_COUNT_STATUS=1 | sed 's/"mode":"feed"/"mode":"overload"/')" 512 ;;
      *) echo "bench-serve: unknown run $run" >&2; exit 64 ;;
    esac
    IFS=','
  done
  IFS="$IFS_old"

  # Where each request's time went: the server's own figures (mean time by route, and the
  # store's transactions by kind), from /metrics.
  curl -s "$url/metrics" >"$work/metrics.txt" || true
  python3 scripts/bench_serve_metrics.py "$work/metrics.txt" "$current" | tee -a "$work/where"
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=""
  kill "$sampler_pid" 2>/dev/null || true
  sampler_pid=""
  if [[ -n "$cluster_dir" ]]; then
    scripts/pg-cluster.sh stop "$cluster_dir" >/dev/null 2>&1 || true
    cluster_dir=""
  fi
}

case "$backend" in
  sqlite | postgresql) bench_backend "$backend" ;;
  both) bench_backend sqlite; bench_backend postgresql ;;
  *) echo "bench-serve: --backend sqlite, postgresql or both" >&2; exit 64 ;;
esac
cat "$work/results"
cat "$work/where" 2>/dev/null || true
emit_table "$work/results"
