#!/usr/bin/env bash
# Fails when tests/data/joblogs differs from what scripts/make-joblog-corpus.py writes from
# scripts/joblog-corpus.yaml: the corpus the tests read is the one its data file describes.
# Usage: check_joblog_corpus.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1 out=$2
rm -rf "$out"
python3 "$src/scripts/make-joblog-corpus.py" "$out" >/dev/null
if diff -r "$src/tests/data/joblogs" "$out" >"$out.diff"; then
  echo "tests/data/joblogs is what scripts/joblog-corpus.yaml writes"
  rm -rf "$out" "$out.diff"
  exit 0
fi
head -c 4000 "$out.diff"
echo
echo "tests/data/joblogs differs from the generator's output (above: < committed, > generated)."
echo "Regenerate it: python3 scripts/make-joblog-corpus.py"
exit 1
