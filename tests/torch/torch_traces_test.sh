#!/usr/bin/env bash
# Real parts: Debian's python3-torch runs two small training loops (make_torch_traces.py), one
# whose reads go through an injected delay and one whose __getitem__ burns the CPU. Both wait
# for data most of each step; the post-mortem of each job folder must say so per rank, and tell
# them apart by what the data runtime's reads beside the trace show (slow: storage; fast: the
# input pipeline), and say "cause not shown" for the same traces with nothing beside them.
# Also: a trace given with --trace is read like one found in the folder.
# Usage: torch_traces_test.sh FEEDCHECK_BINARY WORK_DIR   (exit 77: no python3-torch)
set -euo pipefail
feedcheck=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
if ! "$py" -c 'import torch' 2>/dev/null; then
  echo "SKIP: python3-torch not installed (scripts/setup.sh installs it)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"

"$py" "$here/make_torch_traces.py" --kind sleep --out "$work/storage" --node node-1 &
"$py" "$here/make_torch_traces.py" --kind cpu --out "$work/pipeline" --node node-1 &
wait %1 && wait %2
# The same traces, nothing beside them.
for kind in storage pipeline; do
  mkdir -p "$work/bare-$kind/outputs"
  cp "$work/$kind"/outputs/profiler/*.pt.trace.json "$work/bare-$kind/outputs/"
done
# The storage job's read log alone in its folder; its trace named with --trace (gzipped).
mkdir -p "$work/flag/system_logs"
cp -r "$work/storage/system_logs/data_capability" "$work/flag/system_logs/"
gzip -c "$work"/storage/outputs/profiler/*.pt.trace.json > "$work/flag-trace.pt.trace.json.gz"

check() {  # check NAME EXPECTED_CAUSE [postmortem args...]
  local name=$1 expected=$2
  shift 2
  local out="$work/$name.json"
  "$feedcheck" postmortem "$@" --json > "$out" 2> "$work/$name.err" || true
  "$py" - "$out" "$expected" "$name" <<'PY'
import json, sys
path, expected, name = sys.argv[1:4]
report = json.load(open(path))
section = report.get("data_wait")
assert section, f"{name}: no data_wait section in {path}"
ranks = section["ranks"]
assert len(ranks) == 1, f"{name}: {len(ranks)} ranks"
r = ranks[0]
assert r["steps"] >= 3, f"{name}: {r['steps']} steps"
assert 0.6 < r["loader_wait_fraction"] < 0.97, f"{name}: waited {r['loader_wait_fraction']}"
assert r["cause"] == expected, f"{name}: cause {r['cause']} != {expected}: {r['cause_text']}"
assert section["cause"] == expected, f"{name}: job cause {section['cause']}"
assert report["result"]["data_wait_cause"] == expected
assert abs(report["result"]["loader_wait_fraction"] - r["loader_wait_fraction"]) < 1e-9
if expected == "cause_not_shown":
    assert section["verdict"].startswith("waited for data, cause not shown"), section["verdict"]
if expected == "input_pipeline":
    assert "num_workers" in section["verdict"] and "decode" in section["verdict"]
print(f"ok {name}: {r['steps_covered']}, waited {100 * r['loader_wait_fraction']:.0f}%, "
      f"{r['cause']} ({section['evidence']})")
PY
}
check storage storage "$work/storage"
check pipeline input_pipeline "$work/pipeline"
check bare-storage cause_not_shown "$work/bare-storage"
check bare-pipeline cause_not_shown "$work/bare-pipeline"
check flag storage "$work/flag" --trace "$work/flag-trace.pt.trace.json.gz"
echo "all torch trace checks passed"
