#!/usr/bin/env bash
# Log-parsing speed in one go, on one generated 1 GB rslex log: the analyzers_bench Google
# Benchmark (rslex analyzer, line reader alone), `grep -c` over the same file for comparison,
# and `feedcheck analyze` end to end with its peak memory. The log is deleted at the end.
# Every rate is min / median / max of 3 runs, interleaved, with the analyzer's ratio to grep.
# Usage: [BUILD_DIR=build-release] [BUILD_TYPE=Release] scripts/bench_analyzers.sh [bytes]
#        (default 1000000000 bytes; an existing RelWithDebInfo tree: BUILD_DIR=build
#        BUILD_TYPE=RelWithDebInfo, so nothing else is rebuilt)
set -euo pipefail
cd "$(dirname "$0")/.."
bytes=${1:-1000000000}
build_dir=${BUILD_DIR:-build-release}
build_type=${BUILD_TYPE:-Release}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
  -DFEEDCHECK_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build_dir" --target analyzers_bench feedcheck -j"$(nproc)" >/dev/null
log=$(mktemp /tmp/feedcheck-bench-rslex.XXXXXX)
rm -f "$log"  # the benchmark generates it
trap 'rm -f "$log"' EXIT

echo "== analyzers_bench ($build_type, one core; file generated at $log)"
FEEDCHECK_BENCH_RSLEX_LOG=$log FEEDCHECK_BENCH_BYTES=$bytes taskset -c 0 \
  "$build_dir/analyzers_bench" --benchmark_counters_tabular=true
size=$(stat -c %s "$log")

# Runs a command on core 0 with its output in a file (GNU grep stops at the first match when
# stdout is /dev/null); appends "cpu_s peak_rss_kib" to the file named by $1.
measure() {
  local record=$1; shift
  local out; out=$(mktemp)
  /usr/bin/time -o "$out.time" -f '%e %U %S %M' taskset -c 0 "$@" >"$out"
  read -r _wall user sys rss <"$out.time"
  awk -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN { c = u + s; if (c <= 0) c = 0.001; print c, r }' \
    >>"$record"
  rm -f "$out" "$out.time"
}
# min / median / max of column $2 of file $1 (3 runs)
mmm() { sort -g -k"$2","$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { printf "%.3f / %.3f / %.3f", v[1], v[2], v[3] }'; }

echo
echo "== same file ($((size / 1000000)) MB), warm page cache, one core, 3 runs each, interleaved"
echo "   (load average at start: $(cut -d' ' -f1-3 /proc/loadavg))"
cat "$log" >/dev/null
work=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$work"' EXIT
for run in 1 2 3; do
  measure "$work/grep" grep -c 'non-successful response' "$log"
  measure "$work/wc" wc -l "$log"
  measure "$work/analyze" "$build_dir/feedcheck" analyze --format rslex "$log"
done
# GB/s per CPU-second of each run, and the analyzer's rate over grep's, run by run.
for t in grep wc analyze; do
  awk -v b="$size" '{ print b / $1 / 1e9, $2 }' "$work/$t" >"$work/$t.rate"
done
paste "$work/analyze.rate" "$work/grep.rate" | awk '{ print $1 / $3 }' >"$work/ratio"
printf '%-46s %s GB/s per CPU-s (min / median / max)\n' "grep -c 'non-successful response'" \
  "$(mmm "$work/grep.rate" 1)"
printf '%-46s %s GB/s per CPU-s\n' "wc -l" "$(mmm "$work/wc.rate" 1)"
printf '%-46s %s GB/s per CPU-s (bar: 1.0)\n' "feedcheck analyze --format rslex (end to end)" \
  "$(mmm "$work/analyze.rate" 1)"
printf '%-46s %s\n' "ratio analyze / grep -c" "$(mmm "$work/ratio" 1)"
printf '%-46s %s KiB\n' "peak RSS of feedcheck analyze" "$(mmm "$work/analyze" 2)"
