#!/usr/bin/env bash
# Builds the analyzer, listing, HTTP response, rules and YAML fuzz targets (clang, libFuzzer + ASan/UBSan) in
# build-fuzz and runs each for N seconds (default 30) from a copy of its committed seed corpus.
# Usage: scripts/fuzz.sh [seconds] [target...]     e.g. scripts/fuzz.sh 10 fuzz_rslex_log
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
cxx=${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++)}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFEEDCHECK_BUILD_FUZZERS=ON -DFEEDCHECK_BUILD_BENCHMARKS=OFF >/dev/null
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_azure_monitor fuzz_data_capability fuzz_dcgm fuzz_metrics_csv fuzz_nvidia_smi
           fuzz_rslex_log fuzz_storage_blob_logs fuzz_tracing_line fuzz_list_blobs_xml
           fuzz_http_response fuzz_condition_parser fuzz_rule_reader fuzz_job_yaml fuzz_units fuzz_knowledge_base)
fi
cmake --build "$build_dir" --target "${targets[@]}" -j"$(nproc)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for t in "${targets[@]}"; do
  seeds="tests/fuzz/corpus/${t#fuzz_}"
  mkdir -p "$work/$t" "$build_dir/fuzz-artifacts"
  cp "$seeds"/* "$work/$t"/ 2>/dev/null || true
  echo "fuzz: $t for ${seconds}s"
  if ! "$build_dir/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$build_dir/fuzz-artifacts/$t-" \
      "$work/$t" 2>"$work/$t.log"; then
    echo "fuzz: $t FAILED (artifacts in $build_dir/fuzz-artifacts/)"
    tail -40 "$work/$t.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$t.log" | tr '\n' ' '
    echo
  fi
done
exit $status
