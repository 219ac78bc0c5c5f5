#!/usr/bin/env bash
# Fails when a committed generated page differs from what its generator prints; with
# FEEDCHECK_UPDATE_DOCS=1 it rewrites the page instead (and passes).
# Usage: check_generated_doc.sh GENERATOR_BINARY COMMITTED_MD
set -euo pipefail
generator=$1 committed=$2
page=docs/$(basename "$committed")
if [ "${FEEDCHECK_UPDATE_DOCS:-}" = 1 ]; then
  "$generator" >"$committed.tmp"
  mv "$committed.tmp" "$committed"
  echo "$page rewritten from $(basename "$generator")"
  exit 0
fi
if diff -u "$committed" <("$generator"); then
  echo "$page matches $(basename "$generator")'s output"
  exit 0
fi
echo "$page is out of date (diff above: - committed, + generated)."
echo "Regenerate it: FEEDCHECK_UPDATE_DOCS=1 ctest --test-dir build -L docs"
exit 1
