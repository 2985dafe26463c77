#!/usr/bin/env bash
# Fuzzes the FIT decoder with libFuzzer (swiftc -sanitize=fuzzer,address) for SECONDS (default 60).
#
#   scripts/fuzz_fit.sh [SECONDS] [libFuzzer options…]
#
# Builds .build/fuzz-fit/fuzz-fit from Fuzz/FITFuzzTarget.swift and the decoder's sources (no
# GeographicLib, so no C++ is linked), seeds .build/fuzz-fit/corpus with the FIT files of
# ../shared/tracks (or $RUNNECT_SHARED/tracks) when they are there, and runs. Inputs that crash
# are written to .build/fuzz-fit/artifacts/; rerun one with
#   .build/fuzz-fit/fuzz-fit .build/fuzz-fit/artifacts/crash-…
# Exit status: 0 when nothing was found, libFuzzer's non-zero status otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds="${1:-60}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz_fit: SECONDS must be a whole number" >&2; exit 64; }
shift || true

out="$root/.build/fuzz-fit"
mkdir -p "$out/corpus" "$out/artifacts"
sources=(
  Sources/RunnectKit/Readers/FIT/*.swift
  Sources/RunnectKit/Readers/ByteStream.swift
  Sources/RunnectKit/Readers/ReadError.swift
  Sources/RunnectKit/Readers/ISO8601Parser.swift
  Sources/RunnectKit/Model/*.swift
  Fuzz/FITFuzzTarget.swift
)
echo "fuzz_fit: building $out/fuzz-fit" >&2
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name RunnectFITFuzz \
  "${sources[@]}" -o "$out/fuzz-fit"

shared="${RUNNECT_SHARED:-$root/../shared}"
if compgen -G "$shared/tracks/*/*.fit" >/dev/null; then
  cp -n "$shared"/tracks/*/*.fit "$out/corpus/" 2>/dev/null || true
else
  echo "fuzz_fit: no FIT files under $shared/tracks: starting from an empty corpus" >&2
fi

echo "fuzz_fit: running for ${seconds}s on $(ls "$out/corpus" | wc -l) seed/corpus file(s)" >&2
exec "$out/fuzz-fit" -max_total_time="$seconds" -max_len=300000 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@" "$out/corpus"
