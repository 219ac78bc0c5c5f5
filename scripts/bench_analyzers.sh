#!/usr/bin/env bash
# Log-parsing speed in one go, on one generated 1 GB rslex log: the analyzers_bench Google
# Benchmark (rslex analyzer, line reader alone), `grep -c` over the same file for comparison,
# and `feedcheck analyze` end to end with its peak memory. The log is deleted at the end.
# Usage: scripts/bench_analyzers.sh [bytes]      (default 1000000000)
set -euo pipefail
cd "$(dirname "$0")/.."
bytes=${1:-1000000000}
build_dir=${BUILD_DIR:-build-release}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFEEDCHECK_BUILD_BENCHMARKS=ON \
  >/dev/null
cmake --build "$build_dir" --target analyzers_bench feedcheck -j"$(nproc)" >/dev/null
log=$(mktemp /tmp/feedcheck-bench-rslex.XXXXXX)
rm -f "$log"  # the benchmark generates it
trap 'rm -f "$log"' EXIT

echo "== analyzers_bench (one core; file generated at $log)"
FEEDCHECK_BENCH_RSLEX_LOG=$log FEEDCHECK_BENCH_BYTES=$bytes taskset -c 0 \
  "$build_dir/analyzers_bench" --benchmark_counters_tabular=true
size=$(stat -c %s "$log")

# Runs a command on core 0 with its output in a file (GNU grep stops at the first match when
# stdout is /dev/null), and prints wall and CPU (user + sys) seconds and MB/s per CPU second.
measure() {
  local label=$1; shift
  local out; out=$(mktemp)
  /usr/bin/time -o "$out.time" -f '%e %U %S %M' taskset -c 0 "$@" >"$out"
  read -r wall user sys rss <"$out.time"
  awk -v l="$label" -v b="$size" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v o="$(head -c 40 "$out")" \
    'BEGIN { c = u + s; if (c <= 0) c = 0.001;
             printf "%-44s wall %6.2f s  cpu %6.2f s  %6.0f MB/s per CPU-s  peak RSS %6d KiB  (%s)\n",
                    l, w, c, b / c / 1e6, r, o }'
  rm -f "$out" "$out.time"
}
echo
echo "== same file ($((size / 1000000)) MB), warm page cache, one core"
cat "$log" >/dev/null
measure "grep -c 'non-successful response'" grep -c 'non-successful response' "$log"
measure "grep -c 'time.busy='" grep -c 'time.busy=' "$log"
measure "wc -l" wc -l "$log"
measure "feedcheck analyze --format rslex (end to end)" "$build_dir/feedcheck" analyze \
  --format rslex "$log"
