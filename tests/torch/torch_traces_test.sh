#!/usr/bin/env bash
# Real parts: Debian's python3-torch runs two small training loops (make_torch_traces.py), one
# whose reads go through an injected delay and one whose __getitem__ burns the CPU. Both wait
# for data most of each step; the post-mortem of each job folder must say so per rank, and tell
# them apart by what the data runtime's reads beside the trace show (slow: storage; fast: the
# input pipeline), and say "cause not shown" for the same traces with nothing beside them.
# The node's CPU, written beside each loop as Azure ML's CpuUtilization from what the loop
# really used, tells them apart too: the CPU-burning loop with its CPU metric alone is the input
# pipeline, the delayed-read loop with its CPU metric alone is not (its CPU was not busy).
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

"$py" "$here/make_torch_traces.py" --kind sleep --out "$work/storage" --node node-1 \
  --cpu-metric &
"$py" "$here/make_torch_traces.py" --kind cpu --out "$work/pipeline" --node node-1 \
  --cpu-metric &
wait %1 && wait %2
# The same traces, nothing beside them; and beside only the node's CPU.
for kind in storage pipeline; do
  mkdir -p "$work/bare-$kind/outputs" "$work/cpu-$kind/outputs"
  cp "$work/$kind"/outputs/profiler/*.pt.trace.json "$work/bare-$kind/outputs/"
  cp "$work/$kind"/outputs/profiler/*.pt.trace.json "$work/cpu-$kind/outputs/"
  cp -r "$work/$kind/metrics" "$work/cpu-$kind/"
done
# What each loop's CPU metric says (measured, not set): the CPU-burning loop busy, the other not.
"$py" - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def cpu(kind):
    doc = json.load(open(f"{work}/{kind}/metrics/workspace-cpu.json"))
    return doc["value"][0]["timeseries"][0]["data"][0]["average"]
busy, idle = cpu("pipeline"), cpu("storage")
print(f"measured CPU: CPU-burning loop {busy:.0f}%, delayed-read loop {idle:.0f}%")
assert busy >= 85, f"the CPU-burning loop used {busy}% of its core"
assert idle < 50, f"the delayed-read loop used {idle}% of its core"
PY
# The storage job's read log alone in its folder; its trace named with --trace (gzipped).
mkdir -p "$work/flag/system_logs"
cp -r "$work/storage/system_logs/data_capability" "$work/flag/system_logs/"
gzip -c "$work"/storage/outputs/profiler/*.pt.trace.json > "$work/flag-trace.pt.trace.json.gz"

check() {  # check NAME EXPECTED_CAUSE CPU_STATE(busy|not busy|-) [postmortem args...]
  local name=$1 expected=$2 cpu_state=$3
  shift 3
  local out="$work/$name.json"
  "$feedcheck" postmortem "$@" --json > "$out" 2> "$work/$name.err" || true
  "$py" - "$out" "$expected" "$name" "$cpu_state" <<'PY'
import json, sys
path, expected, name, cpu_state = sys.argv[1:5]
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
if cpu_state != "-":
    # The node's CPU was read beside the trace and said, per rank and in the evidence.
    assert "cpu_percent" in r, f"{name}: no cpu_percent for the rank"
    assert f"%, {cpu_state} (" in section["evidence"], f"{name}: {section['evidence']}"
    assert (r["cpu_percent"] >= 85) == (cpu_state == "busy"), r["cpu_percent"]
else:
    assert "cpu_percent" not in r and "not recorded" in section["evidence"], section["evidence"]
print(f"ok {name}: {r['steps_covered']}, waited {100 * r['loader_wait_fraction']:.0f}%, "
      f"{r['cause']} ({section['evidence']})")
PY
}
check storage storage "not busy" "$work/storage"
check pipeline input_pipeline busy "$work/pipeline"
check bare-storage cause_not_shown - "$work/bare-storage"
check bare-pipeline cause_not_shown - "$work/bare-pipeline"
check cpu-storage cause_not_shown "not busy" "$work/cpu-storage"
check cpu-pipeline input_pipeline busy "$work/cpu-pipeline"
check flag storage - "$work/flag" --trace "$work/flag-trace.pt.trace.json.gz"
echo "all torch trace checks passed"
