#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test (unit tests
# and the tests against real Azurite, nginx, network namespaces, MPI and Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2 --timeout 600
