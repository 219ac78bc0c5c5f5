#!/usr/bin/env bash
# Configures and builds feedcheck into ${BUILD_DIR:-build}: every target, or only those named
# with --target (and what they need). Other arguments go to cmake.
# Usage: scripts/build.sh [--target NAME]... [cmake args]
#   scripts/build.sh --target feedcheck --target feedcheck-seed    # what scripts/demo.sh runs
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
unity=OFF  # CI's clean builds compile in batches (cmake/CompileTime.cmake, FEEDCHECK_UNITY)
[[ "${CI:-}" == "true" ]] && werror=ON && unity=ON
targets=()
cmake_args=()
while (($#)); do
  if [[ "$1" == --target ]]; then
    (($# >= 2)) || { echo "build.sh: --target needs a target name" >&2; exit 2; }
    targets+=(--target "$2")
    shift 2
  else
    cmake_args+=("$1")
    shift
  fi
done
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DFEEDCHECK_WERROR="$werror" -DFEEDCHECK_UNITY="$unity" "${cmake_args[@]+"${cmake_args[@]}"}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]+"${targets[@]}"}"
