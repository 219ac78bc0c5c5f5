#!/usr/bin/env bash
# Configures and builds feedcheck into ${BUILD_DIR:-build}. Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DFEEDCHECK_WERROR="$werror" "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
