#!/usr/bin/env bash
# PostgreSQL search and near-me latency of several runnect-bench variants on one store, in
# alternating rounds in one sitting (the order rotates each round), so that every variant sees the
# same server and the same machine: how issue 35's "within 10 % of today's" is checked on
# PostgreSQL, and how `runnect_courses` is weighed against a prepared statement.
#
#   scripts/pg-cluster.sh run scripts/bench-pg-pairs.sh [--rounds N] [--courses N] [--repeat N]
#       [--out FILE] NAME=BINARY[,EXTRA_ARG…] NAME=BINARY[,EXTRA_ARG…] …
#
# Needs RUNNECT_PG_URL (an administrator; `scripts/pg-cluster.sh run` exports it). The first
# variant's binary builds the stores once (`runnect-bench pg search|near COURSES --keep-database`:
# the benchmark corpus built in SQLite, copied by `db copy`); then each round times the queries of
# every variant on those databases (`--database NAME --postgres-only --repeat N`). EXTRA_ARGs,
# comma-separated, go to that variant's runs (e.g. `new-prepared=.build/release/runnect-bench,--courses-read,prepared`).
# Every JSON line goes to FILE (default bench-out/pg-pairs.jsonl), tagged with the variant and the
# round; the summary prints, for each measure, each variant's median over the rounds. The
# databases are dropped at the end.
set -euo pipefail
usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
rounds=5 courses=100000 repeat=20 out=bench-out/pg-pairs.jsonl
variants=()
while (($#)); do
  case "$1" in
    --rounds) rounds="$2"; shift ;;
    --courses) courses="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --out) out="$2"; shift ;;
    *=*) variants+=("$1") ;;
    *) usage ;;
  esac
  shift
done
((${#variants[@]} >= 2)) || usage
[[ -n "${RUNNECT_PG_URL:-}" ]] || { echo "bench-pg-pairs: no RUNNECT_PG_URL: run it under scripts/pg-cluster.sh run" >&2; exit 64; }
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$out")"
: >"$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/runnect-bench-pg-pairs.XXXXXX")"
databases=()
cleanup() {
  for database in "${databases[@]}"; do
    "$RUNNECT_PG_BIN/psql" -X -q -d "$RUNNECT_PG_URL" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

binary_of() { local spec="${1#*=}"; echo "${spec%%,*}"; }
extra_of() { local spec="${1#*=}"; [[ "$spec" == *,* ]] && echo "${spec#*,}" | tr ',' ' ' || true; }
first="$(binary_of "${variants[0]}")"
for variant in "${variants[@]}"; do
  binary="$(binary_of "$variant")"
  [[ -x "$binary" ]] || { echo "bench-pg-pairs: $binary is no executable" >&2; exit 66; }
done

declare -A database_of
for work_kind in search near; do
  echo "bench-pg-pairs: building the $work_kind store ($courses courses)" >&2
  "$first" pg "$work_kind" "$courses" --url "$RUNNECT_PG_URL" --repeat 1 --keep-database \
    >/dev/null 2>"$work/build-$work_kind.log"
  database="$(sed -n 's/^kept database //p' "$work/build-$work_kind.log" | tail -n1)"
  [[ -n "$database" ]] || { cat "$work/build-$work_kind.log" >&2; exit 1; }
  databases+=("$database")
  database_of[$work_kind]="$database"
done

count=${#variants[@]}
for ((round = 1; round <= rounds; round++)); do
  for ((k = 0; k < count; k++)); do
    variant="${variants[$(((k + round - 1) % count))]}"
    name="${variant%%=*}" binary="$(binary_of "$variant")"
    read -r -a extra <<<"$(extra_of "$variant")"
    echo "bench-pg-pairs: round $round, $name" >&2
    for work_kind in search near; do
      "$binary" pg "$work_kind" "$courses" --url "$RUNNECT_PG_URL" --database "${database_of[$work_kind]}" \
        --postgres-only --repeat "$repeat" "${extra[@]}" 2>>"$work/stderr.log" |
        sed "s/^{/{\"variant\":\"$name\",\"round\":$round,/" >>"$out"
    done
  done
done

python3 - "$out" "${variants[@]%%=*}" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
names = sys.argv[2:]
def figure(prefix, key, reduce):
    by = {}
    for name in names:
        per_round = {}
        for r in rows:
            kind = r.get("kind") or r.get("work") or ""
            if r.get("variant") != name or r.get("backend") != "postgresql" or not kind.startswith(prefix) or key not in r:
                continue
            per_round.setdefault(r["round"], []).append(r[key])
        by[name] = [reduce(v) for _, v in sorted(per_round.items())]
    return by
for title, by in [
    ("search p50, mean over the queries (ms)", figure("search_query", "p50_ms", statistics.mean)),
    ("search p95, mean over the queries (ms)", figure("search_query", "p95_ms", statistics.mean)),
    ("search p95, worst query (ms)", figure("search_query", "p95_ms", max)),
    ("near-me p50, mean over the points (ms)", figure("near_query", "p50_ms", statistics.mean)),
    ("near-me p95, mean over the points (ms)", figure("near_query", "p95_ms", statistics.mean)),
    ("near-me p95, worst point (ms)", figure("near_query", "p95_ms", max)),
]:
    base = statistics.median(by[names[0]]) if by[names[0]] else None
    parts = []
    for name in names:
        if not by[name]:
            parts.append(f"{name} no figures"); continue
        median = statistics.median(by[name])
        ratio = f" ({median / base:.3f})" if base else ""
        parts.append(f"{name} {median:.2f}{ratio} [{', '.join(f'{x:.2f}' for x in by[name])}]")
    print(f"{title}: " + "; ".join(parts))
PY
