#!/usr/bin/env bash
# TCX and gzip read speed beside GPX: the big.gpx workload of scripts/bench.sh, converted to TCX
# (the same 200,000 points, one <Lap>/<Track> per 10,000, heart rate and TPX run cadence) and
# gzipped, each read and measured by runnect-bench (parse + full stats, best of N, peak memory).
#
#   scripts/bench_formats.sh [--repeat N]      needs bench-out/big.gpx: run scripts/bench.sh first
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=3
if [[ "${1:-}" == "--repeat" ]]; then repeat="${2:?--repeat needs a number}"; fi
gpx=bench-out/big.gpx
[[ -f "$gpx" ]] || { echo "bench_formats: $gpx not found: run scripts/bench.sh first" >&2; exit 2; }

swift build -c release --product runnect-bench >&2
bench="$(swift build -c release --show-bin-path)/runnect-bench"

if [[ ! -f bench-out/big.tcx || bench-out/big.tcx -ot "$gpx" ]]; then
  python3 - "$gpx" bench-out/big.tcx <<'PY'
import re, sys
src = open(sys.argv[1]).read()
points = re.findall(r'<trkpt lat="([^"]+)" lon="([^"]+)">\s*<ele>([^<]+)</ele>\s*<time>([^<]+)</time>'
                    r'(?:.*?<gpxtpx:hr>(\d+)</gpxtpx:hr>)?.*?</trkpt>', src, re.S)
out = ['<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase '
       'xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" '
       'xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">\n  <Activities>\n'
       '    <Activity Sport="Running">\n      <Id>%s</Id>\n' % points[0][3]]
lap = 10000
for i in range(0, len(points), lap):
    out.append('      <Lap StartTime="%s">\n        <TotalTimeSeconds>%d</TotalTimeSeconds>\n'
               '        <DistanceMeters>2500.0</DistanceMeters>\n        <Calories>150</Calories>\n'
               '        <Track>\n' % (points[i][3], lap))
    for lat, lon, ele, time, hr in points[i:i + lap]:
        out.append('          <Trackpoint>\n            <Time>%s</Time>\n            <Position>\n'
                   '              <LatitudeDegrees>%s</LatitudeDegrees>\n'
                   '              <LongitudeDegrees>%s</LongitudeDegrees>\n            </Position>\n'
                   '            <AltitudeMeters>%s</AltitudeMeters>\n'
                   '            <HeartRateBpm>\n              <Value>%s</Value>\n            </HeartRateBpm>\n'
                   '            <Extensions>\n              <ns3:TPX>\n'
                   '                <ns3:RunCadence>88</ns3:RunCadence>\n              </ns3:TPX>\n'
                   '            </Extensions>\n          </Trackpoint>\n' % (time, lat, lon, ele, hr or 100))
    out.append('        </Track>\n      </Lap>\n')
out.append('    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n')
open(sys.argv[2], 'w').write(''.join(out))
print('bench_formats: wrote %s (%d points)' % (sys.argv[2], len(points)), file=sys.stderr)
PY
fi
[[ -f bench-out/big.gpx.gz && ! bench-out/big.gpx.gz -ot "$gpx" ]] || gzip -6 -k -f "$gpx"

for file in "$gpx" bench-out/big.tcx bench-out/big.gpx.gz; do
  "$bench" gpx "$file" --repeat "$repeat" >/dev/null  # the human line goes to stderr
done
