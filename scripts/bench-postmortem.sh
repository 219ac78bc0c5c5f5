#!/usr/bin/env bash
# Post-mortem speed and memory on a generated large job: NODES node folders of HOURS hours each
# (tests/bench/make_postmortem_job.py: hourly rslex logs with multi-line 503s and retries,
# nvidia-smi for 8 GPUs every 5 s, PT1M metrics), then the same job at half and at double the
# length to show memory does not follow the logs' size. Three runs each; wall seconds and peak
# RSS, and CPU seconds (user + sys: what the machine's load does not change). FEEDCHECK may name
# several binaries (space-separated, e.g. a build before a change and after it): each run of
# each job then runs them side by side, in turn. The generated jobs are deleted at the end;
# nothing is committed.
# Usage: [FEEDCHECK="build/feedcheck ..."] scripts/bench-postmortem.sh [NODES=16] [HOURS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a binaries <<<"${FEEDCHECK:-build/feedcheck}"
nodes=${1:-16}
hours=${2:-10}
tmp=$(mktemp -d /tmp/feedcheck-bench-postmortem.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for h in $(awk -v h="$hours" 'BEGIN { print h / 2, h, h * 2 }'); do
  job="$tmp/job-${nodes}x${h}h"
  python3 tests/bench/make_postmortem_job.py "$job" "$nodes" "$h"
  size=$(du -sm "$job" | cut -f1)
  for run in 1 2 3; do
    for feedcheck in "${binaries[@]}"; do
      /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$feedcheck" --fail-on never postmortem "$job" \
        --sku Standard_ND96asr_v4 --nodes "$nodes" --region eastus --format json -o "$tmp/out.json"
      read -r wall rss user sys <"$tmp/time"
      cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      echo "$feedcheck: $nodes nodes x ${h} h (${size} MB): run $run: ${wall} s wall, ${cpu} s CPU," \
        "peak RSS $((rss / 1024)) MiB"
    done
  done
  python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['diagnosis']; print('  verdict:', d['cause'], d['confidence'], '| GPU-min lost %.0f' % (d['gpu']['lost_gpu_s'] / 60))" "$tmp/out.json"
  rm -rf "$job"
done
