#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer (swiftc -sanitize=fuzzer,address) for SECONDS (default 60).
#
#   scripts/fuzz.sh fit|xml [SECONDS] [libFuzzer options…]
#
#   fit  the FIT decoder (Fuzz/FITFuzzTarget.swift)
#   xml  the XML scanner under the GPX and TCX readers, behind format detection and gzip
#        (Fuzz/XMLFuzzTarget.swift)
#
# Builds .build/fuzz-TARGET/fuzz-TARGET from the target file, Fuzz/FuzzSupport.swift and
# the readers' sources (no GeographicLib, so no C++ is linked). Seeds are copied at run time into a
# temporary folder that is removed afterwards: the target's files of ../shared/tracks (or
# $RUNNECT_SHARED/tracks) when they are there, and for xml also SampleTracks' GPX files and gzip
# copies of a few seeds. What libFuzzer finds on the way stays in .build/fuzz-TARGET/corpus, and
# inputs that crash are written to .build/fuzz-TARGET/artifacts/; rerun one with
#   .build/fuzz-TARGET/fuzz-TARGET .build/fuzz-TARGET/artifacts/crash-…
# Exit status: 0 when nothing was found, libFuzzer's non-zero status otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
usage="usage: scripts/fuzz.sh fit|xml [SECONDS] [libFuzzer options…]"
target="${1:-}"
[[ "$target" == fit || "$target" == xml ]] || { echo "$usage" >&2; exit 64; }
shift
seconds="${1:-60}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number; $usage" >&2; exit 64; }
shift || true

out="$root/.build/fuzz-$target"
mkdir -p "$out/corpus" "$out/artifacts"
seeds=$(mktemp -d "${TMPDIR:-/tmp}/runnect-fuzz-$target-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
shared="${RUNNECT_SHARED:-$root/../shared}"
options=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
# What every reader needs besides the readers themselves: the model, times, text rules, the
# time-order warnings (and the formatting they use), and the targets' shared checks.
common=(
      Sources/RunnectKit/Time/*.swift
      Sources/RunnectKit/Text/*.swift
      Sources/RunnectKit/Model/*.swift
      Sources/RunnectKit/Analysis/TimeOrder.swift
      Sources/RunnectKit/Analysis/Activity+TimeOrder.swift
      Sources/RunnectKit/Formatting/*.swift
      Fuzz/FuzzSupport.swift
)
case "$target" in
  fit)
    module=RunnectFITFuzz
    sources=(
      Sources/RunnectKit/Readers/FIT/*.swift
      Sources/RunnectKit/Readers/Bytes/ByteStream.swift
      Sources/RunnectKit/Readers/ReadError.swift
      "${common[@]}"
      Fuzz/FITFuzzTarget.swift
    )
    compile=()
    extensions=(fit)
    options+=(-max_len=300000)
    ;;
  xml)
    module=RunnectXMLFuzz
    # Every reader: ActivityReader detects the format and reaches the others (zlib for gzip).
    sources=(
      Sources/RunnectKit/Readers/*.swift
      Sources/RunnectKit/Readers/*/*.swift
      "${common[@]}"
      Fuzz/XMLFuzzTarget.swift
    )
    compile=(-I Sources/CZlib -lz)
    extensions=(gpx tcx)
    # Whole corpus files run to megabytes; 64 KiB keeps each run fast and still holds whole
    # documents of the small ones and the heads of the big ones.
    options+=(-max_len=65536 -dict="$seeds.dict")
    cp SampleTracks/*.gpx "$seeds/"
    # The XML tokens the readers act on, so mutations keep producing markup they parse.
    trap 'rm -rf "$seeds" "$seeds.dict"' EXIT
    for token in '<?xml version="1.0"?>' '<!--' '-->' '<![CDATA[' ']]>' '<!DOCTYPE' '&amp;' '&lt;' '&#x' '&#' \
      'xmlns="' 'xmlns:' '<gpx' '</gpx>' 'version="1.1"' '<metadata>' '<trk>' '</trk>' '<trkseg>' '</trkseg>' \
      '<trkpt' '</trkpt>' '<rte>' '<rtept' '<wpt' 'lat="' 'lon="' '<ele>' '<time>' '<name>' '<extensions>' \
      '<gpxtpx:hr>' '<gpxtpx:cad>' '<TrainingCenterDatabase' '<Activities>' '<Activity Sport="Running">' \
      '<Lap StartTime="' '<Track>' '<Trackpoint>' '<Position>' '<LatitudeDegrees>' '<LongitudeDegrees>' \
      '<AltitudeMeters>' '<DistanceMeters>' '<TotalTimeSeconds>' '<Calories>' '<HeartRateBpm><Value>' \
      '<Cadence>' '<ns3:TPX>' '<ns3:Speed>' '<ns3:RunCadence>' '<Courses>' '<Course>' '<CoursePoint>' \
      '<MultiSportSession>' '<Creator>' '<Id>' '2026-05-01T06:00:00Z' '2026-05-01T06:00:00.5+09:00' \
      '-0.0' '1e308' 'NaN' '37.5' '127.0'; do
      printf '"%s"\n' "$(printf '%s' "$token" | sed 's/\\/\\\\/g; s/"/\\"/g')"
    done >"$seeds.dict"
    ;;
esac

found=0
for ext in "${extensions[@]}"; do
  for file in "$shared"/tracks/*/*."$ext"; do
    [[ -f "$file" ]] || continue
    cp "$file" "$seeds/$(basename "$(dirname "$file")")_$(basename "$file")"
    found=$((found + 1))
  done
done
((found > 0)) || echo "fuzz: no ${extensions[*]} files under $shared/tracks: seeding from the repository only" >&2
if [[ "$target" == xml ]]; then
  for file in "$seeds"/*.gpx "$seeds"/*.tcx; do  # gzip in front: the small files only
    [[ -f "$file" && $(wc -c <"$file") -lt 65536 ]] && gzip -c "$file" >"$file.gz"
  done
fi

echo "fuzz: building $out/fuzz-$target" >&2
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "$module" \
  "${compile[@]}" "${sources[@]}" -o "$out/fuzz-$target"

echo "fuzz: running $target for ${seconds}s on $(ls "$seeds" | wc -l) seed(s) and $(ls "$out/corpus" | wc -l) corpus file(s)" >&2
# A Swift runtime trap goes to libFuzzer's handler, not to swift-backtrace (which can hang under ASan).
SWIFT_BACKTRACE=enable=no "$out/fuzz-$target" "${options[@]}" -artifact_prefix="$out/artifacts/" "$@" "$out/corpus" "$seeds"
