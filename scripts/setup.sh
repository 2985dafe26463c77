#!/usr/bin/env bash
# Installs the system packages Runnect needs, only those missing. Idempotent.
#   scripts/setup.sh            what building and running needs
#   scripts/setup.sh --test     plus what the tests compare against (GeographicLib's GeodSolve), and
#                               headless Chromium with a Korean font for the discovery page's browser test
set -euo pipefail

packages=(libgeographiclib-dev libsqlite3-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(geographiclib-tools chromium fonts-nanum)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0

if ! command -v apt-get >/dev/null; then
  echo "setup: please install ${missing[*]} (Debian/Ubuntu package names)" >&2
  exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
