#!/usr/bin/env bash
# Installs what feedcheck needs to build, test and run its demo, idempotently:
# Debian packages (apt) and the pinned Azurite (npm, lockfile in tools/azurite).
# Usage: scripts/setup.sh [--build-deps | --demo | --format] [--no-npm]
#   (none)        everything: building, every test, the demo
#   --format      clang-format only (.ci/run's first step, scripts/check-format.sh)
#   --build-deps  only what configuring and building the tree needs: the compiler, the libraries,
#                 and the packages CMake looks for (Catch2, Google Benchmark, zlib, MPI) even
#                 when only feedcheck is built, so one build folder serves the demo and the
#                 tests. scripts/test.sh and scripts/demo.sh install these first, then start
#                 the build and install the rest while it compiles.
#   --demo        what scripts/demo.sh needs: the build's packages, Node and Azurite, curl.
#                 On a fresh Debian 12: ~555 packages, ~170 MB to download, against ~755 and
#                 ~430 MB for everything (docs/testing.md).
#   --no-npm      skip Azurite
set -euo pipefail
cd "$(dirname "$0")/.."

set_name=all
npm=true
for arg in "$@"; do
  case "$arg" in
    --build-deps) set_name=build ;;
    --demo) set_name=demo ;;
    --format) set_name=format ;;
    --no-npm) npm=false ;;
    *) echo "setup.sh: unknown argument '$arg' (--build-deps, --demo, --format, --no-npm)" >&2; exit 2 ;;
  esac
done

# Configuring and building (every target: CMake looks for Catch2, Google Benchmark, zlib and
# MPI even when only feedcheck is built).
build_packages=(
  cmake ninja-build pkg-config g++
  libcurl4-openssl-dev nlohmann-json3-dev libfmt-dev libcli11-dev libbenchmark-dev catch2
  libyaml-cpp-dev zlib1g-dev libssl-dev libopenmpi-dev
)
# The demo adds Node for Azurite, and curl for its readiness check.
demo_packages=(nodejs npm curl ca-certificates openssl)
# The tests add clang (sanitizers, fuzzing), clang-format, the real servers, namespaces, MPI's
# launcher, the browser, fio.
test_packages=(
  clang clang-format libclang-rt-14-dev
  nginx wrk iproute2 openmpi-bin chromium fio
  dpkg-dev  # dpkg-shlibdeps: the Depends of the .deb CPack makes (tests/install)
  python3   # scripts/check-links.sh (the docs test)
  python3-jsonschema  # the SARIF schema test (tests/cli/sarif_schema_check.py)
  python3-yaml  # scripts/make-joblog-corpus.py (the joblog corpus test regenerates it)
  zsh       # the zsh completion's test (tests/cli/completion_zsh_test.zsh)
  azure-cli  # the real az client, run offline against loopback (tests/app/fetch_real_az_test.cpp)
  python3-torch  # real PyTorch loops write the profiler traces tests/torch reads
  hyperfine      # scripts/bench-traces.sh times the trace reader beside gzip and Python
)
case "$set_name" in
  format) packages=(clang-format) npm=false ;;
  build) packages=("${build_packages[@]}") npm=false ;;
  demo) packages=("${build_packages[@]}" "${demo_packages[@]}") ;;
  all) packages=("${build_packages[@]}" "${demo_packages[@]}" "${test_packages[@]}") ;;
esac

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

if [[ "$npm" == true && -f tools/azurite/package-lock.json ]]; then
  if [[ ! -x tools/azurite/node_modules/.bin/azurite-blob ]]; then
    echo "setup: installing Azurite (npm ci, pinned by tools/azurite/package-lock.json)"
    (cd tools/azurite && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  else
    echo "setup: Azurite present"
  fi
fi
