#!/usr/bin/env bash
# Times the PyTorch profiler trace reader on a 1 GB trace (as .json.gz) beside `gzip -dc` and
# Python's json.load, side by side in one run (docs/performance.md, "Profiler traces").
# The trace is made here, in /tmp, and deleted after: the events of a real Kineto trace (Holistic
# Trace Analysis's ns_resolution sample, tests/data/traces) repeated until the JSON is 1 GB.
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
import gzip, sys
text = gzip.open(sys.argv[1], "rt").read()
target = int(sys.argv[2]) << 20
start = text.index("[", text.index('"traceEvents"')) + 1
end = text.rindex("]", 0, text.index('"traceName"') if '"traceName"' in text else len(text))
head, body, tail = text[:start], text[start:end].strip().rstrip(","), text[end:]
out = sys.stdout
out.write(head)
written = len(head)
first = True
while written < target:
    if not first:
        out.write(",\n")
    out.write(body)
    written += len(body) + 2
    first = False
out.write(tail)
PY
ls -l "$trace"
uncompressed=$(gzip -dc "$trace" | wc -c)
echo "uncompressed: $uncompressed bytes"

echo "== side by side (hyperfine: 1 warm-up, 3 runs each)"
hyperfine --warmup 1 --runs 3 --export-markdown "$dir/times.md" \
  -n "gzip -dc" "gzip -dc $trace > /dev/null" \
  -n "feedcheck analyze" "$feedcheck analyze $trace --json > /dev/null"
cat "$dir/times.md"
echo "== Python's json.load (one run: it holds the whole document)"
/usr/bin/time -f "python json.load: %e s wall, %M KiB max RSS" \
  "$py" -c 'import gzip,json,sys; json.load(gzip.open(sys.argv[1]))' "$trace"
echo "== memory"
/usr/bin/time -f "feedcheck analyze: %e s wall, %M KiB max RSS" \
  "$feedcheck" analyze "$trace" --json > /dev/null
/usr/bin/time -f "gzip -dc: %e s wall, %M KiB max RSS" gzip -dc "$trace" > /dev/null
