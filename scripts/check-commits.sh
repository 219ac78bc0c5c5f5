#!/usr/bin/env bash
# Checks the subjects of the commits since BASE: each at most 72 characters (details go in the
# body). Usage: scripts/check-commits.sh BASE      e.g. scripts/check-commits.sh origin/main
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# != 1)); then
  echo "usage: scripts/check-commits.sh BASE" >&2
  exit 2
fi
max=72
bad=0
while IFS=$'\t' read -r hash subject; do
  if ((${#subject} > max)); then
    echo "check-commits: ${hash:0:12} subject is ${#subject} characters (at most $max): $subject"
    bad=1
  fi
done < <(git log --format='%H%x09%s' "$1..HEAD")
exit $bad
