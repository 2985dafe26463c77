#!/usr/bin/env bash
# Benchmark of GPX parse + full stats (and of GPX and FIT writing of the same file, tapped-points
# JSON beside it, the batch geodesic path, FIT decoding, SVG preview and GeoJSON write, and the
# discovery-index export of 10,000 stored courses), with peers side by side.
#
#   scripts/bench.sh                  big.gpx (200,000 points, 70 MB): runnect, gpxpy, GPSBabel;
#                                     big-points.json (1,306,000 points, 64 MB): runnect
#   scripts/bench.sh --quick          a 20,000-point file in bench-out/quick/ (smoke test)
#   scripts/bench.sh --repeat N       runs of each peer (processes, best of N; default 1, gpxpy ~9 s);
#                                     runnect: best of 5 in-process, its stats process best of max(N, 10)
#   scripts/bench.sh --install-peers  first: pip install gpxpy, apt-get install -y gpsbabel (and time)
#
# Needs ../shared/bench/gen_workloads.py (or RUNNECT_SHARED=/path/to/shared). Writes bench-out/:
# big.gpx (+ .stamp.json, reused while its size and sha256 match), results.jsonl (raw JSON lines)
# and results.md (the table printed at the end). Peers that are not installed are skipped, never
# installed without --install-peers; nothing else touches the network.
set -euo pipefail

usage() {
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

quick=0
install_peers=0
peer_repeat=1
runnect_repeat=5
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --install-peers) install_peers=1 ;;
    --repeat)
      [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --repeat needs a positive integer" >&2; exit 64; }
      peer_repeat="$2"
      shift
      ;;
    --repeat=*)
      peer_repeat="${1#--repeat=}"
      [[ "$peer_repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --repeat needs a positive integer" >&2; exit 64; }
      ;;
    -h | --help) usage 0 ;;
    *) echo "bench: unknown option: $1" >&2; usage 64 >&2 ;;
  esac
  shift
done

cd "$(dirname "$0")/.."
root=$(pwd)
shared="${RUNNECT_SHARED:-$root/../shared}"
if [[ ! -f "$shared/bench/gen_workloads.py" ]]; then
  echo "bench: $shared/bench/gen_workloads.py not found: the workload generator lives in the" >&2
  echo "       shared/ folder beside the repo; set RUNNECT_SHARED=/path/to/shared to point at it" >&2
  exit 2
fi
shared=$(cd "$shared" && pwd)
command -v python3 >/dev/null || { echo "bench: python3 is needed (workload generator, peers, table)" >&2; exit 2; }
helper="$root/scripts/bench_peers.py"

