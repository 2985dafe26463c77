#!/usr/bin/env bash
# Search and near-me latency and the import rate of two builds, in alternating pairs in one
# sitting (old, new; then new, old; …), so that both see the same machine: how a "within 10 % of
# today's" claim is checked (issue 35).
#
#   scripts/bench-pairs.sh OLD_BIN NEW_BIN [--rounds N] [--courses N] [--out FILE]
#
# OLD_BIN and NEW_BIN are release builds of runnect-bench (e.g. one built in a worktree of the
# older commit: `git worktree add --detach /tmp/old REV && (cd /tmp/old && swift build -c
# release --product runnect-bench)`). Each round runs `search COURSES`, `near COURSES --keep`
# (the near-me store is built once, by the first run, in a temporary folder, and read by both)
# and `import` with each binary. Every JSON line goes to FILE (default bench-out/pairs.jsonl),
# tagged with the binary and the round; the summary prints, for each measure, the median of
# the rounds for each binary and new/old.
set -euo pipefail
(($# >= 2)) || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
old="$1" new="$2"
shift 2
rounds=5 courses=100000 out=bench-out/pairs.jsonl
while (($#)); do
  case "$1" in
    --rounds) rounds="$2"; shift ;;
    --courses) courses="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) echo "bench-pairs: unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done
for binary in "$old" "$new"; do [[ -x "$binary" ]] || { echo "bench-pairs: $binary is no executable" >&2; exit 66; }; done
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$out")"
: >"$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/runnect-bench-pairs.XXXXXX")"
trap 'rm -rf "$work"' EXIT

run() {  # NAME BINARY ROUND ARGS…
  local name="$1" binary="$2" round="$3"
  shift 3
  "$binary" "$@" 2>>"$work/stderr.log" | sed "s/^{/{\"build\":\"$name\",\"round\":$round,/" >>"$out"
}
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then order=("old:$old" "new:$new"); else order=("new:$new" "old:$old"); fi
  for pair in "${order[@]}"; do
    name="${pair%%:*}" binary="${pair#*:}"
    echo "bench-pairs: round $round, $name" >&2
    run "$name" "$binary" "$round" search "$courses"
    run "$name" "$binary" "$round" near "$courses" --keep "$work/near.sqlite"
    run "$name" "$binary" "$round" import
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def figure(kind_prefix, key, reduce):
    by = {}
    for build in ("old", "new"):
        per_round = {}
        for r in rows:
            if r.get("build") != build: continue
            kind = r.get("kind") or r.get("work") or ""
            if not kind.startswith(kind_prefix) or key not in r: continue
            per_round.setdefault(r["round"], []).append(r[key])
        by[build] = [reduce(v) for _, v in sorted(per_round.items())]
    return by
measures = [
    ("search p95, mean over the queries (ms)", figure("search_query", "p95_ms", statistics.mean)),
    ("search p95, worst query (ms)", figure("search_query", "p95_ms", max)),
    ("near-me p95, mean over the points (ms)", figure("near_query", "p95_ms", statistics.mean)),
    ("near-me p95, worst point (ms)", figure("near_query", "p95_ms", max)),
    ("import (courses/s)", figure("import", "courses_per_s", statistics.mean)),
]
for name, by in measures:
    if not by["old"] or not by["new"]:
        print(f"{name}: no figures"); continue
    old, new = statistics.median(by["old"]), statistics.median(by["new"])
    print(f"{name}: old {old:.2f}, new {new:.2f}, new/old {new / old:.3f} "
          f"(rounds old {', '.join(f'{x:.2f}' for x in by['old'])}; new {', '.join(f'{x:.2f}' for x in by['new'])})")
PY
