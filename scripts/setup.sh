#!/usr/bin/env bash
# Installs the system packages Runnect needs, only those missing. Idempotent.
#   scripts/setup.sh            what building and running needs
#   scripts/setup.sh --test     plus what the tests compare against (GeographicLib's GeodSolve,
#                               rsvg-convert, jq, script(1), xmllint for the GPX/TCX schemas,
#                               GPSBabel, python3 with shapely + geojson + fitparse + pyjwt + pillow
#                               + openapi-spec-validator + schemathesis, and axe-core through
#                               axe-playwright-python, from PyPI through pip), headless
#                               Chromium with a Korean font for the discovery pages' browser
#                               tests, and PostgreSQL 15 with PostGIS 3
#                               for the PostgreSQL store's tests (scripts/pg-cluster.sh starts a
#                               throwaway cluster; no server is set up or started here). Under CI
#                               a test missing any of them fails.
set -euo pipefail

packages=(libgeographiclib-dev libsqlite3-dev zlib1g-dev libssl-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(geographiclib-tools librsvg2-bin chromium fonts-nanum jq bsdutils)  # bsdutils: script(1)
  packages+=(libxml2-utils gpsbabel)  # xmllint --schema; GPSBabel reads the GPX/TCX/FIT exports back
  packages+=(sqlite3)  # scripts/dump-schema.sh: the SQLite schema (.schema) the tests compare
  packages+=(postgresql postgresql-15-postgis-3)
  command -v python3 >/dev/null || packages+=(python3)
  python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
pip_test_packages() {  # shapely and geojson read the GeoJSON exports, fitparse the FIT exports,
  # pyjwt (over the preinstalled cryptography) signs the sign-in ID tokens the server must accept,
  # pillow makes and reads the map images whose tags the server strips, openapi-spec-validator
  # checks the server's OpenAPI document, schemathesis tests the running server against it;
  # axe-playwright-python only for the axe-core it ships (axe.min.js, which the discovery page's
  # browser test injects), so without its dependencies (Playwright and its browsers)
  [[ "${1:-}" == "--test" ]] || return 0
  # pip, PEP 668's refusal of a Debian system Python answered (a venv or pyenv Python needs no flag)
  pip_install() { python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"; }
  if ! python3 -c 'import shapely, geojson, fitparse, jwt, cryptography, PIL, openapi_spec_validator, schemathesis' 2>/dev/null; then
    echo "setup: pip installing shapely geojson fitparse pyjwt cryptography pillow openapi-spec-validator schemathesis" >&2
    pip_install shapely geojson fitparse pyjwt cryptography pillow openapi-spec-validator schemathesis
  fi
  # Found without importing it (its __init__ imports Playwright).
  if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("axe_playwright_python") is None)' 2>/dev/null; then
    echo "setup: pip installing axe-playwright-python 0.1.8 (no dependencies: its axe-core only)" >&2
    pip_install --no-deps axe-playwright-python==0.1.8
  fi
}
if ((${#missing[@]} == 0)); then
  pip_test_packages "${1:-}"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "setup: please install ${missing[*]} (Debian/Ubuntu package names)" >&2
  exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
pip_test_packages "${1:-}"