step() { printf '\n== %s\n' "$*" >&2; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# ---- peers, installed only when asked ---------------------------------------------------------
if ((install_peers)); then
  step "installing peers (--install-peers)"
  python3 -m pip install gpxpy
  apt_packages=()
  command -v gpsbabel >/dev/null || apt_packages+=(gpsbabel)
  [[ -x /usr/bin/time ]] || apt_packages+=(time)
  if ((${#apt_packages[@]})); then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${apt_packages[@]}"
  fi
fi

# ---- build -------------------------------------------------------------------------------------
step "system libraries (scripts/setup.sh)"
scripts/setup.sh
step "building runnect-bench and runnect, release only (debug builds are 10-50x slower and say nothing about the product)"
swift build -c release --product runnect-bench >&2
swift build -c release --product runnect >&2
bench_bin="$(swift build -c release --show-bin-path)/runnect-bench"
runnect_bin="$(swift build -c release --show-bin-path)/runnect"
[[ -x "$bench_bin" ]] || { echo "bench: $bench_bin was not built" >&2; exit 1; }
[[ -x "$runnect_bin" ]] || { echo "bench: $runnect_bin was not built" >&2; exit 1; }

# ---- workload ----------------------------------------------------------------------------------
if ((quick)); then
  outdir=bench-out/quick
  points=20000
  geodesic_n=100000
  index_courses=1000
  search_courses=10000
  import_files=1000
  points_json=128000
else
  outdir=bench-out
  points=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[1]); import gen_workloads as g; print(g.BIG_POINTS)' "$shared/bench")
  geodesic_n=1000000
  index_courses=10000
  search_courses=100000
  import_files=10000
  points_json=1306000
fi
mkdir -p "$outdir"
step "workload: $outdir/big.gpx ($points points)"
gpx=$(python3 "$helper" workload "$shared" "$outdir" "$points")

results="$outdir/results.jsonl"
table="$outdir/results.md"
: >"$results"
busy_before=$(python3 "$helper" cpubusy 1)  # other work on the cores, measured just before the runs

# ---- runnect -----------------------------------------------------------------------------------
measure_read() {  # mode (gpx or points), file: best of $runnect_repeat, then one run for its peak memory
  step "runnect: $1 $2 --repeat $runnect_repeat (best of $runnect_repeat, one process)"
  python3 "$helper" measure --set role=best --set "repeat=$runnect_repeat" -- \
    "$bench_bin" "$1" "$2" --repeat "$runnect_repeat" >>"$results"
  step "runnect: $1 $2 --repeat 1 (peak memory of exactly one parse)"
  python3 "$helper" measure --set role=single --set repeat=1 -- \
    "$bench_bin" "$1" "$2" --repeat 1 >>"$results"
}
measure_read gpx "$gpx"

# Writing beside reading: the same file, read once, written as GPX (a run: times, gpxtpx heart
# rate and cadence) and as FIT (an activity file, and a course file), streamed into bench-out/.
for spec in "gpx run" "fit run" "fit course"; do
  set -- $spec
  step "runnect: write $gpx as $1 ($2), best of $runnect_repeat"
  python3 "$helper" measure -- "$bench_bin" write "$gpx" "$outdir" --format "$1" --kind "$2" \
    --repeat "$runnect_repeat" >>"$results"
done

# Tapped points: the service's JSON shape, generated by runnect-bench (seeded, the same bytes on
# every run; 64 MB for the full run), read through the same ActivityReader path as GPX.
points_file="$outdir/big-points.json"
step "workload: $points_file ($points_json points, runnect-bench points-file)"
"$bench_bin" points-file "$points_file" "$points_json"
measure_read points "$points_file"

# Numbers: Runnect's DecimalParser against libstdc++'s std::from_chars on big.gpx's coordinates
# and elevations (why the hand-written parser stays: Documentation/Benchmarks.md).
step "runnect: numbers $gpx (DecimalParser vs std::from_chars, best of 7)"
"$bench_bin" numbers "$gpx" --repeat 7 >"$outdir/numbers.jsonl"

# Many files at once: gen_workloads.py's many/ (2,000 one-hour GPX runs, 1.3 GB; 40 with --quick),
# `runnect stats --json` with --jobs 1 and --jobs 2, alternating, three rounds each.
many_dir="$outdir/many-workload"
if [[ ! -d "$many_dir/many" ]]; then
  step "workload: $many_dir/many (gen_workloads.py${quick:+ --quick})"
  python3 "$shared/bench/gen_workloads.py" "$many_dir" $( ((quick)) && echo --quick) >&2
fi
for round in 1 2 3; do
  for jobs in 1 2; do
    step "runnect: stats --json --jobs $jobs many/*.gpx (round $round)"
    python3 "$helper" measure --set work=stats-many --set "jobs=$jobs" --set "round=$round" -- \
      "$runnect_bin" stats --json --jobs "$jobs" "$many_dir"/many/*.gpx >>"$outdir/many.jsonl"
  done
done

step "runnect: geodesic $geodesic_n"
python3 "$helper" measure -- "$bench_bin" geodesic "$geodesic_n" >>"$results"

step "runnect: export 100000 --repeat 5 (SVG preview and GeoJSON write of a 100,000-point course)"
"$bench_bin" export 100000 --repeat 5 >>"$results"
# FIT: the corpus's FIT files chained into one file (a valid chained FIT stream), copied until large.
fit_dir="$shared/tracks/fit"
if compgen -G "$fit_dir/*.fit" >/dev/null; then
  fit_copies=$((quick ? 4 : 48))
  big_fit="$outdir/big.fit"
  : >"$big_fit"
  for ((i = 0; i < fit_copies; i++)); do cat "$fit_dir"/*.fit >>"$big_fit"; done
  step "runnect: fit $big_fit ($fit_copies copies of $fit_dir/*.fit chained), best of $runnect_repeat"
  python3 "$helper" measure -- "$bench_bin" fit "$big_fit" --repeat "$runnect_repeat" >>"$results"
  step "runnect: fit $big_fit --repeat 1 (one cold run in a fresh process)"
  python3 "$helper" measure -- "$bench_bin" fit "$big_fit" --repeat 1 >>"$results"
else
  echo "runnect fit: skipped: no FIT files in $fit_dir" >&2
fi

step "runnect: index $index_courses (discovery-index export of a generated store, one core)"
python3 "$helper" measure -- "$bench_bin" index "$index_courses" >>"$results"

# The course store: search latency per query class goes to its own file (one line per query;
# the summary table is printed on stderr), bulk import of GPX files into the results table.
step "runnect: search $search_courses (store of generated courses, fixed Korean/English query set, one core)"
"$bench_bin" search "$search_courses" >"$outdir/search.jsonl"
# Runs matched to courses: the matcher alone (one run against courses of each kind), then a run
# imported as a record into a store of generated courses (milliseconds per import, parts apart).
step "runnect: matching 10000 (one 10,000-point run against 100 courses of each kind, one core)"
"$bench_bin" matching 10000 >"$outdir/matching.jsonl"
step "runnect: store-matching $search_courses (a 10,000-point run imported as a record, 40 times, one core)"
"$bench_bin" store-matching "$search_courses" --imports 40 >"$outdir/store-matching.jsonl"
step "runnect: import $import_files (bulk import of generated 200-point GPX files, runnect import's pipeline)"
python3 "$helper" measure -- "$bench_bin" import "$import_files" >>"$results"

# ---- peers -------------------------------------------------------------------------------------
# runnect beside them as they run: the whole `runnect stats --json` process (start-up, read,
# stats, JSON, exit), best of $stats_repeat processes; its ratios to the peers' processes are
# printed under the table.
stats_repeat=$((peer_repeat > 10 ? peer_repeat : 10))
step "runnect: stats --json $gpx, the whole process, best of $stats_repeat"
python3 "$helper" runnect-stats "$runnect_bin" "$gpx" --repeat "$stats_repeat" >>"$results"

skip() {  # tool, reason
  echo "$1: skipped: $2" >&2
  python3 -c 'import json, sys; print(json.dumps({"tool": sys.argv[1], "skipped": sys.argv[2]}))' \
    "$1" "$2" >>"$results"
}

step "gpxpy: parse + length_2d + get_moving_data + get_uphill_downhill + get_bounds, best of $peer_repeat"
if python3 -c 'import gpxpy' 2>/dev/null; then
  python3 "$helper" gpxpy "$gpx" --repeat "$peer_repeat" >>"$results"
else
  skip gpxpy "not installed (pip install gpxpy, or rerun with --install-peers)"
fi

step "GPSBabel: gpsbabel -i gpx -f $gpx -o geojson -F /dev/null, best of $peer_repeat"
if ! command -v gpsbabel >/dev/null; then
  skip gpsbabel "not installed (apt-get install gpsbabel, or rerun with --install-peers)"
elif ! grep -Eq '^[[:space:]]+geojson[[:space:]]' <<<"$(gpsbabel -h 2>&1 || true)"; then
  # (not "gpsbabel -h | grep -q": grep exits early and pipefail turns gpsbabel's SIGPIPE into a failure)
  skip gpsbabel "this gpsbabel has no geojson output format (see gpsbabel -h)"
else
  python3 "$helper" gpsbabel "$gpx" --repeat "$peer_repeat" >>"$results"
fi

echo "GeographicLib GeodSolve (50k pairs): skipped (optional; see ../shared/bench/PEERS.md)" >&2

# ---- table -------------------------------------------------------------------------------------
cores=$(nproc)
cpu=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
cpu=${cpu:-unknown CPU}
mem_gib=$(awk '/^MemTotal:/ {printf "%.1f", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo "?")
swift_version=$(swift --version 2>/dev/null | grep -m1 -o 'Swift version [^ ]*' || echo "Swift ?")
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "")
if [[ -n "$commit" ]] && ! git diff --quiet HEAD -- Sources Package.swift 2>/dev/null; then
  commit="$commit+local changes"
fi
sha=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sha256"])' "$gpx.stamp.json")
bytes=$(wc -c <"$gpx")

python3 "$helper" table "$results" --commit "${commit:+($commit)}" \
  --machine "Machine: $cores cores (nproc), $cpu, $mem_gib GiB RAM; $swift_version, release build." \
  --machine "runnect reads a GPX file of 4 MB or more on two threads (runnect-bench's gpx rows and the stats process); its other rows use one core; each peer is one single-threaded process." \
  --machine "Workload: $gpx, $bytes bytes, $points points, sha256 $sha." \
  --machine "CPU busy (all $cores cores) in the second before the runs: $busy_before; other work on the machine makes figures noisy." \
  >"$table"

echo >&2
cat "$table"
echo
echo "Wrote $table and $results"
