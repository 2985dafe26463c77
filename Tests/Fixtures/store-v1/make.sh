#!/usr/bin/env bash
# Made once, by the code of the commit named in README.md beside this file, and never again: the
# fixture is what that code wrote, so that every later schema must open and read it identically.
# Running this with newer code writes a newer file; do not commit that over the fixture.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runnect=${RUNNECT:-.build/debug/runnect}
out=Tests/Fixtures/store-v1
db=$(mktemp -d)/courses.sqlite
run() { "$runnect" "$@" --db "$db"; }
run import SampleTracks --user minji --departure "서울 서초구 반포동 신반포로11길 40" --departure-name "반포 한강공원" >/dev/null
run draw --points "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644" --title "잠실 아침 3K" \
  --description "첫 줄
둘째 줄" --user jisoo >/dev/null
run upload 1 --title "반포 한강공원 달빛 러닝 10K" --description "무지개분수까지 왕복" --user minji >/dev/null
run upload 3 --title "남산 순환로" --description "Hills, 'quotes' & <markup>" --user minji >/dev/null
run upload 8 --title "잠실 아침 3K" --description "둘째 줄" --user jisoo >/dev/null
run scrap 1 --user jisoo >/dev/null
run scrap 3 --user jisoo >/dev/null
run scrap 1 --user haneul >/dev/null
cp "$db" "$out/courses.sqlite"
sqlite3 "$out/courses.sqlite" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null
rm -rf "$(dirname "$db")"

# What that code printed for these commands over the fixture: a later runnect must print the same.
python3 - "$runnect" "$out" <<'PY'
import hashlib, json, shutil, subprocess, sys, tempfile, os
runnect, out = sys.argv[1], sys.argv[2]
commands = [("minji", ["list", "--json", "--limit", "50"]), ("minji", ["list"]),
            ("jisoo", ["list", "--shared", "--sort", "scrap", "--json"]), ("jisoo", ["list", "--scrapped"]),
            ("haneul", ["search", "한강", "--json"]), ("minji", ["search", "ㄴㅅ", "--all"]),
            ("minji", ["search", "잠실", "아침", "--all", "--json"])]
commands += [("jisoo", ["show", str(i), "--json"]) for i in range(1, 9)]
commands += [("minji", ["show", "1"]), ("jisoo", ["show", "8"])]
commands += [("minji", ["export", "geojson", str(i)]) for i in range(1, 9)]
commands += [("minji", ["export", "svg", "1", "--profile"])]
with tempfile.TemporaryDirectory() as scratch:
    db = os.path.join(scratch, "courses.sqlite")
    shutil.copy(os.path.join(out, "courses.sqlite"), db)
    with open(os.path.join(out, "expected.jsonl"), "w") as f:
        for user, args in commands:
            done = subprocess.run([runnect, *args, "--db", db, "--user", user], capture_output=True, check=True)
            line = {"user": user, "args": args, "stdout_sha256": hashlib.sha256(done.stdout).hexdigest()}
            if len(done.stdout) <= 65536:
                line["stdout"] = done.stdout.decode()
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
PY
