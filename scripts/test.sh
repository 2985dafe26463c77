#!/usr/bin/env bash
# Quickstart 2: install what is missing and run the whole test suite.
# Tests that need ../shared/tracks or an external tool skip with a message where it is absent,
# and fail instead when CI is set (.ci/run sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
# Formatting: the committed .swift-format, warnings as errors (swift-format ships with the toolchain).
swift format lint --strict --recursive --configuration .swift-format Sources Tests Fuzz Package.swift >&2
swift build --build-tests >&2
# The SQLite-only runnect with its server (no postgres-nio, no TLS: the quickstart's demo builds
# the same without the server), in a folder of its own: SQLiteOnlyBuildTests runs it.
swift build --product runnect --disable-default-traits --traits Server --scratch-path .build/sqlite-only >&2
# The DocC catalogs of the two libraries; a broken link or an undocumented parameter fails the run.
swift package generate-documentation --target RunnectKit --target RunnectStore --target RunnectPostgres --target RunnectBackends --target RunnectServer --warnings-as-errors >&2
swift test --skip-build --disable-xctest "$@"
