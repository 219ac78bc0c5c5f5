#!/usr/bin/env bash
# Builds feedcheck with AddressSanitizer + UndefinedBehaviorSanitizer in ${ASAN_BUILD_DIR:-build-asan}
# and runs the tests that need no external service (unit tests and the fault-server tests, which
# also drive the real CLI). Any report fails the run: -fno-sanitize-recover=all, halt_on_error.
# clang is preferred (the same build can then hold the libFuzzer targets; see scripts/fuzz.sh);
# g++ works too. Usage: scripts/sanitize.sh [--build-only] [extra cmake args]
# --build-only: configure and build, run nothing (.ci/run compiles the tree so at idle priority
# while the test step's tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${ASAN_BUILD_DIR:-build-asan}
build_only=false
if [[ "${1:-}" == --build-only ]]; then
  build_only=true
  shift
fi
compiler_args=()
if command -v clang++ >/dev/null; then
  # With clang the build also holds the libFuzzer targets (coverage on every object), so
  # `FUZZ_BUILD_DIR=build-asan scripts/fuzz.sh` reuses it instead of compiling the tree again.
  compiler_args=(-DCMAKE_CXX_COMPILER=clang++ -DFEEDCHECK_BUILD_FUZZERS=ON)
fi
# Warnings are gated by the g++ -Werror build of scripts/test.sh; clang's different warning set
# must not fail this build, whose job is finding memory and UB errors at run time.
werror=OFF
unity=OFF  # CI's clean builds compile in batches (cmake/CompileTime.cmake, FEEDCHECK_UNITY)
[[ "${CI:-}" == "true" ]] && unity=ON

start=$(date +%s)
# Only what the tests below run is built: no benchmarks, no feedcheck-mpi, none of the tests
# against services (FEEDCHECK_SERVICE_TESTS=OFF; scripts/test.sh runs those).
# -O1, as clang's AddressSanitizer documentation advises: 14% less compile time than -O2 here
# (docs/testing.md), still fast enough for the fault matrix and the fuzzers.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
  -DFEEDCHECK_SANITIZE="address;undefined" -DFEEDCHECK_BUILD_BENCHMARKS=OFF \
  -DFEEDCHECK_SERVICE_TESTS=OFF -DFEEDCHECK_MPI=OFF \
  -DFEEDCHECK_WERROR="$werror" -DFEEDCHECK_UNITY="$unity" "${compiler_args[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
built=$(date +%s)
if $build_only; then
  echo "sanitize: build $((built - start)) s"
  exit 0
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Services (Azurite, nginx), namespaces, MPI and Chromium are exercised by scripts/test.sh; the
# timing-sensitive accuracy tests are meaningless at sanitizer speed; packaging (install) is
# not a memory question.
# One more test at a time than cores: most of these tests wait (the fault server's stalls and
# deadlines, subprocesses of feedcheck), so a third slot fills the wait; on a clean clone on
# 2 cores the 852 tests took 285 s at -j2 and 238 s at -j3 (docs/testing.md, with the caveat). Nothing here
# measures speed: the timing-sensitive tests are in scripts/test.sh, at one per core.
# The corpus's terminal-fit test asks layout, not memory: 53 jobs run three ways as whole
# processes, 65 s under ASan, while the same post-mortems run in-process under it (the corpus
# labels test) and the renderers in the smaller terminal tests.
ctest --test-dir "$build_dir" --output-on-failure -j"$(($(nproc) + 1))" --timeout 300 \
  -LE 'netns|azurite|nginx|mpi|chromium|bench|install|heldout' \
  -E "every corpus job's post-mortem, run with its own flags, and analysis fit one screen"
echo "sanitize: build $((built - start)) s, tests $(($(date +%s) - built)) s"
