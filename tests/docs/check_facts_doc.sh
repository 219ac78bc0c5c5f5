#!/usr/bin/env bash
# Fails when the committed docs/facts.md differs from what the registry prints.
# Usage: check_facts_doc.sh FACTS_DOC_BINARY DOCS_FACTS_MD
set -euo pipefail
generator=$1 committed=$2
if diff -u "$committed" <("$generator"); then
  echo "docs/facts.md matches the fact registry"
  exit 0
fi
echo "docs/facts.md is out of date with core/fact_registry.cpp (diff above: - committed, + registry)."
echo "Regenerate it: cmake --build build --target facts_doc && build/facts_doc > docs/facts.md"
exit 1
