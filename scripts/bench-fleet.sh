#!/usr/bin/env bash
# A fleet's post-mortem at scale: JOBS job folders made from the labelled corpus's jobs
# (tests/data/joblogs, cycled and renamed job-0000-<name>, so each job folder is the size of a
# corpus job), then `feedcheck postmortem FLEET -f json` with WORKERS workers, timed, three runs.
# Copies are real copies by default (COPY=copy); COPY=link hard-links the files instead (fast
# to make, same bytes read). The fleet is deleted at the end; nothing is committed.
# Usage: [FEEDCHECK=build/feedcheck] [COPY=copy|link] scripts/bench-fleet.sh [JOBS=1000] [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
feedcheck=${FEEDCHECK:-build/feedcheck}
jobs=${1:-1000}
workers=${2:-2}
copy=${COPY:-copy}
corpus=tests/data/joblogs
tmp=$(mktemp -d /tmp/feedcheck-bench-fleet.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fleet="$tmp/fleet"
mkdir -p "$fleet"

# The corpus's job folders: each holds system_logs/ or node folders (profiles/ and with/ are not
# jobs).
mapfile -t sources < <(for d in "$corpus"/*/; do
  d=${d%/}
  if [[ -d "$d/system_logs" ]] || compgen -G "$d/node-*/system_logs" >/dev/null; then
    echo "$d"
  fi
done)
echo "corpus: ${#sources[@]} jobs, $(du -sm "$corpus" | cut -f1) MB; making $jobs job folders ($copy)"
start=$(date +%s.%N)
for ((i = 0; i < jobs; i++)); do
  src=${sources[$((i % ${#sources[@]}))]}
  dst=$(printf '%s/job-%04d-%s' "$fleet" "$i" "$(basename "$src")")
  if [[ "$copy" == link ]]; then cp -al "$src" "$dst"; else cp -a "$src" "$dst"; fi
done
made=$(date +%s.%N)
echo "fleet: $jobs jobs, $(du -sm "$fleet" | cut -f1) MB, $(find "$fleet" -type f | wc -l) files," \
  "made in $(awk -v a="$start" -v b="$made" 'BEGIN { printf "%.1f", b - a }') s"
# Cold runs need the page cache dropped, which needs root; say which it was.
for run in 1 2 3; do
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$feedcheck" --fail-on never postmortem "$fleet" \
    --workers "$workers" --format json -o "$tmp/out.json" 2>/dev/null || true
  read -r wall user sys rss <"$tmp/time"
  echo "run $run: ${wall} s wall, ${user} s user + ${sys} s sys, peak RSS $((rss / 1024)) MiB," \
    "$workers workers"
done
python3 - "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["fleet"]
t = d["totals"]
print("  jobs %d, diagnosed %d, not diagnosed %d, GPU-hours lost %.1f, top cause %s" % (
    t["jobs"], t["diagnosed"], t["not_diagnosed"], t["gpu_lost_gpu_s"] / 3600,
    t["by_cause"][0]["cause"] if t["by_cause"] else "-"))
PY
