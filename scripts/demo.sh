#!/usr/bin/env bash
# Quickstart 1: install what is missing, build runnect (release), and run it on SampleTracks/:
# stats, then a course-store session in a scratch SQLite database (.build/demo/courses.sqlite,
# made anew each run, so your own ~/.local/share/runnect/courses.sqlite is never touched).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# SQLite only (--disable-default-traits): no PostgreSQL client and no TLS stack to compile.
swift build -c release --product runnect --disable-default-traits >&2
bin=$(swift build -c release --disable-default-traits --show-bin-path)/runnect

shopt -s nullglob
samples=(SampleTracks/*.gpx SampleTracks/*.json SampleTracks/*.geojson)
run() {
  printf '\n$ runnect %s\n' "$*"
  "$bin" "$@"
}
echo "== stats =="
run stats "${samples[@]}"
run stats --splits SampleTracks/banpo_hangang_night_run.gpx
run stats --json SampleTracks/namsan_loop_two_segments.gpx

echo
echo "== course store (SQLite) =="
export RUNNECT_DB=.build/demo/courses.sqlite
# A store named by RUNNECT_DB is made by import, in a folder that exists.
mkdir -p "$(dirname "$RUNNECT_DB")"
rm -f "$RUNNECT_DB" "$RUNNECT_DB-wal" "$RUNNECT_DB-shm"
# Sorted file order: ids 1 반포, 2 청계천, 3 경의선숲길, 4 남산, 5 올림픽공원, 6 석촌호수, 7 여의도.
run import SampleTracks/banpo_hangang_night_run.gpx --user jisoo \
  --departure "서울 서초구 반포동 신반포로11길 40" --departure-name "반포한강공원"
run import SampleTracks --user jisoo
run upload 1 --user jisoo --title "반포 한강 야간 러닝" --description "반포대교 무지개분수까지 왕복 10km"
run upload 4 --user jisoo --title "남산 순환로 아침 러닝" --description "업힐 구간 있음, 두 구간으로 기록"
run draw --user minji --points-file SampleTracks/seokchon_lake_tapped.json --title "석촌호수 한 바퀴" \
  --departure "서울 송파구 잠실동 잠실로 180" --departure-name "석촌호수"
run upload 8 --user minji --title "석촌호수 한 바퀴" --description "호수 둘레 평지 코스"
run scrap 1 --user minji
run scrap 1 --user haneul
run scrap 8 --user haneul
run list --shared --sort scrap
run search 한강
run search ㅅㅊㅎㅅ
run search 반포 --json

echo
echo "== exports (GeoJSON, SVG) =="
run export geojson SampleTracks/seokchon_lake_tapped.json --decimals 5
run export geojson 1 --simplify 5 -o .build/demo/banpo.geojson
run export svg 4 --profile -o .build/demo/namsan.svg
run export svg "${samples[@]}" -o .build/demo/previews --size 320x240

echo
echo "== courses to the watch (GPX, TCX, FIT) =="
run export gpx 1 -o .build/demo/banpo.gpx
run export fit 1 -o .build/demo/banpo.fit
run export tcx 4 --pace 5:30 -o .build/demo/namsan.tcx
run export gpx "${samples[@]}" -o .build/demo/gpx --as route

echo
echo "== discovery index (static site) =="
run index .build/demo/site
run index .build/demo/site --json     # a re-run: every file unchanged
ls .build/demo/site .build/demo/site/courses
