#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) in ${ASAN_BUILD_DIR:-build-asan} and runs each
# for FUZZ_SECONDS (default 60) over its committed seed corpus tests/fuzz/corpus/<target>/, two at
# a time (2 cores). The corpus in the repository is never modified: new inputs go to a scratch
# copy. A crash, leak or UB report fails the run and leaves the reproducer in
# ${ASAN_BUILD_DIR}/fuzz-artifacts/. Usage: scripts/fuzz.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${ASAN_BUILD_DIR:-build-asan}
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-2}
command -v clang++ >/dev/null || { echo "fuzz: clang++ is required (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DFEEDCHECK_SANITIZE="address;undefined" -DFEEDCHECK_BUILD_FUZZERS=ON \
  -DFEEDCHECK_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build_dir" -j"$(nproc)"

targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in "$build_dir"/fuzz_*; do [[ -x "$f" && -f "$f" ]] && targets+=("$(basename "$f")"); done
fi
if ((${#targets[@]} == 0)); then
  echo "fuzz: no fuzz_* targets in $build_dir (FEEDCHECK_BUILD_FUZZERS builds tests/fuzz/)" >&2
  exit 1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/feedcheck-fuzz-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build_dir/fuzz-artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_one() {
  local t=$1 seeds="tests/fuzz/corpus/$1" work="$scratch/$1"
  mkdir -p "$work"
  [[ -d "$seeds" ]] && cp -r "$seeds/." "$work/"
  # -rss_limit_mb and -timeout make memory blow-ups and hangs findings, not CI stalls.
  if "$build_dir/$t" "$work" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build_dir/fuzz-artifacts/$t-" \
    >"$scratch/$t.log" 2>&1; then
    echo "fuzz: $t ok: $(grep -E '^stat::number_of_executed_units' "$scratch/$t.log" | awk '{print $2}') runs in ${seconds} s"
  else
    echo "fuzz: $t FAILED; last lines:" >&2
    tail -40 "$scratch/$t.log" >&2
    return 1
  fi
}

status=0
pids=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" || status=1; done
exit "$status"
