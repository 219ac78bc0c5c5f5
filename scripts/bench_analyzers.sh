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

rate() { awk -v b="$size" -v s="$1" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N);
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'; }

echo
echo "== same file ($((size / 1000000)) MB), warm page cache, one core"
cat "$log" >/dev/null
t=$(seconds taskset -c 0 grep -c 'non-successful response' "$log")
echo "grep -c 'non-successful response': ${t} s ($(rate "$t"))"
t=$(seconds taskset -c 0 grep -c 'time.busy=' "$log")
echo "grep -c 'time.busy=':              ${t} s ($(rate "$t"))"
t=$(seconds taskset -c 0 wc -l "$log")
echo "wc -l:                             ${t} s ($(rate "$t"))"
start=$(date +%s.%N)
rss=$( { /usr/bin/time -f '%M' taskset -c 0 "$build_dir/feedcheck" analyze --format rslex "$log" \
  >/dev/null; } 2>&1 | tail -1)
end=$(date +%s.%N)
t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
echo "feedcheck analyze --format rslex:  ${t} s ($(rate "$t")), peak RSS ${rss} KiB"
