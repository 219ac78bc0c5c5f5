#!/usr/bin/env bash
# Refuses stray files at the repository's top: every tracked top-level name must be on the
# allow-list below (a fuzzer's crash-*, a stray report.html or a scratch file is not).
# usage: scripts/check-top-level.sh [REPO_DIR]   (default: the repository this script is in)
# Exit 0 when every top-level name is allowed, 1 naming each one that is not.
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}

allowed=(
  .ci .clang-format .gitignore CMakeLists.txt CONTRIBUTING.md README.md
  analyzers app cli cmake completion core data diagnosis docs examples mpi probes reports rules
  scripts tests tools transport
)

stray=()
while IFS= read -r name; do
  ok=0
  for a in "${allowed[@]}"; do [[ "$name" == "$a" ]] && ok=1 && break; done
  ((ok)) || stray+=("$name")
done < <(git -C "$repo" ls-files --cached --others --exclude-standard | cut -d/ -f1 | sort -u)

if ((${#stray[@]})); then
  for name in "${stray[@]}"; do
    echo "check-top-level: '$name' is not expected at the repository's top (move it, delete it," \
      "or add it to the allow-list in scripts/check-top-level.sh)" >&2
  done
  exit 1
fi
echo "check-top-level: ok (${#allowed[@]} names allowed)"
