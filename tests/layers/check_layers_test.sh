#!/bin/sh
# A test of scripts/check-layers.sh: it passes on a copy of the source tree, and fails, naming
# the file and line, once a forbidden include is planted in that copy (cli -> probes, core ->
# reports, tools -> cli, probes -> rules). Usage: check_layers_test.sh SOURCE_DIR SCRATCH_DIR
set -eu
src=$1
scratch=$2
check="$src/scripts/check-layers.sh"
fail() {
  echo "FAIL: $*"
  exit 1
}

rm -rf "$scratch"
mkdir -p "$scratch"
# The headers and sources of every layer, as they are.
(cd "$src" && find core probes analyzers rules reports diagnosis mpi app cli tools \
  \( -name '*.h' -o -name '*.cpp' \) -print) |
  while IFS= read -r f; do
    mkdir -p "$scratch/$(dirname "$f")"
    cp "$src/$f" "$scratch/$f"
  done

sh "$check" "$scratch" >"$scratch/clean.out" 2>&1 || {
  cat "$scratch/clean.out"
  fail "the unmodified tree should pass"
}

# plant FILE INCLUDE: appends the include to a copy of FILE, expects a failure naming the line.
plant() {
  file=$1
  include=$2
  cp "$scratch/$file" "$scratch/$file.orig"
  printf '#include "%s"\n' "$include" >>"$scratch/$file"
  line=$(wc -l <"$scratch/$file" | tr -d ' ')
  if sh "$check" "$scratch" >"$scratch/planted.out" 2>&1; then
    cat "$scratch/planted.out"
    fail "$file including $include should fail"
  fi
  grep -q "^$file:$line: .* may not include $include" "$scratch/planted.out" || {
    cat "$scratch/planted.out"
    fail "the message should name $file:$line and $include"
  }
  mv "$scratch/$file.orig" "$scratch/$file"
  echo "ok: $file -> $include refused"
}

plant cli/main.cpp probes/redact.h
plant core/units.h reports/report.h
plant tools/facts_doc.cpp cli/command.h
plant probes/probe.h rules/rule_set.h
plant app/outcome.h cli/command.h

# Allowed edges stay allowed: app -> diagnosis, cli -> app.
printf '#include "diagnosis/diagnosis.h"\n' >>"$scratch/app/outcome.cpp"
printf '#include "app/outcome.h"\n' >>"$scratch/cli/main.cpp"
sh "$check" "$scratch" >"$scratch/allowed.out" 2>&1 || {
  cat "$scratch/allowed.out"
  fail "app -> diagnosis and cli -> app are allowed"
}
echo "ok: allowed edges pass"
rm -rf "$scratch"
