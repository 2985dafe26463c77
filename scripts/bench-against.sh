#!/usr/bin/env bash
# The in-process GPX and FIT benchmarks of this tree beside those of an older commit, run
# alternately in one sitting so that both see the same machine: how a speed target stated as
# "N times today's" is checked against the commit the target was set at.
#
#   scripts/bench-against.sh [REV] [--rounds N]
#
# REV (default a7d6103: main when issue 15 was opened, before its first commit) is checked out
# into a new temporary worktree and built in release mode there (a few minutes); the worktree is
# removed at the end, however the script ends. Needs bench-out/big.gpx and bench-out/big.fit
# (scripts/bench.sh makes both). Prints one line per run and, at the end, the best of the rounds
# for each binary and their ratio: parse (decode) alone, and with full stats, in MB/s.
set -euo pipefail

rev=a7d6103
rounds=3
while (($#)); do
  case "$1" in
    --rounds)
      [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || { echo "bench-against: --rounds needs a positive integer" >&2; exit 64; }
      rounds="$2"
      shift
      ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) rev="$1" ;;
  esac
  shift
done

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
for file in bench-out/big.gpx bench-out/big.fit; do
  [[ -f "$file" ]] || { echo "bench-against: $file is missing: run scripts/bench.sh first" >&2; exit 66; }
done
git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "bench-against: no commit $rev" >&2; exit 64; }

work="$(mktemp -d "${TMPDIR:-/tmp}/runnect-bench-against.XXXXXX")"
cleanup() {
  git worktree remove --force "$work/tree" 2>/dev/null || true
  rm -rf "$work"
  # SwiftPM's lock files for the worktree's build folder, named after its path.
  rm -f "${TMPDIR:-/tmp}/$(printf '%s' "$work/tree/.build" | tr / _)"*.lock
}
trap cleanup EXIT

echo "bench-against: building $rev in $work/tree (release)" >&2
git worktree add --quiet --detach "$work/tree" "$rev"
(cd "$work/tree" && swift build -c release --product runnect-bench >"$work/build.log" 2>&1) \
  || { tail -20 "$work/build.log" >&2; echo "bench-against: the build of $rev failed" >&2; exit 1; }
echo "bench-against: building this tree (release)" >&2
swift build -c release --product runnect-bench >"$work/build-head.log" 2>&1 \
  || { tail -20 "$work/build-head.log" >&2; echo "bench-against: the build of this tree failed" >&2; exit 1; }

old="$work/tree/.build/release/runnect-bench"
new="$root/.build/release/runnect-bench"
head=$(git rev-parse --short HEAD)
for ((round = 1; round <= rounds; round++)); do
  for pair in "$rev:$old" "$head:$new"; do
    name="${pair%%:*}"
    binary="${pair#*:}"
    for work_kind in gpx fit; do
      line=$("$binary" "$work_kind" "bench-out/big.$work_kind" --repeat 5 2>/dev/null | tail -n 1)
      echo "{\"commit\":\"$name\",\"round\":$round,\"bench\":\"$work_kind\",\"result\":$line}"
    done
  done
done | tee "$work/runs.jsonl"

python3 - "$work/runs.jsonl" "$rev" "$head" <<'EOF'
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
old, new = sys.argv[2], sys.argv[3]
def best(commit, bench, key):
    return max(r["result"][key] for r in runs if r["commit"] == commit and r["bench"] == bench)
rows = [("gpx", "parse_mb_per_s", "GPX parse"), ("gpx", "mb_per_s", "GPX parse + full stats"),
        ("fit", "mb_per_s", "FIT decode"), ("fit", "stats_mb_per_s", "FIT decode + full stats")]
print(f"| best of the rounds, MB/s | {old} | {new} | ratio |")
print("|---|---|---|---|")
for bench, key, label in rows:
    a, b = best(old, bench, key), best(new, bench, key)
    print(f"| {label} | {a:.0f} | {b:.0f} | {b / a:.2f}x |")
EOF
