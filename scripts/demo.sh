#!/usr/bin/env bash
# Quickstart 1: install what is missing, build runnect (release), and run it on SampleTracks/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product runnect >&2
bin=$(swift build -c release --show-bin-path)/runnect

shopt -s nullglob
samples=(SampleTracks/*.gpx SampleTracks/*.json SampleTracks/*.geojson)
echo "== runnect stats SampleTracks/ =="
"$bin" stats "${samples[@]}"
echo
echo "== runnect stats --splits SampleTracks/banpo_hangang_night_run.gpx =="
"$bin" stats --splits SampleTracks/banpo_hangang_night_run.gpx
echo
echo "== runnect stats --json (NDJSON, one line per file) =="
"$bin" stats --json "${samples[@]}"
