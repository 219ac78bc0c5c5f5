#!/usr/bin/env bash
# Installs what feedcheck needs to build, test and run its demo, idempotently:
# Debian packages (apt) and the pinned Azurite (npm, lockfile in tools/azurite).
# Usage: scripts/setup.sh [--no-npm]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build pkg-config g++ clang clang-format libclang-rt-14-dev
  libcurl4-openssl-dev nlohmann-json3-dev libfmt-dev libcli11-dev libbenchmark-dev catch2
  libyaml-cpp-dev zlib1g-dev
  nginx wrk iproute2 openmpi-bin libopenmpi-dev chromium fio
  nodejs npm curl ca-certificates openssl
  dpkg-dev  # dpkg-shlibdeps: the Depends of the .deb CPack makes (tests/install)
  python3   # scripts/check-links.sh (the docs test)
  python3-jsonschema  # the SARIF schema test (tests/cli/sarif_schema_check.py)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm may come from outside Debian on some images: accept them when on PATH.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: Debian packages present"
fi

if [[ "${1:-}" != "--no-npm" && -f tools/azurite/package-lock.json ]]; then
  if [[ ! -x tools/azurite/node_modules/.bin/azurite-blob ]]; then
    echo "setup: installing Azurite (npm ci, pinned by tools/azurite/package-lock.json)"
    (cd tools/azurite && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  else
    echo "setup: Azurite present"
  fi
fi
