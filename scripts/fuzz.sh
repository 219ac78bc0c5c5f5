#!/usr/bin/env bash
# Builds the analyzer, listing, HTTP response, rules and YAML fuzz targets (clang, libFuzzer + ASan/UBSan) in
# build-fuzz. For each target it first replays its committed corpus (tests/fuzz/corpus/<name>/:
# the seeds and every input that once crashed, each run once; any failure fails the run), then
# fuzzes for N seconds (default 30; CI runs 10) from a copy of that corpus. As many targets at
# once as there are cores (FUZZ_JOBS overrides).
# Usage: scripts/fuzz.sh [seconds] [target...]     e.g. scripts/fuzz.sh 10 fuzz_rslex_log
#        scripts/fuzz.sh 0                         replay the committed corpora only
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
cxx=${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++)}
# A build dir already configured with fuzzers (scripts/sanitize.sh's, in CI) is built as it is:
# configuring it again with another compiler path would reset its cache.
if ! grep -qs '^FEEDCHECK_BUILD_FUZZERS:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFEEDCHECK_BUILD_FUZZERS=ON -DFEEDCHECK_BUILD_BENCHMARKS=OFF >/dev/null
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_azure_monitor fuzz_data_capability fuzz_dcgm fuzz_metrics_csv fuzz_nvidia_smi
           fuzz_rslex_log fuzz_storage_blob_logs fuzz_tracing_line fuzz_list_blobs_xml
           fuzz_http_response fuzz_condition_parser fuzz_rule_reader fuzz_job_yaml fuzz_units fuzz_knowledge_base
           fuzz_report_json fuzz_torch_trace)
fi
cmake --build "$build_dir" --target "${targets[@]}" -j"$(nproc)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build_dir/fuzz-artifacts"
# One target's run; its verdict and figures go to $work/$t.out, printed in target order below.
fuzz_one() {
  local t=$1 seeds="tests/fuzz/corpus/${1#fuzz_}" replayed
  local limits=(-rss_limit_mb=2048 -timeout=10 -max_len=65536
                -artifact_prefix="$build_dir/fuzz-artifacts/$t-")
  mkdir -p "$work/$t"
  cp "$seeds"/* "$work/$t"/ 2>/dev/null || true
  # 1. The committed corpus, each input once (-runs=0: load, run, stop): the regression check.
  if ! "$build_dir/$t" -runs=0 "${limits[@]}" "$work/$t" 2>"$work/$t.replay.log"; then
    { echo "fuzz: $t FAILED replaying its committed corpus (artifacts in $build_dir/fuzz-artifacts/)"
      tail -40 "$work/$t.replay.log"; } >"$work/$t.out"
    return 1
  fi
  replayed=$(ls "$seeds" 2>/dev/null | wc -l)
  # 2. New inputs for $seconds from there.
  if ((seconds > 0)) && ! "$build_dir/$t" -max_total_time="$seconds" "${limits[@]}" \
      -print_final_stats=1 "$work/$t" 2>"$work/$t.log"; then
    { echo "fuzz: $t FAILED (artifacts in $build_dir/fuzz-artifacts/)"; tail -40 "$work/$t.log"; } \
      >"$work/$t.out"
    return 1
  fi
  { echo -n "replayed $replayed committed inputs; "
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$t.log" 2>/dev/null |
      tr '\n' ' ' || true
    echo; } >"$work/$t.out"
}
# As many targets at once as there are cores (each libFuzzer run is one process on one core):
# the same seconds per target in half the wall time on CI's two cores.
parallel=${FUZZ_JOBS:-$(nproc)}
status=0
running=0
for t in "${targets[@]}"; do
  echo "fuzz: $t for ${seconds}s"
  fuzz_one "$t" &
  running=$((running + 1))
  if ((running >= parallel)); then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
for t in "${targets[@]}"; do
  echo "fuzz: $t"
  cat "$work/$t.out"
done
exit $status
