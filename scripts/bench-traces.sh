#!/usr/bin/env bash
# Times the PyTorch profiler trace reader on a 1 GB trace (as .json.gz) beside `gzip -dc` and
# Python's json.load, side by side in one run (docs/performance.md, "Profiler traces").
# The trace is made here, in /tmp, and deleted after: the events of a real Kineto trace (Holistic
# Trace Analysis's ns_resolution sample, tests/data/traces) repeated until the JSON is 1 GB, one
# traceEvents array.
# Usage: scripts/bench-traces.sh [BUILD_DIR] [SIZE_MB]   (default build, 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size_mb=${2:-1024}
feedcheck=$build/feedcheck
[[ -x $feedcheck ]] || { echo "bench-traces: build $feedcheck first" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench-traces: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
py=/usr/bin/python3
dir=$(mktemp -d /tmp/bench-traces.XXXXXX)
trap 'rm -rf "$dir"' EXIT
trace=$dir/rank-0.bench.pt.trace.json.gz

echo "== making a ${size_mb} MB trace in $dir"
"$py" - tests/data/traces/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
  "$size_mb" <<'PY' | gzip -6 > "$trace"
import gzip, json, sys
doc = json.load(gzip.open(sys.argv[1], "rt"))
target = int(sys.argv[2]) << 20
events = [json.dumps(e) for e in doc.pop("traceEvents")]
body = ",\n".join(events)
head = json.dumps(doc)[:-1] + ', "traceEvents": [\n'
out = sys.stdout
out.write(head)
written = len(head)
copies = 0
while written < target:
    if copies:
        out.write(",\n")
    out.write(body)
    written += len(body) + 2
    copies += 1
out.write("\n]}\n")
print(f"{copies} copies of {len(events)} events: {copies * len(events)} events", file=sys.stderr)
PY
ls -l "$trace"
uncompressed=$(gzip -dc "$trace" | wc -c)
echo "uncompressed: $uncompressed bytes"

echo "== what feedcheck read (every event: Lines is the events counted)"
"$feedcheck" analyze "$trace" | sed -n '3,6p'

echo "== side by side (hyperfine: 1 warm-up, 3 runs each of gzip and feedcheck; Python once)"
hyperfine --warmup 1 --runs 3 --export-markdown "$dir/times.md" \
  -n "gzip -dc" "gzip -dc $trace > /dev/null" \
  -n "feedcheck analyze" "$feedcheck analyze $trace --json > /dev/null"
cat "$dir/times.md"
echo "== one run each: wall clock, CPU and memory (/usr/bin/time)"
fmt="%e s wall, %U s user + %S s sys, %M KiB max RSS"
/usr/bin/time -f "gzip -dc:          $fmt" gzip -dc "$trace" > /dev/null
/usr/bin/time -f "feedcheck analyze: $fmt" "$feedcheck" analyze "$trace" --json > /dev/null
/usr/bin/time -f "python json.load:  $fmt" \
  "$py" -c 'import gzip,json,sys; json.load(gzip.open(sys.argv[1]))' "$trace"
